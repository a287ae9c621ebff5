/**
 * The shared HTTP layer's API key in a header of its own (`auth: { header }`, Google's
 * x-goog-api-key): the key is that header's whole value, no Authorization is sent, and the key is
 * redacted from anything the server echoes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../api/errors';
import { createHttp } from '../../api/http';
import { sendJson, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';

const KEY = 'AIzaSy-key-header-test-0123456789';

let server: MisbehavingServer;
beforeEach(async () => { server = await startMisbehavingServer(); });
afterEach(async () => { await server.close(); });

const keyed = (token: string | undefined) => createHttp({ baseUrl: server.url, token, auth: { header: 'x-goog-api-key' }, retry: { maxAttempts: 1 } }, 1024 * 1024);

describe('an API key in its own header', () => {
  it('sends the key as the header\'s whole value, and no Authorization', async () => {
    server.handle((_req, res) => sendJson(res, 200, { ok: true }));
    await keyed(` ${KEY} `).requestJson({ method: 'GET', path: '/v1beta/models', accept: 'application/json' }, z.object({ ok: z.boolean() }));
    expect(server.requests[0]?.headers['x-goog-api-key']).toBe(KEY);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[0]?.url).toBe('/v1beta/models');
  });

  it('redacts the key from what the server echoes, and sends no header without one', async () => {
    server.handle((req, res) => sendJson(res, 400, { error: { message: `key ${String(req.headers['x-goog-api-key'])} not valid` } }));
    const error = await keyed(KEY).requestJson({ method: 'GET', path: '/x', accept: 'application/json' }, z.unknown()).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    for (const text of [(error as ApiError).message, JSON.stringify(error)]) expect(text).not.toContain(KEY);
    server.handle((_req, res) => sendJson(res, 200, {}));
    await keyed('').requestJson({ method: 'GET', path: '/y', accept: 'application/json' }, z.unknown());
    expect(server.requests.at(-1)?.headers['x-goog-api-key']).toBeUndefined();
  });
});
