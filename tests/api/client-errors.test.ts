import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChatClient } from '../../api/chat-client';
import type { ChatStreamEvent } from '../../api/client-types';
import { ApiError, describeEndpoint, extractServiceMessage, redact } from '../../api/errors';
import {
  chunkFrame, dropConnection, sendJson, sendText, startMisbehavingServer, startStream, type MisbehavingServer,
} from '../helpers/misbehaving-server';

/** Recognisable, and with a character that URL encoding changes. */
const TOKEN = 'sk-ATELIER-TEST-SECRET-7f3a9c/e1';
const request = { model: 'test-model', messages: [{ role: 'user' as const, content: 'hello' }] };

let server: MisbehavingServer;
beforeEach(async () => { server = await startMisbehavingServer(); });
afterEach(async () => { await server.close(); });

const client = (timeouts = { headersMs: 2000, idleMs: 2000 }) =>
  createChatClient({ baseUrl: `${server.url}/local/text?api-version=7`, token: TOKEN, timeouts, retry: { maxAttempts: 1 } });

async function caught(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

/** Every way an error can be shown or stored. */
function renderings(error: ApiError): string[] {
  return [error.message, error.endpoint, String(error), error.toString(), JSON.stringify(error), error.stack ?? '',
    String(error.serviceMessage), String(error.partialText), String(error.cause), JSON.stringify({ wrapped: error })];
}

function expectNoToken(error: ApiError) {
  for (const text of renderings(error)) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(encodeURIComponent(TOKEN));
  }
}

describe('the token never leaks', () => {
  it('sends it as a Bearer header', async () => {
    server.handle((_req, res) => sendText(res, 500, 'x'));
    await caught(() => client().complete(request));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(server.requests[0]?.url).toBe('/local/text/v1/chat/completions?api-version=7');
  });

  it('is redacted from a text error body that echoes the Authorization header', async () => {
    server.handle((req, res) => sendText(res, 401, `invalid credentials: ${req.headers.authorization}`));
    const error = await caught(() => client().complete(request));
    expect(error.serviceMessage).toBe('invalid credentials: Bearer [redacted]');
    expectNoToken(error);
  });

  it('is redacted from a JSON error body, URL-encoded echoes included', async () => {
    server.handle((req, res) => sendJson(res, 403, { error: { message: `token ${req.headers.authorization} (${encodeURIComponent(TOKEN)}) is not allowed` } }));
    const error = await caught(() => client().complete(request));
    expect(error.serviceMessage).toBe('token Bearer [redacted] ([redacted]) is not allowed');
    expectNoToken(error);
  });

  it('is redacted from a non-JSON 200 body quoted in an invalid-response error', async () => {
    server.handle((req, res) => sendText(res, 200, `hello ${req.headers.authorization}`));
    const error = await caught(() => client().complete(request));
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toContain('not JSON');
    expectNoToken(error);
  });

  it('is absent from network, timeout, protocol and stream errors', async () => {
    server.handle((_req, res) => dropConnection(res));
    expectNoToken(await caught(() => client().complete(request)));

    server.handle(() => { /* silence */ });
    expectNoToken(await caught(() => client({ headersMs: 50, idleMs: 50 }).complete(request)));

    server.handle((req, res) => { startStream(res, [chunkFrame(`echo ${req.headers.authorization}`), `data: {"error":{"message":"${TOKEN}"}}\n\n`]); res.end(); });
    const events: ChatStreamEvent[] = [];
    const error = await caught(async () => { for await (const e of client().stream(request)) events.push(e); });
    expect(error.kind).toBe('http');
    expectNoToken(error);
  });

  it('refuses a token that cannot be a header value without quoting it', () => {
    expect(() => createChatClient({ baseUrl: server.url, token: 'abc\ndef-secret' })).toThrow(/copied whole/);
    try {
      createChatClient({ baseUrl: server.url, token: 'abc def-secret' });
    } catch (error) {
      expect(String(error)).not.toContain('def-secret');
    }
  });

  it('trims whitespace around the token and sends no header for an empty one', async () => {
    server.handle((_req, res) => sendText(res, 400, 'x'));
    await caught(() => createChatClient({ baseUrl: server.url, token: `  ${TOKEN}\n`, retry: { maxAttempts: 1 } }).complete(request));
    await caught(() => createChatClient({ baseUrl: server.url, token: '', retry: { maxAttempts: 1 } }).complete(request));
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
  });
});

describe('errors say where', () => {
  it('names the endpoint without its query string', async () => {
    server.handle((_req, res) => sendText(res, 404, 'not here'));
    const error = await caught(() => client().complete(request));
    expect(error.endpoint).toBe(`POST ${server.url}/local/text/v1/chat/completions`);
    expect(error.message).toBe(`POST ${server.url}/local/text/v1/chat/completions: HTTP 404 Not Found: not here`);
  });

  it('strips userinfo and query from an endpoint, and refuses userinfo in a base URL', () => {
    expect(describeEndpoint('post', 'https://user:pw@example.com/v1/x?key=abc#f')).toBe('POST https://example.com/v1/x');
    expect(() => createChatClient({ baseUrl: 'https://user:hunter2@example.com' })).toThrow(/user name or password/);
    try {
      createChatClient({ baseUrl: 'https://user:hunter2@example.com' });
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
    expect(() => createChatClient({ baseUrl: 'example.com/v1' })).toThrow(/absolute http\(s\) URL/);
    expect(() => createChatClient({ baseUrl: 'ftp://example.com' })).toThrow(/http or https/);
  });

  it('extracts the service message from the usual error body shapes', () => {
    expect(extractServiceMessage('  width: not supported \n')).toBe('width: not supported');
    expect(extractServiceMessage('{"error":{"message":"bad model","type":"x"}}')).toBe('bad model');
    expect(extractServiceMessage('{"error":"rate limited"}')).toBe('rate limited');
    expect(extractServiceMessage('{"detail":"Not authenticated"}')).toBe('Not authenticated');
    expect(extractServiceMessage('{"weird":true}')).toBe('{"weird":true}');
    expect(extractServiceMessage('{broken')).toBe('{broken');
    expect(extractServiceMessage('x'.repeat(5000))).toHaveLength(4001);
  });

  it('redacts every occurrence and leaves other text alone', () => {
    expect(redact('a SECRET-42x b SECRET-42x', ['SECRET-42x'])).toBe('a [redacted] b [redacted]');
    expect(redact('nothing here', [])).toBe('nothing here');
  });

  it('keeps all context when an error is amended', () => {
    const error = new ApiError({ kind: 'network', detail: 'network error: reset', endpoint: 'POST http://h/x', attempts: 1, retryable: true, status: undefined });
    const amended = error.with({ partialText: 'Once upon', attempts: 3 });
    expect(amended).toMatchObject({ kind: 'network', endpoint: 'POST http://h/x', attempts: 3, retryable: true, partialText: 'Once upon' });
    expect(amended.message).toBe('POST http://h/x: network error: reset (after 3 attempts)');
    expect(JSON.parse(JSON.stringify(amended))).toMatchObject({ name: 'ApiError', kind: 'network', partialText: 'Once upon', attempts: 3 });
  });
});
