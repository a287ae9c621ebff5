import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChatClient, type ChatClientConfig } from '../../api/chat-client';
import type { ApiError } from '../../api/errors';
import { backoffDelay, isRetryableStatus, parseRetryAfter, type RetryNotice } from '../../api/retry';
import {
  completionBody, dropConnection, sendJson, sendText, startMisbehavingServer, type MisbehavingServer,
} from '../helpers/misbehaving-server';

const request = { model: 'test-model', messages: [{ role: 'user' as const, content: 'hello' }] };

let server: MisbehavingServer;
beforeEach(async () => { server = await startMisbehavingServer(); });
afterEach(async () => { await server.close(); });

/** A client whose waits are recorded instead of slept, unless a test wants real sleeps. */
function client(overrides: Partial<ChatClientConfig> = {}, waits: number[] = []) {
  const { retry, ...rest } = overrides;
  return createChatClient({
    baseUrl: server.url,
    timeouts: { headersMs: 2000, idleMs: 2000 },
    ...rest,
    retry: { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5, sleep: async (ms) => { waits.push(ms); }, ...retry },
  });
}

/** Fails the first `failures` requests with `fail`, then answers a completion. */
function failThenSucceed(failures: number, fail: Parameters<MisbehavingServer['handle']>[0]) {
  server.handle((req, res) => (req.index <= failures ? fail(req, res) : sendJson(res, 200, completionBody('finally'))));
}

const failure = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a failure'); }, (e: unknown) => e as ApiError);

describe('retry policy (pure parts)', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1500);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('draws full-jitter backoff below a ceiling that doubles up to the maximum', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, { ...policy, random: () => 0 })).toBe(0);
    expect(backoffDelay(1, { ...policy, random: () => 0.999 })).toBe(99);
    expect(backoffDelay(3, { ...policy, random: () => 0.5 })).toBe(200);
    expect(backoffDelay(10, { ...policy, random: () => 0.5 })).toBe(500);
  });

  it('counts 408, 409, 429 and 5xx as retryable and every other 4xx as not', () => {
    expect([408, 409, 429, 500, 502, 503, 504, 599].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413, 422].some(isRetryableStatus)).toBe(false);
  });

  it('refuses a retry policy that makes no sense', () => {
    expect(() => createChatClient({ baseUrl: server.url, retry: { maxAttempts: 0 } })).toThrow(/maxAttempts/);
    expect(() => createChatClient({ baseUrl: server.url, retry: { baseDelayMs: -1 } })).toThrow(/baseDelayMs/);
  });
});

describe('retries against a misbehaving server', () => {
  it.each([408, 409, 429, 500, 502, 503])('retries HTTP %i and then succeeds', async (status) => {
    failThenSucceed(1, (_req, res) => sendText(res, status, 'try again'));
    const completion = await client().complete(request);
    expect(completion.choices[0]?.message.content).toBe('finally');
    expect(server.requests).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 422])('never retries HTTP %i', async (status) => {
    server.handle((_req, res) => sendText(res, status, 'no'));
    const error = await failure(client({ retry: { maxAttempts: 5 } }).complete(request));
    expect(error).toMatchObject({ kind: 'http', status, retryable: false, attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a dropped connection as a network error', async () => {
    failThenSucceed(2, (_req, res) => dropConnection(res));
    const notices: RetryNotice[] = [];
    await client().complete(request, { onRetry: (n) => notices.push(n) });
    expect(server.requests).toHaveLength(3);
    expect(notices.map((n) => [n.attempt, n.error.kind])).toEqual([[2, 'network'], [3, 'network']]);
  });

  it("does not retry a browser's request to another origin that fails as a TypeError, and asks once whether anything answers", async () => {
    // How a browser reports a CORS refusal, and an unreachable host alike: a bare TypeError. Here
    // the no-cors probe (api/cors.ts) fails too: nothing answered (tests/backends/unanswered.test.ts has CORS).
    let calls = 0;
    const browserFetch = () => {
      calls++;
      return Promise.reject(new TypeError('Failed to fetch'));
    };
    const target = new URL(server.url).origin;
    const error = await failure(client({ pageOrigin: 'http://127.0.0.1:1', fetch: browserFetch, retry: { maxAttempts: 5 } }).complete(request));
    expect(calls).toBe(2);
    expect(error).toMatchObject({ kind: 'network', retryable: false, attempts: 1, unanswered: 'unreachable' });
    expect(error.detail).toBe(`nothing answered at ${target}: is the server running, and is the address right?`);
    expect(error.message).not.toMatch(/attempts|Failed to fetch/);

    // From its own origin the page's request goes through no CORS check: a failure is the network's, worth retrying.
    calls = 0;
    const sameOrigin = await failure(client({ pageOrigin: target, fetch: browserFetch, retry: { maxAttempts: 3 } }).complete(request));
    expect(calls).toBe(3);
    expect(sameOrigin).toMatchObject({ kind: 'network', retryable: true, attempts: 3 });
  });

  it('retries a body cut short before it was complete', async () => {
    failThenSucceed(1, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '500' });
      res.write('{"id":"chatcmpl-');
      setTimeout(() => dropConnection(res), 10);
    });
    await client().complete(request);
    expect(server.requests).toHaveLength(2);
  });

  it('stops after maxAttempts and says how many were made', async () => {
    server.handle((_req, res) => sendText(res, 503, 'still down'));
    const waits: number[] = [];
    const error = await failure(client({ retry: { maxAttempts: 4 } }, waits).complete(request));
    expect(error).toMatchObject({ kind: 'http', status: 503, attempts: 4, retryable: true, serviceMessage: 'still down' });
    expect(error.message).toContain('after 4 attempts');
    expect(server.requests).toHaveLength(4);
    // Full jitter with random() = 0.5: half of 100, 200, 400.
    expect(waits).toEqual([50, 100, 200]);
  });

  it('waits what Retry-After asks, in seconds or as an HTTP date', async () => {
    const waits: number[] = [];
    const inThirtySeconds = new Date(Date.now() + 30_000).toUTCString();
    failThenSucceed(2, (req, res) => sendText(res, req.index === 1 ? 429 : 503, 'slow down', { 'Retry-After': req.index === 1 ? '2' : inThirtySeconds }));
    await client({}, waits).complete(request);
    expect(waits[0]).toBe(2000);
    expect(waits[1]).toBeGreaterThan(28_000);
    expect(waits[1]).toBeLessThanOrEqual(30_000);
  });

  it('gives up when Retry-After asks for more than 60 s, saying how long', async () => {
    server.handle((_req, res) => sendText(res, 429, 'quota exceeded', { 'Retry-After': '120' }));
    const waits: number[] = [];
    const error = await failure(client({}, waits).complete(request));
    expect(error).toMatchObject({ kind: 'http', status: 429, retryAfterMs: 120_000, attempts: 1 });
    expect(error.message).toContain('asked to wait 120 s');
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('ignores Retry-After on a status that is never retried', async () => {
    server.handle((_req, res) => sendText(res, 400, 'bad', { 'Retry-After': '1' }));
    const error = await failure(client().complete(request));
    expect(error.retryAfterMs).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });
});

describe('cancelling', () => {
  it('ends a backoff wait at once when the signal aborts', async () => {
    server.handle((_req, res) => sendText(res, 503, 'down', { 'Retry-After': '30' }));
    const controller = new AbortController();
    const real = createChatClient({ baseUrl: server.url, retry: { maxAttempts: 3 } });
    const started = Date.now();
    const error = await failure(real.complete(request, {
      signal: controller.signal,
      onRetry: () => { setTimeout(() => controller.abort(), 20); },
    }));
    // The wait was 30 s; the call must end with the abort, not with the wait.
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error).toMatchObject({ kind: 'aborted', attempts: 1, retryable: false, status: 503 });
    expect(server.requests).toHaveLength(1);
  });

  it('does not send anything when the signal is already aborted', async () => {
    const error = await failure(client().complete(request, { signal: AbortSignal.abort() }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('cancels a request in flight, and the server sees the connection close', async () => {
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => { arrived = resolve; });
    server.handle(() => { arrived(); /* and never answers */ });
    const controller = new AbortController();
    const pending = failure(client().complete(request, { signal: controller.signal }));
    // Cancel once the server holds the request, however long a loaded machine takes to send it.
    await inFlight;
    controller.abort();
    expect(await pending).toMatchObject({ kind: 'aborted', retryable: false });
    await server.clientHungUp(1);
  });

  it('times out a response that never starts, and retries the timeout', async () => {
    server.handle(() => { /* never answers */ });
    const error = await failure(client({ timeouts: { headersMs: 60, idleMs: 1000 }, retry: { maxAttempts: 2 } }).complete(request));
    expect(error).toMatchObject({ kind: 'timeout', attempts: 2, retryable: true });
    expect(error.message).toContain('no response within 60 ms');
    expect(server.requests).toHaveLength(2);
  });
});
