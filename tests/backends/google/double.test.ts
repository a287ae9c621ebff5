/**
 * The Gemini double refuses what the real API refuses, and the official SDK (@google/genai, a
 * development dependency only) talks to it as to generativelanguage.googleapis.com: the SDK's
 * requests pass the double's checks and its answers parse into the SDK's own types.
 */
import { ApiError as SdkApiError, GoogleGenAI } from '@google/genai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGeminiDouble, type GeminiDouble } from '../../helpers/doubles/gemini';
import { makeImage } from '../../engines/image-test-utils';

let double: GeminiDouble;
let photo: string;
beforeAll(async () => {
  double = await startGeminiDouble();
  photo = await makeImage(16, 16, () => [200, 10, 10]);
});
afterAll(async () => { await double.close(); });

async function post(model: string, body: unknown, headers: Record<string, string> = { 'x-goog-api-key': double.apiKey }, query = '') {
  const response = await fetch(`${double.url}/v1beta/models/${model}:generateContent${query}`, {
    method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...headers },
  });
  return { status: response.status, body: await response.json() as { error?: { code: number; status: string; message: string; details?: { reason?: string }[] } } & Record<string, unknown> };
}

const text = (t: string) => ({ contents: [{ role: 'user', parts: [{ text: t }] }] });

describe('Gemini double: what it refuses', () => {
  it('refuses a missing key, a wrong key, a bearer token and a key in the URL', async () => {
    const none = await post('gemini-2.5-flash-image', text('p'), {});
    expect([none.status, none.body.error?.status]).toEqual([403, 'PERMISSION_DENIED']);
    const wrong = await post('gemini-2.5-flash-image', text('p'), { 'x-goog-api-key': 'AIza-wrong' });
    expect([wrong.status, wrong.body.error?.status, wrong.body.error?.details?.[0]?.reason]).toEqual([400, 'INVALID_ARGUMENT', 'API_KEY_INVALID']);
    const bearer = await post('gemini-2.5-flash-image', text('p'), { Authorization: `Bearer ${double.apiKey}` });
    expect([bearer.status, bearer.body.error?.status]).toEqual([401, 'UNAUTHENTICATED']);
    const inUrl = await post('gemini-2.5-flash-image', text('p'), {}, `?key=${double.apiKey}`);
    expect(inUrl.status).toBe(400);
    expect(inUrl.body.error?.message).toMatch(/API key in the URL/);
  });

  it('refuses an unknown model, unknown fields, bad parts and several candidates', async () => {
    const unknown = await post('gemini-9-image', text('p'));
    expect([unknown.status, unknown.body.error?.status]).toEqual([404, 'NOT_FOUND']);
    expect(unknown.body.error?.message).toBe('models/gemini-9-image is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.');
    const field = await post('gemini-2.5-flash-image', { ...text('p'), generationConfig: { imageConfig: { aspectRatio: '1:1', personGeneration: 'ALLOW_ALL' } } });
    expect(field.body.error?.message).toBe('Invalid JSON payload received. Unknown name "personGeneration" at \'generation_config.image_config\': Cannot find field.');
    const both = await post('gemini-2.5-flash-image', { contents: [{ parts: [{ text: 'p', inlineData: { mimeType: 'image/png', data: photo } }] }] });
    expect(both.body.error?.message).toBe("Invalid value at 'contents[0].parts[0].data' (oneof), oneof field 'data' is already set. Cannot overwrite with 'inline_data'");
    const empty = await post('gemini-2.5-flash-image', { contents: [{ parts: [] }] });
    expect(empty.body.error?.message).toBe('* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.');
    const gif = await post('gemini-2.5-flash-image', { contents: [{ parts: [{ inlineData: { mimeType: 'image/gif', data: photo } }, { text: 'p' }] }] });
    expect(gif.body.error?.message).toMatch(/^Unable to submit request because it has a mimeType parameter with value image\/gif/);
    const notBase64 = await post('gemini-2.5-flash-image', { contents: [{ parts: [{ inlineData: { mimeType: 'image/png', data: 'not base64!' } }] }] });
    expect(notBase64.body.error?.message).toMatch(/^Invalid value at 'contents\[0\]\.parts\[0\]\.inline_data\.data' \(TYPE_BYTES\), Base64 decoding failed/);
    const notImage = await post('gemini-2.5-flash-image', { contents: [{ parts: [{ inlineData: { mimeType: 'image/png', data: Buffer.from('plain text').toString('base64') } }, { text: 'p' }] }] });
    expect(notImage.body.error?.message).toMatch(/^Unable to process input image/);
    const two = await post('gemini-2.5-flash-image', { ...text('p'), generationConfig: { candidateCount: 2 } });
    expect([two.status, two.body.error?.message]).toEqual([400, 'Multiple candidates is not enabled for models/gemini-2.5-flash-image']);
  });

  it('refuses a ratio or size the model does not make, and a seed outside int32', async () => {
    const wide = await post('gemini-2.5-flash-image', { ...text('p'), generationConfig: { imageConfig: { aspectRatio: '4:1' } } });
    expect([wide.status, wide.body.error?.status]).toEqual([400, 'INVALID_ARGUMENT']);
    expect((await post('gemini-3.1-flash-image-preview', { ...text('p'), generationConfig: { imageConfig: { aspectRatio: '4:1' } } })).status).toBe(200);
    expect((await post('gemini-2.5-flash-image', { ...text('p'), generationConfig: { imageConfig: { imageSize: '2K' } } })).status).toBe(400);
    expect((await post('gemini-3-pro-image-preview', { ...text('p'), generationConfig: { imageConfig: { imageSize: '2k' } } })).status).toBe(400);
    const seed = await post('gemini-2.5-flash-image', { ...text('p'), generationConfig: { seed: 3_000_000_000 } });
    expect(seed.body.error?.message).toBe("Invalid value at 'generation_config.seed' (TYPE_INT32), 3000000000");
  });
});

describe('Gemini double, from a browser page', () => {
  it('answers any page\'s origin and its preflight, as Google\'s front end does, and records only the real request', async () => {
    const page = 'http://127.0.0.1:8787';
    const before = double.received.length;
    const preflight = await fetch(`${double.url}/v1beta/models/gemini-2.5-flash-image:generateContent`, {
      method: 'OPTIONS', headers: { Origin: page, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-goog-api-key' },
    });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin'), preflight.headers.get('access-control-allow-headers')]).toEqual([200, page, 'content-type,x-goog-api-key']);
    const models = await fetch(`${double.url}/v1beta/models`, { headers: { Origin: page, 'x-goog-api-key': double.apiKey } });
    expect([models.status, models.headers.get('access-control-allow-origin')]).toEqual([200, page]);
    expect(double.received.slice(before).map((r) => r.method)).toEqual(['GET']);
  });
});

describe('Gemini double, through the official SDK', () => {
  const ai = () => new GoogleGenAI({ apiKey: double.apiKey, httpOptions: { baseUrl: double.url } });

  it('takes the SDK\'s text to image request and answers what the SDK reads as an image, thoughts apart', async () => {
    const before = double.received.length;
    const response = await ai().models.generateContent({
      model: 'gemini-3-pro-image-preview', contents: 'a lighthouse at dusk',
      config: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '16:9', imageSize: '2K' }, seed: 7 },
    });
    const sent = double.received[before]!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1beta/models/gemini-3-pro-image-preview:generateContent', query: '', apiKey: double.apiKey });
    expect(sent.json).toEqual({ contents: [{ role: 'user', parts: [{ text: 'a lighthouse at dusk' }] }], generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '16:9', imageSize: '2K' }, seed: 7 } });
    const parts = response.candidates?.[0]?.content?.parts ?? [];
    const final = parts.filter((p) => p.inlineData !== undefined && p.thought !== true);
    expect(final).toHaveLength(1);
    expect(parts.some((p) => p.thought === true)).toBe(true);
    const meta = await sharp(Buffer.from(final[0]!.inlineData!.data!, 'base64')).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 2688, 1536]);
    expect(response.usageMetadata?.candidatesTokensDetails).toEqual([{ modality: 'IMAGE', tokenCount: 1120 }]);
  });

  it('takes the SDK\'s image parts, lists its models, and its errors reach the SDK as Google\'s status bodies', async () => {
    const edited = await ai().models.generateContent({
      model: 'gemini-2.5-flash-image',
      contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: photo } }, { text: 'make it blue' }] }],
      config: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '4:5' } },
    });
    expect(edited.data).toBeDefined();
    const listed: string[] = [];
    for await (const model of await ai().models.list({ config: { pageSize: 3 } })) listed.push(model.name ?? '');
    expect(listed).toEqual(expect.arrayContaining(['models/gemini-2.5-flash-image', 'models/gemini-3-pro-image-preview', 'models/imagen-4.0-generate-001']));
    const wrongKey = new GoogleGenAI({ apiKey: 'AIza-wrong', httpOptions: { baseUrl: double.url } });
    const error = await wrongKey.models.generateContent({ model: 'gemini-2.5-flash-image', contents: 'p' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkApiError);
    expect((error as SdkApiError).status).toBe(400);
    expect((error as SdkApiError).message).toContain('API_KEY_INVALID');
    const refused = await ai().models.generateContent({ model: 'gemini-2.5-flash-image', contents: 'p', config: { candidateCount: 2 } }).catch((e: unknown) => e);
    expect((refused as SdkApiError).message).toContain('Multiple candidates is not enabled');
  });
});
