/** The Google backend's review: what each field becomes, found without sending anything. */
import { beforeAll, describe, expect, it } from 'vitest';
import { createGoogleBackend } from '../../../api/backends/google';
import type { ImageRequest } from '../../../api/image-schema';
import { makeImage } from '../../engines/image-test-utils';

const backend = (model?: string) => createGoogleBackend({
  baseUrl: 'https://generativelanguage.googleapis.com', token: 'AIza-review-secret-0000', ...(model === undefined ? {} : { names: { model } }),
});

let png: string;
let jpeg: string;
let mask: string;
const gif = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
beforeAll(async () => {
  png = await makeImage(64, 64, () => [200, 30, 30]);
  jpeg = await makeImage(64, 64, () => [30, 200, 30], 'jpeg');
  mask = await makeImage(64, 64, (x) => (x < 32 ? [255, 255, 255] : [0, 0, 0]));
});

type Review = ReturnType<ReturnType<typeof backend>['review']>;
const notes = (review: Review) => Object.fromEntries(review.notes.map((n) => [n.field, n]));
const body = (review: Review) => (review.translated as { body: { contents: { parts: Record<string, unknown>[] }[]; generationConfig: Record<string, unknown> } }).body;

describe('Google Gemini review: text to image', () => {
  it('sends the prompt as one text part and the size as aspect ratio, on gemini-2.5-flash-image by default', () => {
    const review = backend().review('sdxl', { prompt: 'a lighthouse at night', width: 896, height: 1152 });
    expect(review).toMatchObject({ backend: 'google', label: 'Google Gemini API', refusals: [], notes: [] });
    expect(review.translated).toEqual({
      endpoint: 'POST /v1beta/models/gemini-2.5-flash-image:generateContent',
      body: { contents: [{ role: 'user', parts: [{ text: 'a lighthouse at night' }] }], generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '4:5' } } },
    });
  });

  it('maps width×height to the nearest ratio (and size, where the model takes one), and says so when the pixels differ', () => {
    const config = (model: string, engine: 'sd' | 'sdxl', width: number, height: number) => body(backend(model).review(engine, { prompt: 'p', width, height })).generationConfig.imageConfig;
    expect(config('gemini-2.5-flash-image', 'sdxl', 1344, 768)).toEqual({ aspectRatio: '16:9' });
    expect(config('gemini-2.5-flash-image', 'sdxl', 640, 1536)).toEqual({ aspectRatio: '9:16' });
    expect(config('gemini-2.5-flash-image', 'sdxl', 1536, 640)).toEqual({ aspectRatio: '21:9' });
    expect(config('gemini-3-pro-image-preview', 'sdxl', 1024, 1024)).toEqual({ aspectRatio: '1:1', imageSize: '1K' });
    expect(config('gemini-3-pro-image-preview', 'sd', 512, 512)).toEqual({ aspectRatio: '1:1', imageSize: '1K' });
    expect(config('gemini-3.1-flash-image-preview', 'sd', 512, 512)).toEqual({ aspectRatio: '1:1', imageSize: '512' });
    expect(config('gemini-3.1-flash-image-preview', 'sdxl', 1536, 640)).toEqual({ aspectRatio: '21:9', imageSize: '1K' });
    expect(notes(backend().review('sdxl', { prompt: 'p', width: 832, height: 1216 })).width?.message)
      .toBe('832×1216 is sent as aspect ratio 2:3, gemini-2.5-flash-image makes one size per ratio: gemini-2.5-flash-image makes 832×1248 (it takes ratios 1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9, 21:9)');
    expect(backend().review('sdxl', { prompt: 'p', width: 1024, height: 1024 }).notes).toEqual([]);
  });

  it('says every field it leaves out, only when set, and how seed and num_images go', () => {
    const request: ImageRequest = {
      prompt: '(a fox:1.3) in snow', negative_prompt: 'blur', seed: 3_000_000_000, sampler: 'K_EULER', steps: 20, cfg_scale: 7,
      checkpoint: 'svc:sdxl', loras: { 'svc:ink': 0.8 }, use_refiner: true, style_preset: 'anime', num_images: 3,
    };
    const review = backend().review('sdxl', request);
    const byField = notes(review);
    expect(Object.keys(byField).sort()).toEqual(['cfg_scale', 'checkpoint', 'loras', 'negative_prompt', 'num_images', 'prompt', 'sampler', 'seed', 'steps', 'style_preset', 'use_refiner']);
    expect(byField.negative_prompt?.treatment).toBe('not-sent');
    expect(byField.num_images?.message).toBe('3 images are asked for in 3 requests of one image each, each billed: Google Gemini API makes one image per request');
    expect(byField.seed?.message).toMatch(/^is sent as generationConfig\.seed as -1294967296 \(the same 32 bits/);
    expect(body(review)).toMatchObject({ contents: [{ parts: [{ text: 'a fox in snow, anime style' }] }], generationConfig: { seed: -1_294_967_296 } });
    expect(review.translated).toMatchObject({ requests: 3 });
    expect(backend().review('sdxl', { prompt: 'p', seed: null, use_refiner: false }).notes).toEqual([]);
  });
});

describe('Google Gemini review: images', () => {
  it('sends image to image as the image part, then the instruction, with strength said in words', () => {
    const review = backend().review('sdxl', { prompt: 'make it winter', init_image: jpeg, strength: 0.3 });
    expect(review.refusals).toEqual([]);
    const parts = body(review).contents[0]!.parts;
    expect(parts[0]).toEqual({ inlineData: { mimeType: 'image/jpeg', data: `<base64, ${jpeg.length} characters>` } });
    expect(parts[1]).toEqual({ text: 'Edit this image. Keep it very close to the original: change only what the text asks for.\nmake it winter' });
    expect(notes(review).strength?.treatment).toBe('approximated');
  });

  it('sends inpainting as the picture and the mask with an instruction, and says the mask is only asked for', () => {
    const review = backend().review('sd', { prompt: 'a red door', init_image: png, mask_image: mask });
    const parts = body(review).contents[0]!.parts;
    expect(parts.map((p) => Object.keys(p)[0])).toEqual(['inlineData', 'inlineData', 'text']);
    expect(String(parts[2]!.text)).toMatch(/^The first image is a picture; the second image is a mask of it\. Change only the part of the picture where the mask is white/);
    expect(notes(review).mask_image).toMatchObject({ treatment: 'approximated' });
  });

  it('sends every subject transfer sample, with the sentence naming them, and refuses more than the model takes', () => {
    const review = backend('gemini-3-pro-image-preview').review('sdxl', { prompt: 'sks dog on a beach', transfer_images: { sks: [png, jpeg] } });
    const parts = body(review).contents[0]!.parts;
    expect(parts).toHaveLength(3);
    expect(parts[2]).toEqual({ text: 'Images 1–2 show “sks”. Make a new picture of them as described:\nsks dog on a beach' });
    const many = backend().review('sdxl', { prompt: 'p', transfer_images: { sks: Array.from({ length: 15 }, () => png) } });
    expect(many.refusals).toEqual([{ path: 'transfer_images', message: 'holds 15 sample images; gemini-2.5-flash-image takes at most 14 images in one request' }]);
    expect(notes(backend().review('sdxl', { prompt: 'p', transfer_images: { sks: [png, png, png, png] } })).transfer_images?.message).toMatch(/works best with up to 3/);
  });

  it('refuses a GIF input, ControlNet, an empty prompt, and a model that is not a Gemini image model, naming the field', () => {
    expect(backend().review('sdxl', { prompt: 'p', init_image: gif }).refusals).toEqual([{ path: 'init_image', message: 'is a GIF; Google Gemini API takes PNG, JPEG or WebP (save it as PNG first)' }]);
    expect(backend().review('controlnet-sdxl', { prompt: 'p', controlnet: 'svc:canny_sdxl', controlnet_image: png }).refusals[0]?.path).toBe('controlnet');
    expect(backend().review('sdxl', { prompt: '  ' }).refusals).toEqual([{ path: 'prompt', message: 'is empty: Google Gemini API needs a prompt to draw from' }]);
    const text = backend('gemini-2.5-flash').review('sdxl', { prompt: 'p' });
    expect(text.refusals[0]).toMatchObject({ path: 'model' });
    expect(text.refusals[0]!.message).toMatch(/^gemini-2\.5-flash \(the backend's model setting for sdxl\) is not a Gemini image model/);
    expect(backend('imagen-4.0-generate-001').review('sdxl', { prompt: 'p' }).refusals[0]!.message).toMatch(/Imagen on the Gemini API was shut down in August 2026/);
  });

  it('reviews fast and never holds the key', () => {
    const b = backend();
    const request: ImageRequest = { prompt: 'p', init_image: png, mask_image: mask, num_images: 2 };
    const review = b.review('sdxl', request);
    expect(JSON.stringify(review)).not.toContain('AIza-review-secret');
    expect(JSON.stringify(review)).not.toContain(png.slice(0, 300));
  });
});

describe('Google Gemini price', () => {
  it('quotes the published per-image price with its source and date, and "unknown" where none is published', () => {
    expect(backend().price('sdxl', { prompt: 'p' })).toEqual({ known: true, amountUsd: 0.039, per: 'image', source: 'https://ai.google.dev/gemini-api/docs/pricing', date: '2026-08-24' });
    expect(backend('gemini-3-pro-image-preview').price('sdxl', { prompt: 'p', width: 1024, height: 1024 })).toMatchObject({ known: true, amountUsd: 0.134 });
    expect(backend('gemini-3.1-flash-image-preview').price('sd', { prompt: 'p' })).toMatchObject({ known: true, amountUsd: 0.045 });
    const unknown = backend('gemini-3.1-flash-image-preview').price('sdxl', { prompt: 'p' });
    expect(unknown).toMatchObject({ known: false });
    expect(backend('gemini-4-image').price('sdxl', { prompt: 'p' })).toEqual({ known: false, why: "Google's price page as read here has no price for gemini-4-image" });
  });
});
