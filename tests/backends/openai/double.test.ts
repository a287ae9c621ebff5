/** The double refuses what the real OpenAI Images API refuses, with its status and body. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIImagesDouble, type OpenAIImagesDouble } from '../../helpers/doubles/openai-images';
import { makeImage } from '../../engines/image-test-utils';

let double: OpenAIImagesDouble;
let square: Buffer;
let wide: Buffer;
beforeAll(async () => {
  double = await startOpenAIImagesDouble();
  square = Buffer.from(await makeImage(16, 16, () => [9, 9, 9]), 'base64');
  wide = Buffer.from(await makeImage(24, 16, () => [9, 9, 9]), 'base64');
});
afterAll(async () => { await double.close(); });

async function generate(body: unknown, key: string | null = double.apiKey) {
  const response = await fetch(`${double.url}/v1/images/generations`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...(key === null ? {} : { Authorization: `Bearer ${key}` }) },
  });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

async function edit(fields: Record<string, string>, files: [string, Buffer, string][]) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [name, bytes, type] of files) form.append(name, new Blob([new Uint8Array(bytes)], { type }), `${name}.png`);
  const response = await fetch(`${double.url}/v1/images/edits`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${double.apiKey}` } });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

const refusal = (message: string, param: string | null = null, code: string | null = null, type = 'invalid_request_error') => ({ error: { message, type, param, code } });

describe('OpenAI Images double', () => {
  it('refuses a missing or wrong bearer token with the real 401 bodies', async () => {
    const none = await generate({ prompt: 'p' }, null);
    expect(none.status).toBe(401);
    expect((none.body.error as { message: string }).message).toMatch(/^You didn't provide an API key\./);
    expect(await generate({ prompt: 'p' }, 'bad-key')).toEqual({
      status: 401, body: refusal('Incorrect API key provided: bad-key. You can find your API key at https://platform.openai.com/account/api-keys.', null, 'invalid_api_key'),
    });
  });

  it('refuses unknown parameters, a missing prompt, sizes the model does not make and n out of range', async () => {
    expect(await generate({ prompt: 'p', seed: 3 })).toEqual({ status: 400, body: refusal("Unknown parameter: 'seed'.", 'seed', 'unknown_parameter') });
    expect(await generate({ model: 'gpt-image-1' })).toEqual({ status: 400, body: refusal("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter') });
    expect(await generate({ prompt: 'p', model: 'gpt-image-1', size: '512x512' })).toEqual({
      status: 400, body: refusal("Invalid value: '512x512'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.", 'size', 'invalid_value'),
    });
    expect(await generate({ prompt: 'p', model: 'dall-e-2', size: '896x1152' })).toEqual({
      status: 400, body: refusal("'896x1152' is not one of ['256x256', '512x512', '1024x1024'] - 'size'"),
    });
    expect(await generate({ prompt: 'p', n: 0 })).toEqual({
      status: 400, body: refusal("Invalid 'n': integer below minimum value. Expected a value >= 1, but got 0 instead.", 'n', 'integer_below_min_value'),
    });
    expect(await generate({ prompt: 'p', model: 'dall-e-3', n: 2 })).toEqual({ status: 400, body: refusal('You must provide n=1 for this model.') });
    expect(await generate({ prompt: 'p', model: 'gpt-image-1', response_format: 'b64_json' })).toEqual({
      status: 400, body: refusal("Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter'),
    });
    expect(await generate({ prompt: 'p', model: 'nope' })).toEqual({
      status: 400, body: refusal("The model 'nope' does not exist.", 'model', 'invalid_value', 'image_generation_user_error'),
    });
  });

  it('answers like the real API: created, data with b64_json, and usage for GPT image models; a URL by default on dall-e', async () => {
    const gpt = await generate({ prompt: 'p', model: 'gpt-image-1', size: '1024x1024' });
    expect(gpt.status).toBe(200);
    expect(Object.keys(gpt.body).sort()).toEqual(['background', 'created', 'data', 'output_format', 'quality', 'size', 'usage']);
    expect(Object.keys((gpt.body.data as object[])[0]!)).toEqual(['b64_json']);
    const dalle = await generate({ prompt: 'p', model: 'dall-e-2', size: '256x256' });
    expect(Object.keys(dalle.body).sort()).toEqual(['created', 'data']);
    expect(Object.keys((dalle.body.data as object[])[0]!)).toEqual(['url']);
  });

  it('reads edits for real: a mask must be a PNG with alpha the image\'s size, dall-e-2 images square', async () => {
    const opaqueMask = await edit({ prompt: 'p', model: 'gpt-image-1' }, [['image', square, 'image/png'], ['mask', square, 'image/png']]);
    expect(opaqueMask).toEqual({ status: 400, body: refusal('Invalid mask image format - mask image missing alpha channel') });
    const { default: sharp } = await import('sharp');
    const alphaMask = await sharp(wide).ensureAlpha().png().toBuffer();
    expect(await edit({ prompt: 'p', model: 'gpt-image-1' }, [['image', square, 'image/png'], ['mask', alphaMask, 'image/png']]))
      .toEqual({ status: 400, body: refusal('Invalid mask image format - mask size does not match image size') });
    expect(await edit({ prompt: 'p', model: 'dall-e-2' }, [['image', wide, 'image/png'], ['mask', alphaMask, 'image/png']]))
      .toEqual({ status: 400, body: refusal('Invalid input image - expected an image with equal width and height, got 24x16 instead.', 'image') });
    expect(await edit({ prompt: 'p', model: 'gpt-image-1' }, [['image', Buffer.from('not an image'), 'image/png']]))
      .toEqual({ status: 400, body: refusal('Invalid image file or mode for image 1, please check your image file.', 'image', 'invalid_image_file') });
    expect(await edit({ prompt: 'p', model: 'dall-e-3' }, [['image', square, 'image/png']])).toMatchObject({ status: 400, body: { error: { param: 'model', code: 'invalid_value' } } });
    expect((await edit({ prompt: 'p', model: 'gpt-image-1', size: '1024x1024' }, [['image', square, 'image/png']])).status).toBe(200);
  });

  it('answers an unknown path with the real 404 body', async () => {
    const response = await fetch(`${double.url}/v1/images/variations/x`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(refusal('Invalid URL (POST /v1/images/variations/x)'));
  });
});

describe('OpenAI Images double, from a browser page', () => {
  const page = 'http://127.0.0.1:8787';
  const preflight = (url: string, origin: string) => fetch(`${url}/v1/images/generations`, {
    method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
  });

  it('gives a page no CORS answer unless started to allow its origin', async () => {
    const answer = await preflight(double.url, page);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows the origins it was started with, as Echo’s CORS middleware does, and no other', async () => {
    const cors = await startOpenAIImagesDouble({ corsAllowOrigins: [page] });
    try {
      const allowed = await preflight(cors.url, page);
      expect(allowed.status).toBe(204);
      expect(Object.fromEntries(['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers'].map((h) => [h, allowed.headers.get(h)])))
        .toEqual({ 'access-control-allow-origin': page, 'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE', 'access-control-allow-headers': 'authorization,content-type' });
      const other = await preflight(cors.url, 'http://evil.example');
      expect([other.status, other.headers.get('access-control-allow-origin')]).toEqual([204, null]);
      const models = await fetch(`${cors.url}/v1/models`, { headers: { Origin: page, Authorization: `Bearer ${cors.apiKey}` } });
      expect([models.status, models.headers.get('access-control-allow-origin')]).toEqual([200, page]);
      // A preflight is the browser's, not the client's: only the real request is recorded.
      expect(cors.received.map((r) => r.method)).toEqual(['GET']);
    } finally {
      await cors.close();
    }
  });
});
