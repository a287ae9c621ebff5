/**
 * Contract: Host and Origin are checked on every route (DNS rebinding, cross-site use), and a body
 * over ATELIER_MAX_BODY_MB is refused with 413 however it is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { raw } from './http';

let server: ServerProcess;
const DEV_ORIGIN = 'http://localhost:5173';

beforeAll(async () => {
  server = await startServer({ ATELIER_MAX_BODY_MB: '1', ATELIER_ALLOWED_ORIGINS: DEV_ORIGIN });
});
afterAll(async () => {
  await server.stop();
});

const MB = 1024 * 1024;
const body = JSON.stringify({ prompt: 'a lighthouse', steps: 2 });
const post = (path: string, headers: Record<string, string>) =>
  raw(server.url, path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

describe('Host check', () => {
  it('refuses a foreign Host name on every route (DNS rebinding)', async () => {
    for (const path of ['/', '/api/info', '/local/image', '/local/text/v1/models', '/forward/text/v1/models']) {
      const res = await raw(server.url, path, { headers: { Host: `evil.example:${server.port}` } });
      expect(res.status, path).toBe(403);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toContain("Host: 'evil.example:");
    }
    expect((await post('/local/image/generate/sdxl', { Host: `attacker.test:${server.port}` })).status).toBe(403);
  });
  it('refuses the right name on the wrong port', async () => {
    expect((await raw(server.url, '/api/info', { headers: { Host: `127.0.0.1:${server.port + 1}` } })).status).toBe(403);
  });
  it('accepts the loopback names with the right port', async () => {
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `LOCALHOST:${server.port}`, `[::1]:${server.port}`]) {
      expect((await raw(server.url, '/api/info', { headers: { Host: host } })).status, host).toBe(200);
    }
  });
});

describe('Origin check', () => {
  it('refuses a POST from another site, saying why', async () => {
    for (const path of ['/local/image/generate/sdxl', '/local/text/v1/chat/completions', '/forward/image/generate/sdxl']) {
      const res = await post(path, { Origin: 'https://evil.example' });
      expect(res.status, path).toBe(403);
      expect(res.text).toContain("Origin: 'https://evil.example' may not use this server");
    }
    expect((await post('/local/image/generate/sdxl', { Origin: 'null' })).status).toBe(403);
    expect((await post('/local/image/generate/sdxl', { Origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
  });
  it('accepts the server\'s own origin, ATELIER_ALLOWED_ORIGINS, and requests without Origin', async () => {
    expect((await post('/local/image/generate/sdxl', { Origin: `http://127.0.0.1:${server.port}` })).status).toBe(200);
    expect((await post('/local/image/generate/sdxl', { Origin: `http://localhost:${server.port}`, Host: `localhost:${server.port}` })).status).toBe(200);
    expect((await post('/local/image/generate/sdxl', { Origin: DEV_ORIGIN })).status).toBe(200);
    expect((await post('/local/image/generate/sdxl', {})).status).toBe(200);
  });
  it('refuses a foreign Origin on reads as well', async () => {
    expect((await raw(server.url, '/api/info', { headers: { Origin: 'https://evil.example' } })).status).toBe(403);
  });
});

describe('body size limit (ATELIER_MAX_BODY_MB=1)', () => {
  const big = Buffer.alloc(MB + 10, 0x20);
  it('refuses a declared Content-Length over the limit with 413 naming body', async () => {
    const res = await raw(server.url, '/local/image/generate/sdxl', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: big });
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain('body: larger than the limit of 1 MB');
  });
  it('refuses a chunked body that grows past the limit', async () => {
    const chunks = Array.from({ length: 12 }, () => Buffer.alloc(100 * 1024, 0x20));
    const res = await raw(server.url, '/local/text/v1/chat/completions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, chunks });
    expect(res.status).toBe(413);
    expect(res.text).toContain('ATELIER_MAX_BODY_MB');
  });
  it('accepts a body just under the limit and keeps serving afterwards', async () => {
    const padded = JSON.stringify({ prompt: 'a lighthouse', steps: 2 }).padEnd(MB - 100, ' ');
    const res = await raw(server.url, '/local/image/generate/sdxl', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: padded });
    expect(res.status, res.text).toBe(200);
  });
});
