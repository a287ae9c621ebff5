import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ImageRequest } from '../../../api/image-schema';
import { createOpenAIImagesBackend } from '../../../api/backends/openai';
import { imageCodec } from '../../../api/backends/openai/codec';
import { STYLES } from '../../../api/backends/styles';
import { makeImage } from '../../engines/image-test-utils';

const backend = (model?: string) => createOpenAIImagesBackend({
  baseUrl: 'http://127.0.0.1:9', token: 'sk-review-secret-0000', ...(model === undefined ? {} : { names: { model } }),
});

let png: string;
let jpeg: string;
let wide: string;
let gif: string;
beforeAll(async () => {
  png = await makeImage(64, 64, () => [200, 30, 30]);
  jpeg = await makeImage(64, 64, () => [30, 200, 30], 'jpeg');
  wide = await makeImage(96, 64, () => [30, 30, 200]);
  gif = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
});

const notes = (review: ReturnType<ReturnType<typeof backend>['review']>) => Object.fromEntries(review.notes.map((n) => [n.field, n]));

describe('OpenAI Images review: text to image', () => {
  it('sends prompt, model, n and the nearest size to /v1/images/generations, with output_format for GPT image models', () => {
    const review = backend().review('sdxl', { prompt: 'a lighthouse at night', width: 896, height: 1152, num_images: 2 });
    expect(review).toMatchObject({ backend: 'openai', label: 'OpenAI Images', refusals: [] });
    expect(review.translated).toEqual({
      endpoint: 'POST /v1/images/generations',
      body: { model: 'gpt-image-1', prompt: 'a lighthouse at night', size: '1024x1536', output_format: 'png', n: 2 },
    });
    expect(notes(review).width).toEqual({ field: 'width', treatment: 'approximated', message: '896×1152 becomes 1024×1536, the nearest size gpt-image-1 makes (it makes 1024×1024, 1536×1024 and 1024×1536)' });
  });

  it('maps each service size to the model size nearest in shape, and says nothing when the size is made as asked', () => {
    const size = (model: string, engine: 'sd' | 'sdxl', width: number, height: number) =>
      (backend(model).review(engine, { prompt: 'p', width, height }).translated as { body: { size: string } }).body.size;
    expect(size('gpt-image-1', 'sdxl', 1344, 768)).toBe('1536x1024');
    expect(size('gpt-image-1', 'sdxl', 1024, 1024)).toBe('1024x1024');
    expect(size('dall-e-3', 'sdxl', 640, 1536)).toBe('1024x1792');
    expect(size('dall-e-2', 'sd', 640, 512)).toBe('512x512');
    expect(size('dall-e-2', 'sd', 512, 512)).toBe('512x512');
    expect(size('gpt-image-2', 'sdxl', 896, 1152)).toBe('896x1152');
    expect(size('local-sdxl', 'sdxl', 832, 1216)).toBe('832x1216');
    expect(backend('dall-e-2').review('sd', { prompt: 'p' }).notes).toEqual([]);
  });

  it('asks dall-e models for b64_json, never GPT image models', () => {
    const body = (model: string) => (backend(model).review('sdxl', { prompt: 'p' }).translated as { body: Record<string, unknown> }).body;
    expect(body('dall-e-3')).toMatchObject({ response_format: 'b64_json' });
    expect(body('dall-e-3')).not.toHaveProperty('output_format');
    expect(body('gpt-image-1')).not.toHaveProperty('response_format');
    expect(body('local-sd')).toMatchObject({ response_format: 'b64_json' });
  });

  it('says every field it leaves out, and only the fields that were set', () => {
    const request: ImageRequest = {
      prompt: 'p', negative_prompt: 'blur', negative_prompt_2: 'noise', seed: 7, sampler: 'K_EULER', steps: 20, cfg_scale: 7,
      checkpoint: 'svc:sdxl', loras: { 'svc:ink': 0.8 }, textual_inversions: { 'svc:emb': 'tok' }, vae: 'svc:vae', use_refiner: true, high_noise_frac: 0.7,
    };
    const review = backend().review('sdxl', request);
    expect(review.refusals).toEqual([]);
    const found = notes(review);
    for (const field of ['negative_prompt', 'negative_prompt_2', 'seed', 'sampler', 'steps', 'cfg_scale', 'checkpoint', 'loras', 'textual_inversions', 'vae', 'use_refiner', 'high_noise_frac']) {
      expect(found[field], field).toMatchObject({ treatment: 'not-sent' });
    }
    expect(found.seed?.message).toContain('takes no seed');
    expect(backend().review('sdxl', { prompt: 'p', seed: null, use_refiner: false }).notes).toEqual([]);
  });

  it('joins prompt_2, writes the style preset in words and removes weighting, saying so', () => {
    const review = backend().review('sdxl', { prompt: 'a (red:1.4) fox', prompt_2: 'in the snow', style_preset: 'anime' });
    expect((review.translated as { body: { prompt: string } }).body.prompt).toBe('a red fox\nin the snow, anime style');
    expect(notes(review)).toMatchObject({
      prompt: { treatment: 'approximated' }, prompt_2: { treatment: 'approximated' },
      style_preset: { treatment: 'approximated', message: "'anime' is added to the prompt as “anime style”: OpenAI Images has no style presets" },
    });
    const space = backend().review('sdxl', { prompt: 'a whale', style_preset: 'Space' });
    expect((space.translated as { body: { prompt: string } }).body.prompt).toBe(`a whale, ${STYLES.Space.phrase}`);
    const base = backend().review('sdxl', { prompt: 'a whale', style_preset: 'base' });
    expect((base.translated as { body: { prompt: string } }).body.prompt).toBe('a whale');
    expect(base.notes).toEqual([]);
  });

  it('splits num_images over several requests where the model makes fewer per request, and says how many', () => {
    const three = backend('dall-e-3').review('sdxl', { prompt: 'p', num_images: 3 });
    expect(three.translated).toMatchObject({ requests: 3, images_per_request: [1, 1, 1], body: { n: 1 } });
    expect(notes(three).num_images?.message).toBe('3 images are asked for in 3 requests of one image each: dall-e-3 makes one image per request');
    expect(backend().review('sdxl', { prompt: 'p', num_images: 16 }).translated).toMatchObject({ requests: 2, images_per_request: [10, 6] });
  });

  it('refuses an empty prompt and a prompt over the model\'s length', () => {
    expect(backend().review('sdxl', { prompt: '  ' }).refusals).toEqual([{ path: 'prompt', message: 'is empty: OpenAI Images needs a prompt to draw from' }]);
    const long = backend('dall-e-2').review('sd', { prompt: 'word '.repeat(250) });
    expect(long.refusals[0]).toMatchObject({ path: 'prompt', message: expect.stringContaining('over the 1000 dall-e-2 takes') as string });
  });
});

describe('OpenAI Images review: modes with images', () => {
  it('sends image to image as an edit of the image as it is, saying strength cannot be set', () => {
    const review = backend().review('sdxl', { prompt: 'p', init_image: jpeg, strength: 0.4 });
    expect(review.refusals).toEqual([]);
    expect(review.translated).toMatchObject({ endpoint: 'POST /v1/images/edits', encoding: 'multipart/form-data', body: { image: `<base64, ${jpeg.length} characters>` } });
    expect(notes(review)).toMatchObject({ strength: { treatment: 'not-sent' }, init_image: { treatment: 'approximated' } });
  });

  it('sends inpainting with the mask described, noting that GPT image models take the mask as a guide', () => {
    const review = backend().review('sd', { prompt: 'p', init_image: png, mask_image: png });
    expect(review.refusals).toEqual([]);
    expect((review.translated as { body: { mask: string } }).body.mask).toBe(`mask_image <base64, ${png.length} characters> as a PNG whose transparent pixels mark where to paint`);
    expect(notes(review).mask_image?.treatment).toBe('approximated');
    expect(backend('dall-e-2').review('sd', { prompt: 'p', init_image: png, mask_image: jpeg }).notes).toEqual([]);
  });

  it('sends subject transfer to GPT image models as reference images named in the prompt', () => {
    const review = backend().review('sdxl', { prompt: 'sks dog and my cat', transfer_images: { sks: [png, jpeg], cat: [png] } });
    expect(review.refusals).toEqual([]);
    const body = (review.translated as { body: { prompt: string; 'image[]': string[] } }).body;
    expect(body['image[]']).toHaveLength(3);
    expect(body.prompt).toBe('sks dog and my cat\nImages 1–2 show “sks”; image 3 shows “cat”.');
    expect(notes(review).transfer_images?.treatment).toBe('approximated');
  });

  it('refuses, naming the field and why, what the model cannot do', () => {
    const reasons = (model: string, request: ImageRequest) => backend(model).review('sdxl', request).refusals;
    expect(reasons('dall-e-3', { prompt: 'p', init_image: png })).toEqual([{ path: 'init_image', message: expect.stringContaining('dall-e-3 cannot edit images') as string }]);
    expect(reasons('dall-e-2', { prompt: 'p', init_image: png })[0]?.message).toContain('dall-e-2 only repaints the masked part');
    expect(reasons('dall-e-2', { prompt: 'p', init_image: wide, mask_image: wide })).toEqual([{ path: 'init_image', message: expect.stringContaining('is 96×64; dall-e-2 edits square images only') as string }]);
    expect(reasons('dall-e-2', { prompt: 'p', init_image: jpeg, mask_image: png })[0]).toMatchObject({ path: 'init_image', message: expect.stringContaining('is a JPEG; dall-e-2 takes PNG images') as string });
    expect(reasons('gpt-image-1', { prompt: 'p', init_image: gif })[0]).toMatchObject({ path: 'init_image', message: expect.stringContaining('is a GIF; gpt-image-1 takes PNG, JPEG or WebP') as string });
    expect(reasons('gpt-image-1', { prompt: 'p', init_image: png, mask_image: gif })[0]).toMatchObject({ path: 'mask_image' });
    expect(reasons('dall-e-2', { prompt: 'sks', transfer_images: { sks: [png] } })[0]).toMatchObject({ path: 'transfer_images', message: expect.stringContaining('only the GPT image models take') as string });
    expect(reasons('gpt-image-1', { prompt: 'sks', transfer_images: { sks: Array<string>(8).fill(png), ink: Array<string>(8).fill(png), oil: [png] } })[0])
      .toMatchObject({ path: 'transfer_images', message: 'holds 17 sample images; gpt-image-1 takes at most 16 in one request' });
  });

  it('refuses ControlNet on every model, naming where to send it instead', () => {
    const review = backend().review('controlnet-sdxl', { prompt: 'p', controlnet: 'svc:canny_sdxl', controlnet_image: png });
    expect(review.refusals).toEqual([{ path: 'controlnet', message: expect.stringContaining('OpenAI Images has no ControlNet') as string }]);
    expect(review.refusals[0]?.message).toContain('ComfyUI or AUTOMATIC1111');
    expect(JSON.stringify(review.translated)).not.toContain(png);
  });

  it('decodes nothing and holds no credential or endpoint', () => {
    const bytes = vi.spyOn(imageCodec, 'bytes');
    const coverage = vi.spyOn(imageCodec, 'coverage');
    const review = backend().review('sdxl', { prompt: 'p', init_image: png, mask_image: png });
    expect(bytes).not.toHaveBeenCalled();
    expect(coverage).not.toHaveBeenCalled();
    const text = JSON.stringify(review);
    expect(text).not.toContain('sk-review-secret');
    expect(text).not.toContain('127.0.0.1');
    vi.restoreAllMocks();
  });
});
