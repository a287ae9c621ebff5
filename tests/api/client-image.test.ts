import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { IMAGE_MAX_RESPONSE_BYTES, createImageClient, type ImageClientConfig } from '../../api/image-client';
import { sendJson, sendText, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';

const body = { images: [{ image_b64: '/9j/4AAQSkZJRgABAQ==', seed: 42, removed_for_safety: false }], prediction_time_ms: 812, request_id: 'r-1' };
const request = { prompt: 'a lighthouse at night', seed: 42 };

let server: MisbehavingServer;
beforeEach(async () => { server = await startMisbehavingServer(); });
afterEach(async () => { await server.close(); });

const client = (overrides: Partial<ImageClientConfig> = {}) => createImageClient({
  baseUrl: server.url, timeouts: { headersMs: 2000, idleMs: 2000 }, retry: { maxAttempts: 1 }, ...overrides,
});

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('image client', () => {
  it('posts the request as JSON to /generate/{engine} and returns the parsed body, extra fields kept', async () => {
    server.handle((_req, res) => sendJson(res, 200, body));
    const response = await client({ token: 'tok-img' }).generate('controlnet-sdxl', request);
    expect(response).toEqual(body);
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: 'POST', url: '/generate/controlnet-sdxl' });
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.authorization).toBe('Bearer tok-img');
    expect(JSON.parse(sent?.body ?? '')).toEqual(request);
  });

  it('joins paths under a base path with or without trailing slashes, and sends no Authorization without a token', async () => {
    server.handle((_req, res) => sendJson(res, 200, body));
    await client({ baseUrl: `${server.url}/local/image/` }).generate('sdxl', request);
    await client({ baseUrl: `${server.url}/local/image//` }).generate('sd', request);
    expect(server.requests.map((r) => r.url)).toEqual(['/local/image/generate/sdxl', '/local/image/generate/sd']);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('reports a text error body as the service message, without retrying a 400', async () => {
    server.handle((_req, res) => sendText(res, 400, 'width: 1000x1000 is not a supported SDXL resolution'));
    const error = await caught(client({ retry: { maxAttempts: 3 } }).generate('sdxl', { ...request, width: 1000, height: 1000 }));
    expect(error).toMatchObject({ kind: 'http', status: 400, retryable: false, attempts: 1, serviceMessage: 'width: 1000x1000 is not a supported SDXL resolution' });
    expect(error.endpoint).toBe(`POST ${server.url}/generate/sdxl`);
    expect(server.requests).toHaveLength(1);
  });

  it('calls a 200 body that is not JSON an invalid response, naming the endpoint', async () => {
    server.handle((_req, res) => sendText(res, 200, '<html>Gateway login</html>', { 'Content-Type': 'text/html' }));
    const error = await caught(client().generate('sdxl', request));
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toContain(`POST ${server.url}/generate/sdxl`);
    expect(error.message).toContain('not JSON (text/html');
    expect(error.message).toContain('<html>Gateway login');
  });

  it('calls a JSON body of the wrong shape an invalid response, naming the field', async () => {
    server.handle((_req, res) => sendJson(res, 200, { images: [{ image: 'abc' }] }));
    const error = await caught(client().generate('sdxl', request));
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toContain('images.0.image_b64');
  });

  it('refuses a body declared larger than the limit without reading it', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(10_000) });
      res.write('{"images":[');
    });
    const error = await caught(client({ maxResponseBytes: 4096 }).generate('sdxl', request));
    expect(error).toMatchObject({ kind: 'invalid-response', retryable: false });
    expect(error.message).toContain('larger than the 4 KB this client accepts');
    await server.clientHungUp(1);
  });

  it('stops reading a chunked body once it passes the limit, and closes the connection', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const timer = setInterval(() => res.write(' '.repeat(1024)), 2);
      res.on('close', () => clearInterval(timer));
    });
    const error = await caught(client({ maxResponseBytes: 8192 }).generate('sdxl', request));
    expect(error.message).toContain('larger than the 8 KB');
    await server.clientHungUp(1);
  });

  it('defaults to a 256 MB limit for image bodies', () => {
    expect(IMAGE_MAX_RESPONSE_BYTES).toBe(256 * 1024 * 1024);
  });

  it('times out when the response does not start', async () => {
    server.handle(() => { /* the generation never finishes */ });
    const error = await caught(client({ timeouts: { headersMs: 80, idleMs: 1000 } }).generate('sdxl', request));
    expect(error).toMatchObject({ kind: 'timeout', retryable: true, status: undefined });
    expect(error.message).toContain('no response within 80 ms');
    await server.clientHungUp(1);
  });

  it('times out a body that stops arriving', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"images":[{"image_b64":"');
    });
    const error = await caught(client({ timeouts: { headersMs: 1000, idleMs: 80 } }).generate('sdxl', request));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('silent for 80 ms');
  });

  it('cancels a generation in flight, and the server sees the connection close', async () => {
    const controller = new AbortController();
    // Cancel once the server holds the request (still generating), not after a fixed delay: on a
    // loaded machine the request may not have arrived 30 ms after it was sent.
    server.handle(() => { controller.abort(); });
    const pending = caught(client().generate('sdxl', request, { signal: controller.signal }));
    expect((await pending).kind).toBe('aborted');
    await server.clientHungUp(1);
  });

  it('retries a server error and returns the later success', async () => {
    server.handle((req, res) => (req.index === 1 ? sendText(res, 502, 'bad gateway') : sendJson(res, 200, body)));
    const response = await client({ retry: { maxAttempts: 2, baseDelayMs: 1 } }).generate('sd', request);
    expect(response.images).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });
});
