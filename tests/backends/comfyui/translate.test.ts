import { describe, expect, it, vi } from 'vitest';
import { SAMPLERS } from '../../../api/catalog';
import { createComfyBackend } from '../../../api/backends/comfyui/index';
import { buildGraph, type ComfyPrompt } from '../../../api/backends/comfyui/graph';
import { imageCodec } from '../../../api/backends/comfyui/images';
import { COMFY_SAMPLERS } from '../../../api/backends/samplers';
import { applyStyle, STYLES } from '../../../api/backends/styles';
import { translate } from '../../../api/backends/comfyui/translate';
import type { ImageRequest } from '../../../api/image-schema';
import { nodeClasses, SAMPLER_NAMES, SCHEDULER_NAMES } from '../../helpers/doubles/comfyui-nodes';
import { validatePrompt } from '../../helpers/doubles/comfyui-validate';
import { NAMES } from './helpers';

// Tiny stand-ins: translation never looks inside the images.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const IMAGES = { init_image: 'atelier-init.png', mask_image: 'atelier-mask.png', controlnet_image: 'atelier-control.png' };

function graphOf(engine: 'sdxl' | 'sd' | 'controlnet-sdxl', request: ImageRequest, names = NAMES) {
  const t = translate(engine, request, { names, images: IMAGES, seed: 7 });
  expect(t.refusals).toEqual([]);
  return { ...buildGraph(t.recipe!), notes: t.notes };
}

const byClass = (prompt: ComfyPrompt, classType: string) => Object.entries(prompt).filter(([, n]) => n.class_type === classType);
const one = (prompt: ComfyPrompt, classType: string) => {
  const found = byClass(prompt, classType);
  expect(found, classType).toHaveLength(1);
  return found[0]![1].inputs;
};

/** The double's validate_prompt, with the inputs the graph loads present in its input folder. */
function expectValidForComfy(prompt: ComfyPrompt) {
  const inputs = new Map(Object.values(IMAGES).map((n) => [n, new Uint8Array()]));
  const classes = nodeClasses({
    checkpoints: [NAMES.checkpoint, NAMES.refiner, 'v1-5.safetensors', 'mine.safetensors'], loras: ['detail.safetensors'], vaes: ['sdxl_vae.safetensors'],
    controlnets: Object.values(NAMES.assets).concat('my-lines.safetensors'), embeddings: [], unets: [], textEncoders: [], upscalers: [], inputs,
  });
  const result = validatePrompt(structuredClone(prompt), classes);
  expect(result.ok ? [] : result).toEqual([]);
}

describe('ComfyUI translation: the graph for each mode', () => {
  it('text to image on SDXL: checkpoint from Settings, one encoder per prompt, a batch, KSampler, SaveImage', () => {
    const g = graphOf('sdxl', { prompt: 'a lighthouse', negative_prompt: 'fog', num_images: 2, steps: 25, cfg_scale: 6.5, seed: 42, width: 1152, height: 896 });
    expect(one(g.prompt, 'CheckpointLoaderSimple')).toEqual({ ckpt_name: NAMES.checkpoint });
    expect(byClass(g.prompt, 'CLIPTextEncode').map(([, n]) => n.inputs.text)).toEqual(['a lighthouse', 'fog']);
    expect(one(g.prompt, 'EmptyLatentImage')).toEqual({ width: 1152, height: 896, batch_size: 2 });
    expect(one(g.prompt, 'KSampler')).toMatchObject({ seed: 42, steps: 25, cfg: 6.5, sampler_name: 'ddim', scheduler: 'ddim_uniform', denoise: 1 });
    expect(one(g.prompt, 'SaveImage')).toMatchObject({ filename_prefix: 'Atelier' });
    expect(g.samplers).toEqual([{ node: byClass(g.prompt, 'KSampler')[0]![0], steps: 25 }]);
    expectValidForComfy(g.prompt);
  });

  it('gives prompt to CLIP-L and prompt_2 to bigG (CLIPTextEncodeSDXL), with the size as conditioning', () => {
    const g = graphOf('sdxl', { prompt: 'castle, stone', prompt_2: 'An old castle on a hill', negative_prompt: 'blur', negative_prompt_2: 'A blurry photo' });
    const [pos, neg] = byClass(g.prompt, 'CLIPTextEncodeSDXL').map(([, n]) => n.inputs);
    expect(pos).toMatchObject({ text_l: 'castle, stone', text_g: 'An old castle on a hill', width: 1024, height: 1024, target_width: 1024, target_height: 1024, crop_w: 0 });
    expect(neg).toMatchObject({ text_l: 'blur', text_g: 'A blurry photo' });
    expectValidForComfy(g.prompt);
  });

  it('image to image: LoadImage resized to the size, VAEEncode, the batch repeated, denoise from strength', () => {
    const g = graphOf('sd', { prompt: 'a cat', init_image: PNG, strength: 0.35, num_images: 3, width: 640, height: 512 });
    expect(one(g.prompt, 'LoadImage')).toEqual({ image: IMAGES.init_image });
    expect(one(g.prompt, 'ImageScale')).toMatchObject({ width: 640, height: 512, crop: 'disabled' });
    expect(one(g.prompt, 'RepeatLatentBatch')).toMatchObject({ amount: 3 });
    expect(one(g.prompt, 'KSampler')).toMatchObject({ denoise: 0.35 });
    expect(byClass(g.prompt, 'EmptyLatentImage')).toEqual([]);
    expect(g.loads.init_image).toBe(byClass(g.prompt, 'LoadImage')[0]![0]);
    expectValidForComfy(g.prompt);
  });

  it('inpainting: the mask (white paints) through ImageToMask and SetLatentNoiseMask, keeping any checkpoint usable', () => {
    const g = graphOf('sdxl', { prompt: 'a red door', init_image: PNG, mask_image: PNG });
    expect(byClass(g.prompt, 'LoadImage').map(([, n]) => n.inputs.image)).toEqual([IMAGES.init_image, IMAGES.mask_image]);
    expect(one(g.prompt, 'ImageToMask')).toMatchObject({ channel: 'red' });
    const mask = one(g.prompt, 'SetLatentNoiseMask');
    expect(g.prompt[(mask.samples as [string, number])[0]]?.class_type).toBe('VAEEncode');
    expect(byClass(g.prompt, 'VAEEncodeForInpaint')).toEqual([]);
    expect(one(g.prompt, 'KSampler')).toMatchObject({ denoise: 0.8 });
    expectValidForComfy(g.prompt);
  });

  it('ControlNet: a public canny checkpoint is preprocessed with the core Canny node and mapped through Settings', () => {
    const g = graphOf('controlnet-sdxl', { prompt: 'a house', controlnet: 'svc:canny_sdxl', controlnet_image: PNG });
    expect(one(g.prompt, 'ControlNetLoader')).toEqual({ control_net_name: 'diffusers_xl_canny_full.safetensors' });
    const apply = one(g.prompt, 'ControlNetApplyAdvanced');
    expect(g.prompt[(apply.image as [string, number])[0]]?.class_type).toBe('Canny');
    expect(apply).toMatchObject({ strength: 1, start_percent: 0, end_percent: 1 });
    const sampler = one(g.prompt, 'KSampler');
    expect(sampler.positive).toEqual([byClass(g.prompt, 'ControlNetApplyAdvanced')[0]![0], 0]);
    expect(sampler.negative).toEqual([byClass(g.prompt, 'ControlNetApplyAdvanced')[0]![0], 1]);
    expect(g.notes).toEqual([]);
    expectValidForComfy(g.prompt);
  });

  it('ControlNet: depth has no core preprocessor, so the image is the map, and says so; a private one or preprocess false takes the map as it is', () => {
    const depth = graphOf('controlnet-sdxl', { prompt: 'a house', controlnet: 'svc:depth_sdxl', controlnet_image: PNG });
    expect(byClass(depth.prompt, 'Canny')).toEqual([]);
    expect(depth.notes).toEqual([expect.objectContaining({ field: 'controlnet_preprocess', treatment: 'not-sent', message: expect.stringContaining('no depth estimator') as unknown })]);
    const mine = graphOf('controlnet-sdxl', { prompt: 'a house', controlnet: 'my-lines.safetensors', controlnet_image: PNG });
    expect(byClass(mine.prompt, 'Canny')).toEqual([]);
    expect(one(mine.prompt, 'ControlNetLoader')).toEqual({ control_net_name: 'my-lines.safetensors' });
    expect(mine.notes).toEqual([]);
    const off = graphOf('controlnet-sdxl', { prompt: 'a house', controlnet: 'svc:canny_sdxl', controlnet_preprocess: false, controlnet_image: PNG });
    expect(byClass(off.prompt, 'Canny')).toEqual([]);
    expectValidForComfy(depth.prompt);
  });

  it('the SDXL refiner: KSamplerAdvanced split at high_noise_frac × steps, leftover noise handed to the refiner checkpoint', () => {
    const g = graphOf('sdxl', { prompt: 'a fox', use_refiner: true, high_noise_frac: 0.8, steps: 30, seed: 5 });
    const [base, refiner] = byClass(g.prompt, 'KSamplerAdvanced').map(([id, n]) => ({ id, ...n.inputs } as Record<string, unknown> & { id: string }));
    expect(base).toMatchObject({ add_noise: 'enable', noise_seed: 5, steps: 30, start_at_step: 0, end_at_step: 24, return_with_leftover_noise: 'enable' });
    expect(refiner).toMatchObject({ add_noise: 'disable', noise_seed: 5, steps: 30, start_at_step: 24, end_at_step: 10000, return_with_leftover_noise: 'disable' });
    expect(refiner?.latent_image).toEqual([base?.id, 0]);
    expect(byClass(g.prompt, 'CheckpointLoaderSimple').map(([, n]) => n.inputs.ckpt_name)).toEqual([NAMES.checkpoint, NAMES.refiner]);
    expect(byClass(g.prompt, 'CLIPTextEncodeSDXLRefiner').map(([, n]) => n.inputs.ascore)).toEqual([6, 2.5]);
    expect(g.samplers.map((s) => s.steps)).toEqual([24, 6]);
    expectValidForComfy(g.prompt);
  });

  it('the refiner with an input image starts the base where strength begins', () => {
    const g = graphOf('sdxl', { prompt: 'a fox', use_refiner: true, init_image: PNG, strength: 0.5, steps: 20 });
    const [base] = byClass(g.prompt, 'KSamplerAdvanced').map(([, n]) => n.inputs);
    expect(base).toMatchObject({ start_at_step: 10, end_at_step: 16 });
    expectValidForComfy(g.prompt);
  });

  it('LoRAs chained with their weights, a VAE loader, textual inversions as embedding: references', () => {
    const g = graphOf('sd', {
      prompt: 'a portrait, mystyle', negative_prompt: 'badhands', loras: { 'detail.safetensors': 0.6, 'svc:film': -0.5 },
      vae: 'sdxl_vae.safetensors', textual_inversions: { 'svc:easynegative': 'badhands', 'mystyle-ti': 'mystyle' },
    });
    const loras = byClass(g.prompt, 'LoraLoader').map(([id, n]) => ({ id, ...n.inputs } as Record<string, unknown> & { id: string }));
    expect(loras.map((l) => [l.lora_name, l.strength_model, l.strength_clip])).toEqual([['detail.safetensors', 0.6, 0.6], ['film', -0.5, -0.5]]);
    expect(loras[1]?.model).toEqual([loras[0]?.id, 0]);
    expect(byClass(g.prompt, 'CLIPTextEncode').map(([, n]) => n.inputs.text)).toEqual(['a portrait, embedding:mystyle-ti', 'embedding:easynegative']);
    expect(byClass(g.prompt, 'CLIPTextEncode').every(([, n]) => (n.inputs.clip as [string, number])[0] === loras[1]?.id)).toBe(true);
    expect(one(g.prompt, 'VAEDecode').vae).toEqual([byClass(g.prompt, 'VAELoader')[0]![0], 0]);
    expect(g.roles[loras[1]!.id]).toEqual({ field: 'loras.svc:film' });
  });

  it('a textual inversion whose trigger word is in no prompt is said not to be sent', () => {
    const t = translate('sdxl', { prompt: 'a cat', textual_inversions: { 'svc:x': 'zzword' } }, { names: NAMES });
    expect(t.notes).toEqual([{ field: 'textual_inversions.svc:x', treatment: 'not-sent', message: expect.stringContaining("'zzword' is in no prompt") as unknown }]);
  });
});

describe('ComfyUI translation: samplers, styles, seeds and refusals', () => {
  it('maps every service sampler to a sampler and scheduler ComfyUI has; PNDM and DPM_SINGLE are approximations and say so', () => {
    for (const sampler of SAMPLERS) {
      const pair = COMFY_SAMPLERS[sampler];
      expect(SAMPLER_NAMES).toContain(pair.sampler_name);
      expect(SCHEDULER_NAMES).toContain(pair.scheduler);
      const t = translate('sdxl', { prompt: 'x', sampler }, { names: NAMES });
      expect(t.notes.filter((n) => n.field === 'sampler').length).toBe(pair.approximation === undefined ? 0 : 1);
    }
    expect(COMFY_SAMPLERS.DPM_PLUS_PLUS_2M_KARRAS).toEqual({ sampler_name: 'dpmpp_2m', scheduler: 'karras' });
    expect(COMFY_SAMPLERS.K_EULER_ANCESTRAL).toEqual({ sampler_name: 'euler_ancestral', scheduler: 'normal' });
    expect(Object.entries(COMFY_SAMPLERS).filter(([, p]) => p.approximation).map(([s]) => s).sort()).toEqual(['DPM_SINGLE', 'PNDM']);
  });

  it('a style preset becomes words around the prompt and in the negative prompt, noted as an approximation', () => {
    const g = graphOf('sdxl', { prompt: 'a harbour', negative_prompt: 'people', style_preset: 'Watercolor' });
    const styled = applyStyle('Watercolor', 'a harbour', 'people');
    expect(styled.prompt).not.toBe('a harbour');
    expect(byClass(g.prompt, 'CLIPTextEncode').map(([, n]) => n.inputs.text)).toEqual([styled.prompt, styled.negative]);
    expect(g.notes).toEqual([{
      field: 'style_preset', treatment: 'approximated',
      message: `ComfyUI has no style presets: 'Watercolor' becomes words around the prompt ("${STYLES.Watercolor.template}") and in the negative prompt`,
    }]);
    expect(graphOf('sdxl', { prompt: 'a harbour', style_preset: 'base' }).notes).toEqual([]);
  });

  it('styles prompt_2 and negative_prompt_2 too, and SD 1.5 not at all (style_preset is SDXL-only)', () => {
    const g = graphOf('sdxl', { prompt: 'castle', prompt_2: 'an old castle', negative_prompt: 'blur', negative_prompt_2: 'a blurry photo', style_preset: 'Gothic' });
    const [pos, neg] = byClass(g.prompt, 'CLIPTextEncodeSDXL').map(([, n]) => n.inputs);
    expect(pos).toMatchObject({ text_l: applyStyle('Gothic', 'castle', '').prompt, text_g: applyStyle('Gothic', 'an old castle', '').prompt });
    expect(neg).toMatchObject({ text_l: applyStyle('Gothic', '', 'blur').negative, text_g: applyStyle('Gothic', '', 'a blurry photo').negative });
    const sd = graphOf('sd', { prompt: 'a harbour', negative_prompt: 'people', style_preset: 'Watercolor' });
    expect(byClass(sd.prompt, 'CLIPTextEncode').map(([, n]) => n.inputs.text)).toEqual(['a harbour', 'people']);
  });

  it('says that a batch comes from one seed', () => {
    expect(translate('sdxl', { prompt: 'x', num_images: 4 }, { names: NAMES }).notes).toEqual([expect.objectContaining({ field: 'num_images', treatment: 'approximated' })]);
  });

  it('refuses with the reason: no checkpoint anywhere, subject transfer, the refiner without its checkpoint', () => {
    expect(translate('sdxl', { prompt: 'x' }, {}).refusals).toEqual([{ path: 'checkpoint', message: expect.stringContaining("set for the sdxl engine in the backend's settings") as unknown }]);
    expect(translate('sdxl', { prompt: 'x', checkpoint: 'mine.safetensors' }, {}).refusals).toEqual([]);
    const transfer = translate('sdxl', { prompt: 'my dog', transfer_images: { dog: [PNG] } }, { names: NAMES });
    expect(transfer.refusals).toEqual([{ path: 'transfer_images', message: expect.stringContaining('subject transfer') as unknown }]);
    expect(transfer.recipe).toBeUndefined();
    expect(translate('sdxl', { prompt: 'x', use_refiner: true }, { names: { checkpoint: 'a' } }).refusals).toEqual([{ path: 'use_refiner', message: expect.stringContaining('--refiner FILE in the CLI') as unknown }]);
  });
});

describe('ComfyUI review', () => {
  it('is the graph as it will be sent, without images, credentials or endpoints, and decodes nothing', () => {
    const decode = vi.spyOn(imageCodec, 'decode');
    const backend = createComfyBackend({ baseUrl: 'http://127.0.0.1:8188', token: 'secret-token', names: NAMES });
    const big = PNG + 'A'.repeat(400_000);
    const review = backend.review('sdxl', { prompt: 'x', init_image: big, mask_image: big, seed: null });
    expect(decode).not.toHaveBeenCalled();
    decode.mockRestore();
    const text = JSON.stringify(review.translated);
    expect(text).not.toContain('AAAA');
    expect(text).not.toContain('secret-token');
    expect(text).not.toContain('8188');
    expect(text).toContain("init_image, uploaded to ComfyUI's input folder");
    expect(text).toContain('random, chosen when the run starts');
    expect(review).toMatchObject({ backend: 'comfyui', label: 'ComfyUI', refusals: [] });
  });

  it('has no graph when it refuses', () => {
    const review = createComfyBackend({ baseUrl: 'http://127.0.0.1:8188' }).review('sd', { prompt: 'x' });
    expect(review.refusals).toHaveLength(1);
    expect(review.translated).toBeUndefined();
  });
});
