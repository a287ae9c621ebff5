/** Replicate's translation, family by family: what is sent, approximated, left out or refused, found without sending. */
import { describe, expect, it } from 'vitest';
import { createReplicateBackend } from '../../../api/backends/replicate/index';
import { planReplicate } from '../../../api/backends/replicate/translate';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const fields = (notes: { field: string; treatment: string }[]) => notes.map((n) => `${n.field}:${n.treatment}`);

describe('Replicate translation', () => {
  it('SDXL: pinned version, the service defaults, the refiner as expert_ensemble_refiner with high_noise_frac', () => {
    const { review, plan } = planReplicate('sdxl', { prompt: 'a fox', prompt_2: 'oil painting', use_refiner: true, high_noise_frac: 0.7, num_images: 2, seed: 3 }, 'stability-ai/sdxl');
    expect(plan.model.version).toBe('7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc');
    expect(plan.input).toEqual({
      prompt: 'a fox, oil painting', width: 1024, height: 1024, num_inference_steps: 30, guidance_scale: 12, scheduler: 'DDIM',
      refine: 'expert_ensemble_refiner', high_noise_frac: 0.7, seed: 3, num_outputs: 2,
    });
    expect(fields(review.notes)).toEqual(['prompt_2:approximated']);
    expect(review.translated).toMatchObject({ endpoint: 'POST /v1/predictions', version: plan.model.version });
  });

  it('SDXL inpainting: image and mask (white repaints, as the service), prompt_strength from strength', () => {
    const { plan } = planReplicate('sdxl', { prompt: 'p', init_image: PNG, mask_image: PNG, strength: 0.55, width: 896, height: 1152 }, 'stability-ai/sdxl');
    expect(plan.images.map((i) => `${i.source}>${i.field}`)).toEqual(['init_image>image', 'mask_image>mask']);
    expect(plan.input.prompt_strength).toBe(0.55);
    expect(plan.input).not.toHaveProperty('width');
  });

  it('FLUX.1 [dev]: official, by name; size as the nearest aspect ratio; cfg_scale becomes guidance; no negative prompt', () => {
    const { review, plan } = planReplicate('sdxl', { prompt: 'p', negative_prompt: 'n', width: 896, height: 1152, cfg_scale: 12, sampler: 'HEUN' }, 'black-forest-labs/flux-dev');
    expect(plan.model.version).toBeUndefined();
    expect(plan.input).toEqual({ prompt: 'p', aspect_ratio: '4:5', guidance: 10, output_format: 'png', num_outputs: 1 });
    expect(fields(review.notes)).toEqual(['negative_prompt:not-sent', 'width:approximated', 'cfg_scale:approximated', 'cfg_scale:approximated', 'sampler:not-sent']);
    expect(review.translated).toMatchObject({ endpoint: 'POST /v1/models/black-forest-labs/flux-dev/predictions' });
  });

  it('FLUX.1 [schnell]: steps within 4; SD 3.5: cfg and steps by their own names, one image per prediction', () => {
    expect(planReplicate('sdxl', { prompt: 'p', steps: 20 }, 'black-forest-labs/flux-schnell').plan.input.num_inference_steps).toBe(4);
    const sd35 = planReplicate('sdxl', { prompt: 'p', steps: 28, cfg_scale: 4.5, num_images: 3 }, 'stability-ai/stable-diffusion-3.5-large');
    expect(sd35.plan.input).toEqual({ prompt: 'p', aspect_ratio: '1:1', steps: 28, cfg: 4.5, output_format: 'png' });
    expect(sd35.plan.counts).toEqual([1, 1, 1]);
  });

  it('the sd engine on Replicate\'s Stable Diffusion: said to be 2.1, sizes in steps of 64, image modes refused', () => {
    const { review, plan } = planReplicate('sd', { prompt: 'p', width: 576, height: 1000, cfg_scale: 25 }, 'stability-ai/stable-diffusion');
    expect(plan.input).toMatchObject({ width: 576, height: 1024, guidance_scale: 20 });
    expect(fields(review.notes)).toEqual(['engine:approximated', 'width:approximated', 'cfg_scale:approximated']);
    expect(planReplicate('sd', { prompt: 'p', init_image: PNG }, 'stability-ai/stable-diffusion').review.refusals[0]).toEqual({
      path: 'init_image', message: expect.stringMatching(/cannot do image to image: choose stability-ai\/sdxl/),
    });
  });

  it('ControlNet: lucataco/sdxl-controlnet takes the control image as image; other models refuse it before sending', () => {
    const request = { prompt: 'p', controlnet: 'svc:canny_sdxl', controlnet_image: PNG };
    const { plan } = planReplicate('controlnet-sdxl', request, 'lucataco/sdxl-controlnet');
    expect(plan.input).toEqual({ prompt: 'p', num_inference_steps: 30 });
    expect(plan.images).toEqual([{ source: 'controlnet_image', field: 'image', b64: PNG }]);
    expect(planReplicate('controlnet-sdxl', request, 'black-forest-labs/flux-dev').review.refusals[0]!.path).toBe('controlnet');
  });

  it('a setting that is not owner/name is refused; a version written after : is run', () => {
    expect(planReplicate('sdxl', { prompt: 'p' }, 'just-a-name').review.refusals[0]!.message).toMatch(/is not a Replicate model/);
    const pinned = planReplicate('sdxl', { prompt: 'p' }, `stability-ai/sdxl:${'a'.repeat(64)}`).plan.model;
    expect(pinned.version).toBe('a'.repeat(64));
  });

  it('prices: FLUX per image from the dated table; community models by the second, so unknown before a run', () => {
    const flux = createReplicateBackend({ baseUrl: 'https://api.replicate.com', names: { model: 'black-forest-labs/flux-schnell' } });
    expect(flux.price('sdxl', { prompt: 'p', num_images: 4 })).toEqual({
      known: true, amountUsd: 0.003, per: 'image', totalUsd: 0.012, source: 'https://replicate.com/black-forest-labs/flux-schnell', date: '2026-05-25',
    });
    expect(createReplicateBackend({ baseUrl: 'https://api.replicate.com' }).price('sdxl', { prompt: 'p' })).toEqual({ known: false, why: expect.stringMatching(/second of GPU time/) });
  });
});
