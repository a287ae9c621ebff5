/**
 * A pool's servers as typed outside the editor: the CLI's repeated --backend-url and the server's
 * ATELIER_BACKEND_URL, `[LABEL=]URL` each, and each server's own credential from the environment.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServers, poolTokens, serverCredentials, serverTokenVariable } from '../../../api/backends/pool/servers';
import { BackendConfigSchema } from '../../../api/backends/config';
import { resolveBackends } from '../../../cli/backends';
import { ConfigError, loadConfig } from '../../../server/config';
import { secretsOf as appSecrets } from '../../../server/app';

const fail = (message: string) => new Error(message);
const none = { checkpoints: [], assets: [] };
const noFile = { HOME: mkdtempSync(join(tmpdir(), 'atelier-home-')) };

describe('pool servers typed as [LABEL=]URL', () => {
  it('splits the label at the first = before the scheme, and names unlabelled servers by place', () => {
    expect(parseServers(['gpu1=http://127.0.0.1:8188', 'http://10.0.0.7:8188'], fail)).toEqual([
      { label: 'gpu1', url: 'http://127.0.0.1:8188' },
      { label: 'server 2', url: 'http://10.0.0.7:8188' },
    ]);
    // One value may list several, as an environment variable does.
    expect(parseServers(['a=http://h:1, b=http://h:2'], fail).map((s) => s.label)).toEqual(['a', 'b']);
  });

  it('refuses an empty label or URL and two servers of one label, naming which', () => {
    expect(() => parseServers(['=http://h:1'], fail)).toThrow("server 1 '=http://h:1' has '=' but no label before it");
    expect(() => parseServers(['a=http://h:1', 'b='], fail)).toThrow("server 2 'b=' has no URL after '='");
    expect(() => parseServers(['a=http://h:1', 'a=http://h:2'], fail)).toThrow("'a' names two servers");
  });

  it("takes each server's own credential from ATELIER_BACKEND_TOKEN_<LABEL>", () => {
    expect(serverTokenVariable('desk gpu-2')).toBe('ATELIER_BACKEND_TOKEN_DESK_GPU_2');
    const servers = [{ label: 'gpu1', url: 'http://a' }, { label: 'gpu2', url: 'http://b' }];
    expect(serverCredentials(servers, { ATELIER_BACKEND_TOKEN_GPU2: ' me:pw ' })).toEqual([undefined, 'me:pw']);
  });

  it('a pool in a config may leave baseUrl out: it is the first server', () => {
    const parsed = BackendConfigSchema.parse({ kind: 'comfyui', baseUrls: [{ label: 'a', url: 'http://h:1' }, { label: 'b', url: 'http://h:2' }] });
    expect(parsed.baseUrl).toBe('http://h:1');
  });
});

describe('the CLI: --backend-url repeated', () => {
  it('makes a pool of ComfyUI or AUTOMATIC1111 servers, the first being the base URL', async () => {
    const backends = await resolveBackends({ ...none, kind: 'comfyui', url: ['gpu1=http://127.0.0.1:8188/', 'gpu2=http://127.0.0.1:8189'] }, '/');
    expect(backends.sdxl).toEqual({ kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', baseUrls: [{ label: 'gpu1', url: 'http://127.0.0.1:8188' }, { label: 'gpu2', url: 'http://127.0.0.1:8189' }] });
    // One server, labelled or not, is the plain backend.
    expect(await resolveBackends({ ...none, kind: 'a1111', url: 'desk=http://127.0.0.1:7861' }, '/')).toMatchObject({ sd: { kind: 'a1111', baseUrl: 'http://127.0.0.1:7861' } });
  });

  it('refuses several servers for a backend that takes one, and a bad server URL, naming the server', async () => {
    await expect(resolveBackends({ ...none, kind: 'openai', url: ['http://127.0.0.1:1', 'http://127.0.0.1:2'] }, '/')).rejects.toThrow('--backend-url: OpenAI Images takes one server; only comfyui or a1111 take several');
    await expect(resolveBackends({ ...none, kind: 'comfyui', url: ['a=http://127.0.0.1:1', 'b=ftp://x'] }, '/')).rejects.toThrow('--backend-url b must be an http or https URL');
  });
});

describe('the server: ATELIER_BACKEND_URL as a list, and baseUrls in the config file', () => {
  it('reads a pool from the environment, with a credential per server kept secret', () => {
    const { config } = loadConfig({ ...noFile, ATELIER_IMAGE_BACKEND: 'comfyui', ATELIER_BACKEND_URL: 'gpu1=http://127.0.0.1:8188,gpu2=http://127.0.0.1:8189/', ATELIER_BACKEND_TOKEN_GPU2: 'tok-2' });
    expect(config.forwarder.imageBackends.sdxl).toEqual({ kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', baseUrls: [{ label: 'gpu1', url: 'http://127.0.0.1:8188' }, { label: 'gpu2', url: 'http://127.0.0.1:8189' }] });
    expect(config.forwarder.serverTokens?.get('gpu2')).toBe('tok-2');
    expect(appSecrets(config)).toContain('tok-2');
    expect(() => loadConfig({ ...noFile, ATELIER_IMAGE_BACKEND: 'openai', ATELIER_BACKEND_URL: 'http://a:1,http://b:2' })).toThrow(ConfigError);
  });

  it('reads baseUrls and backendTokens from the config file, the environment winning', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'atelier-config-')), 'config.json');
    writeFileSync(path, JSON.stringify({
      imageBackends: { sdxl: { kind: 'a1111', baseUrls: [{ label: 'desk', url: 'http://127.0.0.1:7860' }, { label: 'box', url: 'http://127.0.0.1:7861' }] } },
      backendTokens: { desk: 'file-desk', box: 'file-box' },
    }));
    chmodSync(path, 0o600);
    const { config } = loadConfig({ ...noFile, ATELIER_CONFIG: path, ATELIER_BACKEND_TOKEN_BOX: 'env-box' });
    expect(config.forwarder.imageBackends.sdxl?.baseUrl).toBe('http://127.0.0.1:7860');
    expect([...config.forwarder.serverTokens!]).toEqual([['desk', 'file-desk'], ['box', 'env-box']]);
    expect(poolTokens([], {})).toEqual(new Map());
  });
});
