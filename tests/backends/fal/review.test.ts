/** fal's translation, family by family: what is sent, approximated, left out or refused, found without sending. */
import { describe, expect, it } from 'vitest';
import { createFalBackend } from '../../../api/backends/fal/index';
import { planFal } from '../../../api/backends/fal/translate';
import type { ImageRequest } from '../../../api/image-schema';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const fields = (notes: { field: string; treatment: string }[]) => notes.map((n) => `${n.field}:${n.treatment}`);

describe('fal translation', () => {
  it('SDXL (fal-ai/fast-sdxl): the service defaults, size and seed sent; refiner and VAE said as left out', () => {
    const { review, plan } = planFal('sdxl', { prompt: 'a (red:1.3) fox', negative_prompt: 'blur', seed: 7, use_refiner: true, vae: 'svc:vae' }, 'fal-ai/fast-sdxl');
    expect(plan.endpoint).toBe('fal-ai/fast-sdxl');
    expect(plan.input).toEqual({
      prompt: 'a red fox', negative_prompt: 'blur', image_size: { width: 1024, height: 1024 }, num_inference_steps: 30, guidance_scale: 12,
      seed: 7, enable_safety_checker: true, format: 'png', sync_mode: true,
    });
    expect(fields(review.notes)).toEqual(['prompt:approximated', 'vae:not-sent', 'use_refiner:not-sent']);
    expect(review.refusals).toEqual([]);
  });

  it('FLUX.1 [dev]: negative prompt not sent, cfg_scale becomes guidance (said), sampler not sent', () => {
    const { review, plan } = planFal('sdxl', { prompt: 'p', negative_prompt: 'ugly', cfg_scale: 7, sampler: 'K_EULER', steps: 80 }, 'fal-ai/flux/dev');
    expect(plan.input).toMatchObject({ prompt: 'p', guidance_scale: 7, num_inference_steps: 50, output_format: 'png', sync_mode: true });
    expect(plan.input).not.toHaveProperty('negative_prompt');
    expect(fields(review.notes)).toEqual(['negative_prompt:not-sent', 'steps:approximated', 'cfg_scale:approximated', 'sampler:not-sent']);
    expect(review.notes.find((n) => n.field === 'cfg_scale')!.message).toMatch(/distilled guidance/);
  });

  it('FLUX.1 [schnell]: no guidance at all, steps kept within 12, image to image refused before sending', () => {
    const { review, plan } = planFal('sdxl', { prompt: 'p', cfg_scale: 5, steps: 30 }, 'fal-ai/flux/schnell');
    expect(plan.input).not.toHaveProperty('guidance_scale');
    expect(plan.input.num_inference_steps).toBe(12);
    expect(fields(review.notes)).toContain('cfg_scale:not-sent');
    const img2img = planFal('sdxl', { prompt: 'p', init_image: PNG }, 'fal-ai/flux/schnell').review;
    expect(img2img.refusals).toEqual([{ path: 'init_image', message: expect.stringMatching(/FLUX.1 \[schnell\] on fal cannot do image to image/) }]);
  });

  it('SD 1.5 (fal-ai/lora): the SD 1.5 checkpoint, weighting kept, the sampler as its scheduler', () => {
    const { review, plan } = planFal('sd', { prompt: 'a (red:1.3) fox', sampler: 'PNDM' }, 'fal-ai/lora');
    expect(plan.input).toMatchObject({
      model_name: 'stable-diffusion-v1-5/stable-diffusion-v1-5', prompt: 'a (red:1.3) fox', prompt_weighting: true, scheduler: 'DDIM',
      image_size: { width: 512, height: 512 }, image_format: 'png',
    });
    expect(plan.input).not.toHaveProperty('sync_mode');
    expect(fields(review.notes)).toEqual(['sampler:approximated']);
  });

  it('inpainting goes to the inpainting endpoint with both images; SD 3.5 refuses it', () => {
    const { plan } = planFal('sdxl', { prompt: 'p', init_image: PNG, mask_image: PNG, strength: 0.6 }, 'fal-ai/fast-sdxl');
    expect(plan.endpoint).toBe('fal-ai/fast-sdxl/inpainting');
    expect(plan.images.map((i) => i.field)).toEqual(['image_url', 'mask_url']);
    expect(plan.input.strength).toBe(0.6);
    expect(planFal('sdxl', { prompt: 'p', init_image: PNG, mask_image: PNG }, 'fal-ai/stable-diffusion-v35-large').review.refusals[0]!.path).toBe('mask_image');
  });

  it('ControlNet: canny goes to the canny endpoint; depth is refused naming the field', () => {
    const canny: ImageRequest = { prompt: 'p', controlnet: 'svc:canny_sdxl', controlnet_image: PNG };
    const ok = planFal('controlnet-sdxl', canny, 'fal-ai/fast-sdxl-controlnet-canny');
    expect(ok.plan.images).toEqual([{ source: 'controlnet_image', field: 'control_image_url', b64: PNG }]);
    expect(ok.review.translated).toMatchObject({ input: { control_image_url: expect.stringMatching(/^controlnet_image: data URI, png, \d+ bytes$/) } });
    const depth = planFal('controlnet-sdxl', { ...canny, controlnet: 'svc:depth_sdxl' }, 'fal-ai/fast-sdxl-controlnet-canny').review;
    expect(depth.refusals).toEqual([{ path: 'controlnet', message: expect.stringMatching(/canny edges only/) }]);
    expect(planFal('sdxl', canny, 'fal-ai/fast-sdxl').review.refusals[0]).toEqual({ path: 'controlnet', message: expect.stringMatching(/cannot do ControlNet: choose fal-ai\/fast-sdxl-controlnet-canny/) });
  });

  it('LoRAs go by the URL the assets setting maps them to, on the models whose endpoint takes loras (not FLUX.1 [dev])', () => {
    const names = { assets: { 'svc:grain': 'https://example.com/grain.safetensors' } };
    const request: ImageRequest = { prompt: 'p', loras: { 'svc:grain': 0.6, unmapped: 1 } };
    const sdxl = planFal('sdxl', request, 'fal-ai/fast-sdxl', names);
    expect(sdxl.plan.input.loras).toEqual([{ path: 'https://example.com/grain.safetensors', scale: 0.6 }]);
    expect(fields(sdxl.review.notes)).toEqual(['loras.unmapped:not-sent']);
    const flux = planFal('sdxl', request, 'fal-ai/flux/dev', names);
    expect(flux.plan.input).not.toHaveProperty('loras');
    expect(fields(flux.review.notes)).toEqual(['loras.svc:grain:not-sent', 'loras.unmapped:not-sent']);
  });

  it('subject transfer is refused; num_images over a model\'s limit is split and said', () => {
    expect(planFal('sdxl', { prompt: 'p', transfer_images: { sks: [PNG] } }, 'fal-ai/fast-sdxl').review.refusals[0]!.path).toBe('transfer_images');
    const { review, plan } = planFal('sdxl', { prompt: 'p', num_images: 6 }, 'fal-ai/flux/dev');
    expect(plan.counts).toEqual([4, 2]);
    expect(fields(review.notes)).toContain('num_images:approximated');
  });

  it('a model the table does not know is sent the shared fields, and the review says so', () => {
    const { review, plan } = planFal('sdxl', { prompt: 'p', negative_prompt: 'n', cfg_scale: 5 }, 'fal-ai/some-new-model');
    expect(plan.endpoint).toBe('fal-ai/some-new-model');
    expect(Object.keys(plan.input).sort()).toEqual(['enable_safety_checker', 'image_size', 'output_format', 'prompt', 'sync_mode']);
    expect(fields(review.notes)).toEqual(['engine:approximated', 'negative_prompt:not-sent', 'cfg_scale:not-sent']);
  });

  it('prices: FLUX by the megapixel from the dated table, fast-sdxl unknown (never guessed)', () => {
    const backend = createFalBackend({ baseUrl: 'https://queue.fal.run', names: { model: 'fal-ai/flux/dev' } });
    expect(backend.price('sdxl', { prompt: 'p', num_images: 2, width: 1536, height: 1024 })).toEqual({
      known: true, amountUsd: 0.025, per: 'megapixel', totalUsd: 0.1, source: 'https://fal.ai/pricing', date: '2026-05-25',
    });
    const sdxl = createFalBackend({ baseUrl: 'https://queue.fal.run' }).price('sdxl', { prompt: 'p' });
    expect(sdxl).toEqual({ known: false, why: expect.stringMatching(/GPU time/) });
  });
});
