/**
 * The forwarder's image backends as the server reads them: ATELIER_IMAGE_BACKEND for every
 * engine, the config file's per-engine `imageBackends` with backend-side names, the credential
 * from ATELIER_BACKEND_TOKEN or the file (refused when others can read it), and every mistake a
 * ConfigError that names the setting.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';

function configFile(content: unknown, mode = 0o600): string {
  const path = join(mkdtempSync(join(tmpdir(), 'atelier-config-')), 'config.json');
  writeFileSync(path, JSON.stringify(content));
  chmodSync(path, mode);
  return path;
}

const noFile = { HOME: mkdtempSync(join(tmpdir(), 'atelier-home-')) };

describe('image backends in the server settings', () => {
  it('none by default', () => {
    expect(loadConfig(noFile).config.forwarder).toMatchObject({ imageBackends: {}, backendToken: undefined });
  });

  it('ATELIER_IMAGE_BACKEND sends every engine to one backend, at its usual address or ATELIER_BACKEND_URL', () => {
    const comfy = loadConfig({ ...noFile, ATELIER_IMAGE_BACKEND: 'comfyui' }).config.forwarder;
    expect(comfy.imageBackends).toEqual({
      sdxl: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188' },
      sd: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188' },
      'controlnet-sdxl': { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188' },
    });
    const a1111 = loadConfig({ ...noFile, ATELIER_IMAGE_BACKEND: 'a1111', ATELIER_BACKEND_URL: 'http://127.0.0.1:7861/', ATELIER_BACKEND_TOKEN: 'me:secret' }).config.forwarder;
    expect(a1111.imageBackends.sd).toEqual({ kind: 'a1111', baseUrl: 'http://127.0.0.1:7861' });
    expect(a1111.backendToken).toBe('me:secret');
  });

  it('the config file chooses per engine, with names; the variable keeps the file\'s names', () => {
    const path = configFile({
      imageBackends: { sd: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', names: { checkpoint: 'v1-5-pruned-emaonly.safetensors' } } },
      backendToken: 'file-token',
    });
    const fromFile = loadConfig({ ...noFile, ATELIER_CONFIG: path }).config.forwarder;
    expect(fromFile.imageBackends).toEqual({ sd: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', names: { checkpoint: 'v1-5-pruned-emaonly.safetensors' } } });
    expect(fromFile.backendToken).toBe('file-token');
    const overridden = loadConfig({ ...noFile, ATELIER_CONFIG: path, ATELIER_IMAGE_BACKEND: 'a1111' }).config.forwarder;
    expect(overridden.imageBackends.sd).toEqual({ kind: 'a1111', baseUrl: 'http://127.0.0.1:7860', names: { checkpoint: 'v1-5-pruned-emaonly.safetensors' } });
  });

  it('a backend credential in a file others can read is ignored, with a warning', () => {
    const path = configFile({ backendToken: 'file-token' }, 0o644);
    const loaded = loadConfig({ ...noFile, ATELIER_CONFIG: path });
    expect(loaded.config.forwarder.backendToken).toBeUndefined();
    expect(loaded.warnings.join('\n')).toContain('chmod 600');
  });

  it('warns when the credential would cross the network in plain http', () => {
    const loaded = loadConfig({ ...noFile, ATELIER_IMAGE_BACKEND: 'openai', ATELIER_BACKEND_URL: 'http://images.example', ATELIER_BACKEND_TOKEN: 'sk-x' });
    expect(loaded.warnings.join('\n')).toMatch(/plain http to images\.example: ATELIER_BACKEND_TOKEN/);
  });

  it.each([
    [{ ATELIER_IMAGE_BACKEND: 'midjourney' }, /ATELIER_IMAGE_BACKEND="midjourney" is not a backend; use one of comfyui, a1111, openai/],
    [{ ATELIER_BACKEND_URL: 'http://127.0.0.1:8188' }, /ATELIER_BACKEND_URL needs ATELIER_IMAGE_BACKEND/],
    [{ ATELIER_IMAGE_BACKEND: 'comfyui', ATELIER_BACKEND_URL: 'http://me:pw@127.0.0.1:8188' }, /backend's baseUrl must not carry credentials/],
  ])('%j is refused, naming the setting', (env, message) => {
    expect(() => loadConfig({ ...noFile, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...noFile, ...env })).toThrow(message);
  });

  it('a config file whose backends have the wrong shape is refused, naming the field', () => {
    const path = configFile({ imageBackends: { sdxl: { kind: 'comfyui' } } });
    expect(() => loadConfig({ ...noFile, ATELIER_CONFIG: path })).toThrow(/imageBackends\.sdxl\.baseUrl/);
  });
});
