/** review: the request as AUTOMATIC1111 will get it, from the request alone. */
import { describe, expect, it } from 'vitest';
import { SAMPLERS } from '../../../api/catalog';
import { createA1111Backend } from '../../../api/backends/a1111/index';
import { toA1111Prompt } from '../../../api/backends/a1111/prompt';
import type { BackendNamesConfig } from '../../../api/backends/config';
import { applyStyle } from '../../../api/backends/styles';
import type { ImageRequest } from '../../../api/image-schema';
import type { EngineId } from '../../../api/catalog';

const IMAGE = `/9j/${'A'.repeat(400)}`;
const offline = (names: BackendNamesConfig = { checkpoint: 'sd_xl_base_1.0.safetensors' }) => createA1111Backend({
  baseUrl: 'http://127.0.0.1:7860', names,
  fetch: () => { throw new Error('review must not touch the network'); },
});
const review = (engine: EngineId, request: ImageRequest, names?: BackendNamesConfig) => offline(names).review(engine, request);
const body = (engine: EngineId, request: ImageRequest, names?: BackendNamesConfig) =>
  (review(engine, request, names).translated as { body: Record<string, unknown> }).body;
const notes = (engine: EngineId, request: ImageRequest, names?: BackendNamesConfig) =>
  Object.fromEntries(review(engine, request, names).notes.map((n) => [n.field, `${n.treatment}: ${n.message}`]));

describe('review', () => {
  it('text to image with the engine\'s defaults, every value explicit', () => {
    const r = review('sd', { prompt: 'a fox' }, { checkpoint: 'v1-5-pruned-emaonly.safetensors' });
    expect(r).toMatchObject({ backend: 'a1111', label: 'AUTOMATIC1111 / Forge', refusals: [], notes: [] });
    expect(r.translated).toEqual({
      path: '/sdapi/v1/txt2img',
      body: {
        prompt: 'a fox', negative_prompt: '', seed: -1, sampler_name: 'DDIM', scheduler: 'Automatic', batch_size: 1, n_iter: 1,
        steps: 30, cfg_scale: 12, width: 512, height: 512, override_settings: { sd_model_checkpoint: 'v1-5-pruned-emaonly.safetensors' },
        override_settings_restore_afterwards: true, send_images: true, save_images: false,
      },
    });
  });

  it('says when no checkpoint is set: whatever is loaded runs', () => {
    expect(notes('sdxl', { prompt: 'x' }, {}).checkpoint).toMatch(/^approximated: uses whatever checkpoint AUTOMATIC1111 has loaded/);
    expect(body('sdxl', { prompt: 'x' }, {}).override_settings).toEqual({});
  });

  it('maps every service sampler, saying which are only the nearest', () => {
    const mapped = Object.fromEntries(SAMPLERS.map((s) => {
      const b = body('sdxl', { prompt: 'x', sampler: s });
      return [s, `${String(b.sampler_name)} / ${String(b.scheduler)}`];
    }));
    expect(mapped).toMatchObject({ DPM_PLUS_PLUS_2M_KARRAS: 'DPM++ 2M / Karras', DPM_SOLVER_MULTISTEP: 'DPM++ 2M / Uniform', K_EULER_ANCESTRAL: 'Euler a / Uniform', DPM_2: 'DPM2 / Uniform', UNI_PC: 'UniPC / Automatic' });
    const approximated = SAMPLERS.filter((s) => notes('sdxl', { prompt: 'x', sampler: s }).sampler !== undefined);
    expect(approximated).toEqual(['DDPM', 'DPM_SINGLE', 'PNDM']);
  });

  it('joins prompt_2 to the prompt, and says so; the same text twice is one prompt', () => {
    expect(body('sdxl', { prompt: 'castle, dusk', prompt_2: 'a castle at dusk', negative_prompt: 'blur', negative_prompt_2: 'blurry' })).toMatchObject({
      prompt: 'castle, dusk, a castle at dusk', negative_prompt: 'blur, blurry',
    });
    expect(notes('sdxl', { prompt: 'a', prompt_2: 'b' }).prompt_2).toMatch(/^approximated: joined to prompt/);
    expect(notes('sdxl', { prompt: 'a', prompt_2: 'a' }).prompt_2).toBeUndefined();
  });

  it('a style preset becomes words in the prompts; base adds none', () => {
    const b = body('sdxl', { prompt: 'a cat', negative_prompt: 'dog', style_preset: 'pixel-art' });
    const styled = applyStyle('pixel-art', 'a cat', 'dog');
    expect(styled.prompt).not.toBe('a cat');
    expect(b).toMatchObject({ prompt: styled.prompt, negative_prompt: styled.negative });
    expect(body('sdxl', { prompt: 'a cat', negative_prompt: 'dog', style_preset: 'base' })).toMatchObject({ prompt: 'a cat', negative_prompt: 'dog' });
    expect(notes('sdxl', { prompt: 'a', style_preset: 'pixel-art' }).style_preset).toMatch(/^approximated: 'pixel-art' becomes words/);
    expect(notes('sdxl', { prompt: 'a', style_preset: 'base' }).style_preset).toBeUndefined();
  });

  it('LoRAs as <lora:name:weight> in the prompt; a name that syntax cannot hold is refused', () => {
    const names = { checkpoint: 'c', assets: { 'svc:detail': 'detail_tweaker.safetensors' } };
    expect(body('sdxl', { prompt: 'x', loras: { 'svc:detail': 0.6, 'my-style': -1 } }, names).prompt).toBe('x <lora:detail_tweaker:0.6> <lora:my-style:-1>');
    expect(review('sdxl', { prompt: 'x', loras: { 'odd:name': 1 } }).refusals).toEqual([
      { path: 'loras.odd:name', message: "the name 'odd:name' cannot be written in AUTOMATIC1111's <lora:name:weight> (it holds ':', '<' or '>')" },
    ]);
  });

  it('an embedding is written where its trigger word is; an unused one is said to be left out', () => {
    const b = body('sdxl', { prompt: 'portrait of sks man', negative_prompt: 'bad-hands', textual_inversions: { 'sks_face.pt': 'sks', easyneg: 'bad-hands' } });
    expect([b.prompt, b.negative_prompt]).toEqual(['portrait of sks_face man', 'easyneg']);
    const n = notes('sdxl', { prompt: 'a', textual_inversions: { emb: 'zzz', a: 'a' } });
    expect(n['textual_inversions.emb']).toMatch(/^not-sent: its trigger word 'zzz' is in neither prompt/);
    expect(n['textual_inversions.a']).toBeUndefined();
  });

  it('the refiner from the settings, switching at high_noise_frac; without one, said to be left out', () => {
    expect(body('sdxl', { prompt: 'x', use_refiner: true, high_noise_frac: 0.7 }, { checkpoint: 'c', refiner: 'r.safetensors' })).toMatchObject({ refiner_checkpoint: 'r.safetensors', refiner_switch_at: 0.7 });
    expect(notes('sdxl', { prompt: 'x', use_refiner: true }).use_refiner).toMatch(/^not-sent: no refiner checkpoint is set/);
  });

  it('image to image and inpainting go to /img2img with the images elided in the record', () => {
    const r = review('sd', { prompt: 'x', init_image: IMAGE, mask_image: IMAGE, strength: 0.3 });
    expect(r.translated).toMatchObject({
      path: '/sdapi/v1/img2img',
      body: { init_images: ['<base64, 404 characters>'], mask: '<base64, 404 characters>', denoising_strength: 0.3, inpainting_fill: 1, inpaint_full_res: false },
    });
  });

  it('ControlNet: the preprocessor for a public checkpoint unless turned off; a private map as given', () => {
    const unit = (request: Omit<ImageRequest, 'prompt'>) => ((body('controlnet-sdxl', { prompt: 'x', controlnet_image: IMAGE, ...request }).alwayson_scripts as { controlnet: { args: Record<string, unknown>[] } }).controlnet.args[0]);
    expect(unit({ controlnet: 'svc:depth_sdxl' })).toMatchObject({ enabled: true, module: 'depth_midas', model: 'depth_sdxl', pixel_perfect: true, save_detected_map: false, image: '<base64, 404 characters>' });
    expect(unit({ controlnet: 'svc:depth_sdxl', controlnet_preprocess: false })).toMatchObject({ module: 'none', pixel_perfect: false });
    expect(unit({ controlnet: 'my_lineart.safetensors' })).toMatchObject({ module: 'none', model: 'my_lineart' });
    expect(notes('controlnet-sdxl', { prompt: 'x', controlnet: 'mine', controlnet_image: IMAGE, controlnet_preprocess: true }).controlnet_preprocess).toMatch(/^not-sent/);
    expect(notes('controlnet-sdxl', { prompt: 'x', controlnet: 'svc:canny_sdxl', controlnet_image: IMAGE }).controlnet).toMatch(/has no AUTOMATIC1111 name in the backend's settings/);
  });

  it('refuses subject transfer, and ControlNet without its image', () => {
    expect(review('sdxl', { prompt: 'sks dog', transfer_images: { sks: [IMAGE] } }).refusals.map((r) => r.path)).toEqual(['transfer_images']);
    expect(review('controlnet-sdxl', { prompt: 'x', controlnet: 'svc:canny_sdxl' }).refusals.map((r) => r.path)).toEqual(['controlnet_image']);
  });

  it('sizes in multiples of 8, and SDXL-only fields on SD 1.5, are said', () => {
    const n = notes('sd', { prompt: 'x', width: 514, prompt_2: 'y', style_preset: 'anime' });
    expect(n.width).toBe('approximated: 514 becomes 512: AUTOMATIC1111 makes sizes in multiples of 8');
    expect(n.prompt_2).toMatch(/^not-sent: applies to SDXL engines only/);
    expect(n.style_preset).toMatch(/^not-sent/);
    expect(body('sd', { prompt: 'x', style_preset: 'anime' }).prompt).toBe('x');
  });
});

describe('prompts in AUTOMATIC1111\'s syntax', () => {
  it('keeps a prompt that means the same there', () => {
    expect(toA1111Prompt('a (red:1.3) ((big)) fox, \\(literal\\)')).toBe('a (red:1.3) ((big)) fox, \\(literal\\)');
  });

  it('escapes what only AUTOMATIC1111 reads: brackets, AND, BREAK, a ( never closed', () => {
    expect(toA1111Prompt('[cat:dog:0.5] AND (tree')).toBe('\\[cat:dog:0.5\\] and \\(tree');
    expect(toA1111Prompt('(sunset: 1.2) BREAK [x]')).toBe('(sunset:1.2) break \\[x\\]');
    expect(toA1111Prompt('((a) [b])')).toBe('(a:1.21)( \\[b\\]:1.1)');
  });
});
