/** AUTOMATIC1111's failures, as the backend tells them: in words, never with the credential. */
import { afterEach, describe, expect, it } from 'vitest';
import { isApiError, type ApiError } from '../../../api/errors';
import type { FetchLike } from '../../../api/exchange';
import { startA1111Double, type A1111Double } from '../../helpers/doubles/a1111';
import { startMisbehavingServer, sendJson, type MisbehavingServer } from '../../helpers/misbehaving-server';
import { backendFor } from './fixtures';

let double: A1111Double | undefined;
let other: MisbehavingServer | undefined;
afterEach(async () => {
  await double?.close();
  await other?.close();
  double = undefined;
  other = undefined;
});

async function failure(run: Promise<unknown>): Promise<ApiError> {
  const error = await run.then(() => undefined, (e: unknown) => e);
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const PASSWORD = 'hunter2-correct-horse';
const posts = (d: A1111Double) => d.events.filter((e) => e.type === 'request' && e.method === 'POST' && e.path === '/sdapi/v1/txt2img').length;

describe('AUTOMATIC1111 errors in words', () => {
  it('a server that is not running: not reachable, with the flag to start it', async () => {
    const gone = await startA1111Double();
    await gone.close();
    const error = await failure(backendFor(gone).generate('sdxl', { prompt: 'x' }));
    expect(error.kind).toBe('network');
    // Only a browser's failure can be CORS (tests/backends/unanswered.test.ts): a refused connection is not.
    expect(error.detail).toMatch(/^AUTOMATIC1111 is not reachable at http:\/\/127\.0\.0\.1:\d+ \(.*ECONNREFUSED.*\): is it running, started with --api\?$/);
  });

  it('a server started without --api: its routes are missing', async () => {
    other = await startMisbehavingServer((_req, res) => sendJson(res, 404, { detail: 'Not Found' }));
    const error = await failure(backendFor(other as unknown as A1111Double).generate('sdxl', { prompt: 'x' }));
    expect(error.detail).toBe(`AUTOMATIC1111 at ${other.url} answers, but not with its API (HTTP 404): start it with --api`);
    expect(error.retryable).toBe(false);
  });

  it('--api-auth: basic credentials sent; a missing or wrong one explained, the password never shown', async () => {
    double = await startA1111Double({ apiAuth: `ann:${PASSWORD}` });
    const none = await failure(backendFor(double).generate('sdxl', { prompt: 'x' }));
    expect(none.detail).toBe('AUTOMATIC1111 asks for a user name and password (it was started with --api-auth): set this backend\'s credential as user:password');
    const wrong = await failure(backendFor(double, { token: 'ann:nope-nope' }).generate('sdxl', { prompt: 'x' }));
    expect(wrong.detail).toMatch(/^AUTOMATIC1111 refused the user name and password \(Incorrect username or password\)/);
    expect(wrong.retryable).toBe(false);
    const result = await backendFor(double, { token: `ann:${PASSWORD}` }).generate('sdxl', { prompt: 'x', steps: 2 });
    expect(result.images).toHaveLength(1);
    const sentAuth = double.events.flatMap((e) => (e.type === 'request' && e.path === '/sdapi/v1/txt2img' ? [e.authorization] : []));
    expect(sentAuth.at(-1)).toBe(`Basic ${btoa(`ann:${PASSWORD}`)}`);
    for (const error of [none, wrong]) expect(JSON.stringify({ ...error.toJSON(), detail: error.detail })).not.toContain(PASSWORD);
  });

  it('a field AUTOMATIC1111 refuses (a server that reads it otherwise): its 422 names the field', async () => {
    double = await startA1111Double();
    // As a server of another version might: the steps arrive as text it cannot read as a number.
    const mangle: FetchLike = (input, init) => {
      if (!input.endsWith('/txt2img')) return fetch(input, init);
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      return fetch(input, { ...init, body: JSON.stringify({ ...body, steps: 'many', batch_size: [2] }) });
    };
    const error = await failure(backendFor(double, { fetch: mangle }).generate('sdxl', { prompt: 'x' }));
    expect(error.status).toBe(422);
    expect(error.detail).toBe('AUTOMATIC1111 refused the request (HTTP 422): batch_size (from num_images): value is not a valid integer; steps: value is not a valid integer');
    expect(error.retryable).toBe(false);
  });

  it('out of GPU memory: what was asked and what to change, not retried', async () => {
    double = await startA1111Double({ vramPixels: 1024 * 1024 * 2 });
    const backend = backendFor(double, { retry: { maxAttempts: 3, sleep: () => Promise.resolve() } });
    const error = await failure(backend.generate('sdxl', { prompt: 'x', num_images: 4 }));
    expect(error.status).toBe(500);
    expect(error.detail).toMatch(/^AUTOMATIC1111 ran out of GPU memory making 4 images of 1024×1024: ask for fewer images \(num_images\) or a smaller size, or start it with --medvram or --lowvram \(OutOfMemoryError: CUDA out of memory\./);
    expect(error.retryable).toBe(false);
    expect(posts(double)).toBe(1);
  });

  it('a failure while generating (a refiner the server loses between check and run) is its message, not retried', async () => {
    double = await startA1111Double();
    const dropRefiner: FetchLike = (input, init) => (input.endsWith('/txt2img')
      ? fetch(input, { ...init, body: JSON.stringify({ ...(JSON.parse(String(init.body)) as object), refiner_checkpoint: 'gone_refiner' }) })
      : fetch(input, init));
    const backend = backendFor(double, { fetch: dropRefiner, retry: { maxAttempts: 3, sleep: () => Promise.resolve() } });
    const error = await failure(backend.generate('sdxl', { prompt: 'x', use_refiner: true }));
    expect(error.detail).toBe('AUTOMATIC1111 failed while generating (HTTP 500): Exception: Could not find checkpoint with name gone_refiner');
    expect(posts(double)).toBe(1);
  });

  it('a credential that is not user:password is refused when the backend is made, without quoting it', () => {
    expect(() => backendFor({ url: 'http://127.0.0.1:9' } as A1111Double, { token: 'just-a-secret-token' })).toThrow(/must be user:password/);
    expect(() => backendFor({ url: 'http://127.0.0.1:9' } as A1111Double, { token: 'just-a-secret-token' })).not.toThrow(/just-a-secret/);
  });
});
