import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RetryNotice } from '../../../api/retry';
import { startOpenAIImagesDouble, type OpenAIImagesDouble } from '../../helpers/doubles/openai-images';
import { makeImage } from '../../engines/image-test-utils';
import { backendOn, caught } from './helpers';

let double: OpenAIImagesDouble;
beforeEach(async () => { double = await startOpenAIImagesDouble(); });
afterEach(async () => { await double.close(); });

/** A port nothing listens on: taken, then given back. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const openAIError = (message: string, param: string | null, code: string | null, type = 'invalid_request_error') => ({ error: { message, type, param, code } });

describe('OpenAI Images backend: errors in words', () => {
  it('says a server that is not running refused the connection', async () => {
    const port = await freePort();
    const error = await caught(backendOn(double, { baseUrl: `http://127.0.0.1:${port}` }).generate('sdxl', { prompt: 'p' }));
    expect(error).toMatchObject({ kind: 'network' });
    expect(error.detail).toBe(`could not connect to 127.0.0.1:${port}: connection refused. Is the server running, and is the backend's base URL right?`);
  });

  it('says a wrong key was refused, without retrying and without the key or OpenAI\'s masked echo of it', async () => {
    const token = 'sk-wrong-0123456789-abcd';
    const error = await caught(backendOn(double, { token, retry: { maxAttempts: 3 } }).generate('sdxl', { prompt: 'p' }));
    expect(error).toMatchObject({ kind: 'http', status: 401, retryable: false, attempts: 1 });
    expect(error.detail).toContain("OpenAI Images refused the API key (HTTP 401 invalid_api_key): check this backend's credential.");
    expect(error.detail).toContain('Incorrect API key provided: [redacted]. You can find your API key');
    const text = JSON.stringify({ message: error.message, detail: error.detail, service: error.serviceMessage, json: error.toJSON() });
    expect(text).not.toContain(token);
    expect(text).not.toContain('abcd');
    expect(double.received).toHaveLength(1);
  });

  it('says no key was sent when none was set', async () => {
    const error = await caught(backendOn(double, { token: '' }).generate('sdxl', { prompt: 'p' }));
    expect(error.detail).toMatch(/^OpenAI Images needs an API key and none was sent: set this backend's credential/);
    expect(double.received[0]?.authorization).toBeUndefined();
  });

  it('names the model setting for an unknown model, with the models the server has', async () => {
    const error = await caught(backendOn(double, { names: { model: 'gpt-image-9' } }).generate('sdxl', { prompt: 'p' }));
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(error.detail).toBe("OpenAI Images has no model 'gpt-image-9' (the backend's model setting). It has: dall-e-2, dall-e-3, gpt-image-1, gpt-image-1-mini, gpt-image-1.5. It said: The model 'gpt-image-9' does not exist.");
  });

  it('names the service field behind the OpenAI parameter a server refused', async () => {
    const compatible = await startOpenAIImagesDouble({ compatibleModels: ['local-sd'] });
    try {
      const request = { prompt: 'p', width: 1024, height: 1024, num_images: 11 };
      compatible.failNext({ status: 400, body: openAIError("Invalid value: '1024x1024'. Supported values are: '512x512'.", 'size', 'invalid_value') });
      const size = await caught(backendOn(compatible, { names: { model: 'local-sd' } }).generate('sdxl', request));
      expect(size.detail).toBe("OpenAI Images refused width and height (sent as 'size', invalid_value). It said: Invalid value: '1024x1024'. Supported values are: '512x512'.");
      // A compatible model has no known limit, so 11 images go in one request, which the double refuses as OpenAI does.
      const n = await caught(backendOn(compatible, { names: { model: 'local-sd' } }).generate('sdxl', request));
      expect(n.detail).toBe("OpenAI Images refused num_images (sent as 'n', integer_above_max_value). It said: Invalid 'n': integer above maximum value. Expected a value <= 10, but got 11 instead.");
      expect(n.retryable).toBe(false);
    } finally {
      await compatible.close();
    }
  });

  it('does not retry a refusal of the safety system, and says to change the prompt', async () => {
    const error = await caught(backendOn(double, { retry: { maxAttempts: 3 } }).generate('sdxl', { prompt: 'FORBIDDEN thing' }));
    expect(error).toMatchObject({ status: 400, retryable: false, attempts: 1 });
    expect(error.detail).toMatch(/^OpenAI Images's safety system refused this request \(moderation_blocked\); sending it again will not help/);
    const dalle = await caught(backendOn(double, { names: { model: 'dall-e-3' } }).generate('sdxl', { prompt: 'FORBIDDEN thing' }));
    expect(dalle.detail).toContain('(content_policy_violation)');
  });

  it('retries a rate limit after the wait the server asks for, and succeeds', async () => {
    double.failNext({ status: 429, body: openAIError('Rate limit reached for images per minute.', null, 'rate_limit_exceeded', 'requests'), headers: { 'Retry-After': '2' } });
    const notices: RetryNotice[] = [];
    const response = await backendOn(double, { retry: { maxAttempts: 3 } }).generate('sdxl', { prompt: 'p' }, { onRetry: (n) => notices.push(n) });
    expect(response.images).toHaveLength(1);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ attempt: 2, delayMs: 2000 });
    expect(notices[0]?.error.detail).toContain('OpenAI Images is limiting how fast requests may come (HTTP 429)');
    expect(double.received).toHaveLength(2);
  });

  it('does not retry an account out of quota, nor a server out of memory', async () => {
    double.failNext(
      { status: 429, body: openAIError('You exceeded your current quota, please check your plan and billing details.', null, 'insufficient_quota', 'insufficient_quota') },
      { status: 500, body: openAIError('CUDA out of memory. Tried to allocate 2.00 GiB', null, null, 'server_error') },
    );
    const backend = backendOn(double, { retry: { maxAttempts: 3 } });
    const quota = await caught(backend.generate('sdxl', { prompt: 'p' }));
    expect(quota).toMatchObject({ status: 429, retryable: false, attempts: 1 });
    expect(quota.detail).toContain('has no quota left (insufficient_quota)');
    const memory = await caught(backend.generate('sdxl', { prompt: 'p' }));
    expect(memory).toMatchObject({ status: 500, retryable: false, attempts: 1 });
    expect(memory.detail).toMatch(/^the server ran out of memory making the images: ask for fewer images \(num_images\) or a smaller size/);
  });

  it('refuses image URLs from a server that ignores response_format', async () => {
    double.failNext({ status: 200, body: { created: 1, data: [{ url: 'http://127.0.0.1/files/1.png' }] } });
    const error = await caught(backendOn(double, { names: { model: 'dall-e-2' } }).generate('sd', { prompt: 'p' }));
    expect(error).toMatchObject({ kind: 'invalid-response', retryable: false });
    expect(error.detail).toContain('answered with image URLs instead of base64 images');
  });

  it('says a path the server does not have is not an OpenAI-style root', async () => {
    const error = await caught(backendOn(double, { baseUrl: `${double.url}/api` }).generate('sd', { prompt: 'p' }));
    expect(error).toMatchObject({ status: 404, retryable: false });
    expect(error.detail).toBe('OpenAI Images has no /v1/images/generations here (HTTP 404): is the base URL an OpenAI-style server\'s root? It said: Invalid URL (POST /api/v1/images/generations)');
  });

  it('names init_image when the server cannot read an uploaded image', async () => {
    const png = await makeImage(8, 8, () => [1, 2, 3]);
    double.failNext({ status: 400, body: openAIError('Invalid image file or mode for image 1, please check your image file.', 'image', 'invalid_image_file') });
    const error = await caught(backendOn(double).generate('sdxl', { prompt: 'p', init_image: png }));
    expect(error.detail).toBe("OpenAI Images refused init_image (sent as 'image', invalid_image_file). It said: Invalid image file or mode for image 1, please check your image file.");
  });
});
