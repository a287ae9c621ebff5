/** The whole path against the AUTOMATIC1111 double: each mode as sent, read and answered. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { startA1111Double, type A1111Double } from '../../helpers/doubles/a1111';
import { backendFor, colourOf, imageB64, sent } from './fixtures';

let double: A1111Double;
afterEach(async () => { await double.close(); });

describe('generate against the AUTOMATIC1111 double', () => {
  it('text to image: every value sent explicitly, nothing ignored or replaced, images with their seeds', async () => {
    double = await startA1111Double();
    const backend = backendFor(double);
    const result = await backend.generate('sdxl', { prompt: 'a lighthouse', num_images: 2, seed: 42, sampler: 'DPM_PLUS_PLUS_2M_KARRAS' });

    expect(result.images.map((i) => i.seed)).toEqual([42, 43]);
    expect(new Set(await Promise.all(result.images.map((i) => colourOf(i.image_b64)))).size).toBe(2);
    const meta = await sharp(Buffer.from(result.images[0]!.image_b64, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 1024]);
    const generation = double.generations[0]!;
    expect(generation.ignored).toEqual([]);
    expect([generation.sampler, generation.scheduler]).toEqual(['DPM++ 2M', 'Karras']);
    expect(generation.checkpoint).toBe('sd_xl_base_1.0.safetensors [31e35c80fc]');
    expect(generation.checkpointDropped).toBeUndefined();
    expect(sent(double)).toMatchObject({ steps: 30, cfg_scale: 12, batch_size: 2, n_iter: 1, width: 1024, height: 1024, seed: 42 });
  });

  it('keeps the service sampler\'s own schedule where AUTOMATIC1111\'s favourite differs', async () => {
    double = await startA1111Double();
    await backendFor(double).generate('sd', { prompt: 'x', sampler: 'DPM_2' });
    expect([double.generations[0]!.sampler, double.generations[0]!.scheduler]).toEqual(['DPM2', 'Uniform']);
  });

  it('image to image: the JPEG goes as it came, strength as denoising_strength', async () => {
    double = await startA1111Double();
    const init = await imageB64('jpeg');
    await backendFor(double).generate('sd', { prompt: 'x', init_image: init, strength: 0.4, steps: 20 });
    const generation = double.generations[0]!;
    expect(generation.route).toBe('img2img');
    expect(sent(double)).toMatchObject({ init_images: [init], denoising_strength: 0.4, resize_mode: 0 });
    expect(generation.steps).toBe(9);
    expect(generation.ignored).toEqual([]);
  });

  it('inpainting: the mask with white painted, whole picture, from the original pixels', async () => {
    double = await startA1111Double();
    const [init, mask] = [await imageB64('jpeg'), await imageB64('png', '#ffffff')];
    await backendFor(double).generate('sdxl', { prompt: 'x', init_image: init, mask_image: mask });
    expect(sent(double)).toMatchObject({
      mask, inpainting_mask_invert: 0, inpainting_fill: 1, inpaint_full_res: false, mask_blur_x: 0, mask_blur_y: 0, denoising_strength: 0.8,
    });
    expect(double.generations[0]!.ignored).toEqual([]);
  });

  it('ControlNet: one enabled unit, the preprocessor for a public checkpoint, no detected map among the images', async () => {
    double = await startA1111Double({ controlnetModels: ['diffusers_xl_canny_full [2b69fca4]'] });
    const backend = backendFor(double, { names: { checkpoint: 'sd_xl_base_1.0.safetensors', assets: { 'svc:canny_sdxl': 'diffusers_xl_canny_full.safetensors' } } });
    const control = await imageB64('png', '#000000');
    const result = await backend.generate('controlnet-sdxl', { prompt: 'x', controlnet: 'svc:canny_sdxl', controlnet_image: control });
    expect(result.images).toHaveLength(1);
    expect(double.generations[0]!.controlnet).toEqual({ module: 'canny', model: 'diffusers_xl_canny_full [2b69fca4]', loose: false });
  });

  it('decodes no input image: the base64 goes through untouched', async () => {
    double = await startA1111Double({ controlnetModels: ['diffusers_xl_canny_full [2b69fca4]'] });
    const backend = backendFor(double, { names: { checkpoint: 'sd_xl_base_1.0.safetensors', assets: { 'svc:canny_sdxl': 'diffusers_xl_canny_full' } } });
    const [init, mask] = [await imageB64('jpeg', '#123456', 256), await imageB64('png', '#ffffff', 256)];
    const long = (value: unknown) => typeof value === 'string' && value.length > 200;
    const atob = vi.spyOn(globalThis, 'atob');
    const from = vi.spyOn(Buffer, 'from');
    try {
      backend.review('sdxl', { prompt: 'x', init_image: init, mask_image: mask });
      await backend.generate('sdxl', { prompt: 'x', init_image: init, mask_image: mask });
      await backend.generate('controlnet-sdxl', { prompt: 'x', controlnet: 'svc:canny_sdxl', controlnet_image: init });
      const fromBase64 = (from.mock.calls as unknown[][]).filter(([s, enc]) => long(s) && enc === 'base64');
      const decodes = [...atob.mock.calls.filter(([s]) => long(s)), ...fromBase64];
      expect(decodes).toEqual([]);
    } finally {
      atob.mockRestore();
      from.mockRestore();
    }
  });
});
