/**
 * Contract: the server says where everything is when it starts, refuses unusable settings with a
 * message naming them, and warns when it is reachable from other machines.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runServerExpectingExit, startServer } from '../helpers/server-process';
import { raw } from './http';

describe('start-up', () => {
  it('prints the listening line and where the engines and the forwarder are', async () => {
    const server = await startServer({ ATELIER_LOCAL_TOKEN_MS: '25', ATELIER_LOCAL_STEP_MS: '3' });
    const { output } = await server.stop();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    expect(output).toContain(`image engine: ${server.url}/local/image  (local stand-in, 3 ms per step)`);
    expect(output).toContain(`text engine:  ${server.url}/local/text  (local stand-in, 25 ms per token`);
    expect(output).toContain('forwarder:    image off (set ATELIER_IMAGE_BASE_URL, or ATELIER_IMAGE_BACKEND for ComfyUI, AUTOMATIC1111 or OpenAI Images), text to the local text engine (offline stand-in; set ATELIER_TEXT_BASE_URL for a real chat API)');
    expect(output).not.toContain('warning');
  });

  it('warns when bound to every interface, and still answers on loopback', async () => {
    const server = await startServer({ HOST: '0.0.0.0' });
    try {
      expect(server.output()).toContain('warning: HOST=0.0.0.0 is not a loopback address');
      expect((await raw(server.url, '/api/info')).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('refuses a port that is taken, saying what to do', async () => {
    const first = await startServer();
    try {
      const second = await runServerExpectingExit({ PORT: String(first.port) });
      expect(second.code).toBe(1);
      expect(second.output).toContain(`port ${first.port} on 127.0.0.1 is already in use`);
    } finally {
      await first.stop();
    }
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT="eighty" is not a number'],
    [{ ATELIER_MAX_BODY_MB: '-1' }, 'ATELIER_MAX_BODY_MB'],
    [{ ATELIER_LOCAL_TOKEN_MS: '1.5' }, 'ATELIER_LOCAL_TOKEN_MS'],
    [{ ATELIER_IMAGE_BASE_URL: 'not a url' }, 'ATELIER_IMAGE_BASE_URL is not a URL'],
    [{ ATELIER_TEXT_BASE_URL: 'ftp://files.example' }, 'ATELIER_TEXT_BASE_URL must be an http or https URL'],
    [{ ATELIER_IMAGE_BASE_URL: 'https://user:pass@api.example' }, 'must not carry credentials'],
    [{ ATELIER_ALLOWED_ORIGINS: 'http://localhost:5173/app' }, 'ATELIER_ALLOWED_ORIGINS'],
    [{ ATELIER_CONFIG: '/nonexistent/atelier.json' }, 'cannot read the config file /nonexistent/atelier.json'],
  ])('refuses %o', async (env, message) => {
    const { code, output } = await runServerExpectingExit(env);
    expect(code).toBe(1);
    expect(output).toContain(message);
  });

  it('refuses a config file that is not JSON or has unknown fields, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-config-'));
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ imageBaseUrl: nope', { mode: 0o600 });
    const typo = join(dir, 'typo.json');
    writeFileSync(typo, JSON.stringify({ imageBaseURL: 'https://api.example' }), { mode: 0o600 });
    const a = await runServerExpectingExit({ ATELIER_CONFIG: broken });
    expect(a.output).toContain(`the config file ${broken} is not valid JSON`);
    const b = await runServerExpectingExit({ ATELIER_CONFIG: typo });
    expect(b.output).toContain('imageBaseURL');
    expect(b.code).toBe(1);
  });
});
