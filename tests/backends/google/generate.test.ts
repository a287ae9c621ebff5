/** The Google backend on the Gemini double: what it sends, what it returns, progress, cancel, names and money. */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startGeminiDouble, type GeminiDouble } from '../../helpers/doubles/gemini';
import { makeImage } from '../../engines/image-test-utils';
import { backendOn, caught, imageInfo } from './helpers';

let double: GeminiDouble;
beforeEach(async () => { double = await startGeminiDouble(); });
afterEach(async () => {
  vi.restoreAllMocks();
  await double.close();
});

let photo: string;
let mask: string;
beforeAll(async () => {
  photo = await makeImage(64, 48, (x) => [x * 4, 80, 120], 'jpeg');
  mask = await makeImage(64, 48, (x) => (x < 32 ? [255, 255, 255] : [0, 0, 0]));
});

describe('Google Gemini backend: text to image', () => {
  it('posts generateContent with the key in x-goog-api-key (never in the URL), one request per image, with progress and the money reported usage comes to', async () => {
    const progress: [number, string | undefined][] = [];
    const response = await backendOn(double).generate('sdxl', { prompt: 'a lighthouse', width: 896, height: 1152, num_images: 2, seed: 5 }, {
      onProgress: (fraction, message) => progress.push([fraction, message]),
    });
    expect(double.received).toHaveLength(2);
    for (const r of double.received) {
      expect(r).toMatchObject({ method: 'POST', path: '/v1beta/models/gemini-2.5-flash-image:generateContent', query: '', apiKey: double.apiKey, authorization: undefined });
    }
    expect(double.received[0]?.json).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a lighthouse' }] }],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '4:5' }, seed: 5 },
    });
    expect(response.images).toHaveLength(2);
    for (const image of response.images) expect(await imageInfo(image.image_b64)).toEqual({ format: 'png', width: 896, height: 1152 });
    expect(progress).toEqual([[0, 'waiting for Google Gemini API'], [0.5, 'image 1 of 2 done'], [1, 'image 2 of 2 done']]);
    // 3 prompt tokens at $0.30/M and 1290 image tokens at $30/M, twice.
    const cost = (response as { cost?: { amountUsd: number; reported: boolean; basis: string } }).cost;
    expect(cost?.reported).toBe(true);
    expect(cost?.amountUsd).toBeCloseTo(2 * ((3 * 0.3 + 1290 * 30) / 1e6), 12);
    expect(cost?.basis).toMatch(/^2 requests; first: 3 input tokens at \$0\.3\/M \+ 1290 image output tokens at \$30\/M/);
  });

  it('keeps only the final image of a thinking model, never its thought draft, and says which tokens the money leaves out', async () => {
    const backend = backendOn(double, { names: { model: 'gemini-3-pro-image-preview' } });
    const response = await backend.generate('sdxl', { prompt: 'a fox', width: 1344, height: 768 });
    expect(response.images).toHaveLength(1);
    expect(await imageInfo(response.images[0]!.image_b64)).toEqual({ format: 'jpeg', width: 1344, height: 768 });
    expect((response as { cost?: { basis: string } }).cost?.basis).toMatch(/180 text and thinking output tokens are left out/);
  });
});

describe('Google Gemini backend: input images', () => {
  it('sends init and mask as the very base64 strings they came as, with the MIME type their first bytes announce', async () => {
    await backendOn(double).generate('sd', { prompt: 'a red door', init_image: photo, mask_image: mask });
    const parts = (double.received[0]?.json as { contents: { parts: { inlineData?: { mimeType: string; data: string } }[] }[] }).contents[0]!.parts;
    expect(parts[0]?.inlineData).toEqual({ mimeType: 'image/jpeg', data: photo });
    expect(parts[1]?.inlineData).toEqual({ mimeType: 'image/png', data: mask });
  });

  it('refuses before sending what it cannot do, naming the field', async () => {
    const error = await caught(backendOn(double).generate('controlnet-sdxl', { prompt: 'p', controlnet: 'svc:canny_sdxl', controlnet_image: photo }));
    expect(error.detail).toMatch(/^not sent: Google Gemini API cannot do this request: controlnet Google Gemini API has no ControlNet/);
    expect(double.received).toEqual([]);
  });
});

describe('Google Gemini backend: cancel, names', () => {
  it('cancel closes the connection at once', async () => {
    const held = double.hold();
    const controller = new AbortController();
    const pending = caught(backendOn(double).generate('sdxl', { prompt: 'p' }, { signal: controller.signal }));
    await held.arrived;
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe('aborted');
    await held.hungUp;
  });

  it('lists the image models from GET /v1beta/models, every page, without Imagen or text models', async () => {
    const names = await backendOn(double).listNames!();
    expect(names).toEqual({ models: ['gemini-2.5-flash-image', 'gemini-3-pro-image-preview', 'gemini-3.1-flash-image-preview'] });
    expect(double.received.every((r) => r.path === '/v1beta/models' && r.apiKey === double.apiKey && !r.query.includes('key='))).toBe(true);
  });

  it('refuses a base URL that carries a key', () => {
    expect(() => backendOn(double, { baseUrl: `${double.url}/v1beta?key=AIza-x` })).toThrow(/must not carry an API key/);
    expect(() => backendOn(double, { baseUrl: `${double.url}/v1beta` })).not.toThrow();
  });
});
