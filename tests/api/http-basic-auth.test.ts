/**
 * The shared HTTP layer's HTTP basic authentication (for AUTOMATIC1111's --api-auth), a query in a
 * request path, and the service message of FastAPI's and AUTOMATIC1111's error bodies.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, extractServiceMessage } from '../../api/errors';
import { createHttp } from '../../api/http';
import { sendJson, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';

const PAIR = 'ann:open sesame-42';
const ENCODED = btoa(PAIR);

let server: MisbehavingServer;
beforeEach(async () => { server = await startMisbehavingServer(); });
afterEach(async () => { await server.close(); });

const basic = (token: string | undefined) => createHttp({ baseUrl: `${server.url}/api?v=2`, token, auth: 'basic', retry: { maxAttempts: 1 } }, 1024 * 1024);

async function caught(run: () => Promise<unknown>): Promise<ApiError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('HTTP basic authentication', () => {
  it('sends user:password as a Basic header; a query in the path joins the base URL\'s', async () => {
    server.handle((_req, res) => sendJson(res, 200, { ok: true }));
    await basic(PAIR).requestJson({ method: 'GET', path: '/progress?skip_current_image=true', accept: 'application/json' }, z.object({ ok: z.boolean() }));
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${ENCODED}`);
    expect(server.requests[0]?.url).toBe('/api/progress?v=2&skip_current_image=true');
  });

  it('redacts the pair, its base64 and the password alone from what the server echoes', async () => {
    server.handle((req, res) => sendJson(res, 401, { detail: `bad ${req.headers.authorization} for ${PAIR} (password open sesame-42)` }));
    const error = await caught(() => basic(PAIR).requestJson({ method: 'GET', path: '/x', accept: 'application/json' }, z.unknown()));
    expect(error.serviceMessage).toBe('bad Basic [redacted] for [redacted] (password [redacted])');
    for (const text of [error.message, JSON.stringify(error), String(error.serviceMessage)]) {
      expect(text).not.toContain('open sesame');
      expect(text).not.toContain(ENCODED);
    }
  });

  it('with a word-like pair (admin:admin), hides the header it echoes and leaves the words of the message', async () => {
    server.handle((req, res) => sendJson(res, 401, { detail: `admin login refused; Authorization: ${String(req.headers.authorization)}` }));
    const error = await caught(() => basic('admin:admin').requestJson({ method: 'GET', path: '/x', accept: 'application/json' }, z.unknown()));
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${btoa('admin:admin')}`);
    expect(error.serviceMessage).toBe('admin login refused; Authorization: Basic [redacted]');
  });

  it('sends no header without a credential, and refuses one that is not user:password without quoting it', async () => {
    server.handle((_req, res) => sendJson(res, 200, {}));
    await basic('  ').requestJson({ method: 'GET', path: '/x', accept: 'application/json' }, z.unknown());
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(() => basic('no-colon-secret')).toThrow(/must be user:password/);
    expect(() => basic('ann:pässword')).toThrow(/printable ASCII/);
    expect(() => basic('no-colon-secret')).not.toThrow(/no-colon-secret/);
  });
});

describe('FastAPI error bodies', () => {
  it('a validation failure: each field where it is and what is wrong', () => {
    expect(extractServiceMessage(JSON.stringify({ detail: [
      { loc: ['body', 'steps'], msg: 'value is not a valid integer', type: 'type_error.integer' },
      { loc: ['query', 'skip_current_image'], msg: 'value could not be parsed to a boolean', type: 'type_error.bool' },
    ] }))).toBe('body.steps: value is not a valid integer; query.skip_current_image: value could not be parsed to a boolean');
  });

  it('AUTOMATIC1111\'s {error, detail, body, errors}: the detail, or the exception with its text', () => {
    expect(extractServiceMessage('{"error":"HTTPException","detail":"Invalid encoded image","body":"","errors":""}')).toBe('Invalid encoded image');
    expect(extractServiceMessage('{"error":"OutOfMemoryError","detail":"","body":"","errors":"CUDA out of memory."}')).toBe('OutOfMemoryError: CUDA out of memory.');
    expect(extractServiceMessage('{"error":"RuntimeError","detail":"","body":"","errors":""}')).toBe('RuntimeError');
    expect(extractServiceMessage('{"error":"rate limited"}')).toBe('rate limited');
  });
});
