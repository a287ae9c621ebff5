/** What the shared HTTP layer offers backends: multipart bodies, the error body, and their own error rules. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../api/errors';
import { createHttp } from '../../api/http';
import { caught } from '../helpers/caught';
import { sendJson, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';

const TOKEN = 'sk-hooks-secret-1234';
const Ok = z.object({ ok: z.boolean() });

let server: MisbehavingServer;
beforeEach(async () => { server = await startMisbehavingServer(); });
afterEach(async () => { await server.close(); });

const http = (maxAttempts = 1) => createHttp({ baseUrl: server.url, token: TOKEN, retry: { maxAttempts, sleep: () => Promise.resolve() } }, 1024 * 1024);

describe('shared HTTP layer for backends', () => {
  it('sends a FormData body as multipart/form-data, not as JSON', async () => {
    server.handle((_req, res) => sendJson(res, 200, { ok: true }));
    const form = new FormData();
    form.append('prompt', 'a fox');
    await http().requestJson({ method: 'POST', path: '/upload', body: form, accept: 'application/json' }, Ok);
    const [sent] = server.requests;
    expect(sent?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent?.body).toContain('name="prompt"\r\n\r\na fox');
  });

  it('keeps the error body, redacted, for a backend to read its codes from', async () => {
    server.handle((_req, res) => sendJson(res, 400, { error: { message: `bad key ${TOKEN}`, param: 'size', code: 'invalid_value' } }));
    const error = await caught(http().requestJson({ method: 'GET', path: '/x', accept: 'application/json' }, Ok));
    expect(JSON.parse(error.serviceBody ?? '{}')).toEqual({ error: { message: 'bad key [redacted]', param: 'size', code: 'invalid_value' } });
  });

  it('lets a backend rewrite an attempt\'s error before the retry decision', async () => {
    server.handle((_req, res) => sendJson(res, 429, { error: { code: 'insufficient_quota' } }));
    const rewritten = await caught(http(3).requestJson({ method: 'GET', path: '/x', accept: 'application/json' }, Ok, {
      mapError: (e) => new ApiError({ kind: 'http', detail: 'no quota', endpoint: e.endpoint, attempts: e.attempts, retryable: false, status: e.status }),
    }));
    expect(rewritten).toMatchObject({ detail: 'no quota', retryable: false, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    const plain = await caught(http(3).requestJson({ method: 'GET', path: '/x', accept: 'application/json' }, Ok));
    expect(plain.attempts).toBe(3);
  });
});
