/**
 * A translated request as ComfyUI's API-format prompt: `{ id: { class_type, inputs } }`, where an
 * input is a value or a link `[node id, output index]`. Node classes and their inputs are those of
 * nodes.py, comfy_extras/nodes_canny.py, nodes_clip_sdxl.py and nodes_mask.py (Comfy-Org/ComfyUI).
 * Building is pure: the recipe (translate.ts) has made every decision already.
 */
import type { BackendSampler } from '../samplers';

export type Link = [string, number];
export interface ComfyNode {
  class_type: string;
  inputs: Record<string, unknown>;
  _meta: { title: string };
}
export type ComfyPrompt = Record<string, ComfyNode>;

export type ImageField = 'init_image' | 'mask_image' | 'controlnet_image';

/** What a node stands for in the request, so ComfyUI's errors can name the request's field. */
export interface NodeRole {
  field: string;
  /** Set for a name taken from Settings rather than the request. */
  fromSettings?: boolean;
}

export interface ComfyGraph {
  prompt: ComfyPrompt;
  roles: Record<string, NodeRole>;
  /** LoadImage nodes, by the request field whose image they load. */
  loads: Partial<Record<ImageField, string>>;
  /** Sampler nodes in the order they run, with the steps each reports progress over. */
  samplers: { node: string; steps: number }[];
  /** The SaveImage node whose images are the result. */
  output: string;
}

export interface Recipe {
  sdxl: boolean;
  checkpoint: { file: string; fromSettings: boolean };
  /** The SDXL refiner pass: its checkpoint and the step where the base hands over. */
  refiner?: { file: string; split: number };
  vae?: string;
  loras: { field: string; file: string; weight: number }[];
  prompt: string;
  prompt2?: string;
  negative: string;
  negative2?: string;
  width: number;
  height: number;
  steps: number;
  cfg: number;
  sampler: BackendSampler;
  /** A number, or in a review a word saying it is chosen at run time. */
  seed: number | string;
  batch: number;
  /** img2img and inpainting: the denoise the input image gets (the request's strength). */
  init?: { denoise: number; masked: boolean };
  controlnet?: { file: string; canny: boolean };
  /** Input image file names in ComfyUI's input folder (placeholders in a review). */
  images: Partial<Record<ImageField, string>>;
}

/** Where Atelier's results land in ComfyUI's output folder. */
export const FILENAME_PREFIX = 'Atelier';

class Builder {
  readonly prompt: ComfyPrompt = {};
  readonly roles: Record<string, NodeRole> = {};
  private next = 1;

  add(class_type: string, title: string, inputs: Record<string, unknown>, role?: NodeRole): string {
    const id = String(this.next++);
    this.prompt[id] = { class_type, inputs, _meta: { title } };
    if (role !== undefined) this.roles[id] = role;
    return id;
  }
}

const out = (node: string, index = 0): Link => [node, index];

function encode(b: Builder, r: Recipe, clip: Link, text: string, text2: string | undefined, title: string, field: string): string {
  if (!r.sdxl || text2 === undefined) return b.add('CLIPTextEncode', title, { text, clip }, { field });
  // diffusers gives `prompt` to CLIP ViT-L and `prompt_2` to OpenCLIP bigG: ComfyUI's text_l and text_g.
  return b.add('CLIPTextEncodeSDXL', title, {
    clip, width: r.width, height: r.height, crop_w: 0, crop_h: 0, target_width: r.width, target_height: r.height,
    text_g: text2, text_l: text,
  }, { field });
}

/** LoadImage resized to the requested size, as the service resizes its input images. */
function loadScaled(b: Builder, r: Recipe, field: ImageField, title: string): { load: string; image: Link } {
  const load = b.add('LoadImage', title, { image: r.images[field] ?? '' }, { field });
  const scaled = b.add('ImageScale', `${title}, resized`, { image: out(load), upscale_method: 'lanczos', width: r.width, height: r.height, crop: 'disabled' }, { field });
  return { load, image: out(scaled) };
}

export function buildGraph(r: Recipe): ComfyGraph {
  const b = new Builder();
  const loads: Partial<Record<ImageField, string>> = {};
  const samplers: { node: string; steps: number }[] = [];

  const ckpt = b.add('CheckpointLoaderSimple', 'Checkpoint', { ckpt_name: r.checkpoint.file }, { field: 'checkpoint', fromSettings: r.checkpoint.fromSettings });
  let model = out(ckpt, 0);
  let clip = out(ckpt, 1);
  let vae = out(ckpt, 2);
  if (r.vae !== undefined) vae = out(b.add('VAELoader', 'VAE', { vae_name: r.vae }, { field: 'vae' }));
  for (const lora of r.loras) {
    const id = b.add('LoraLoader', `LoRA ${lora.file}`, { model, clip, lora_name: lora.file, strength_model: lora.weight, strength_clip: lora.weight }, { field: lora.field });
    model = out(id, 0);
    clip = out(id, 1);
  }

  let positive = out(encode(b, r, clip, r.prompt, r.prompt2, 'Prompt', 'prompt'));
  let negative = out(encode(b, r, clip, r.negative, r.negative2, 'Negative prompt', 'negative_prompt'));

  if (r.controlnet !== undefined) {
    const control = loadAsGiven(b, r);
    loads.controlnet_image = control.load;
    const map = r.controlnet.canny
      ? out(b.add('Canny', 'Canny edges of the control image', { image: control.image, low_threshold: 0.4, high_threshold: 0.8 }, { field: 'controlnet_preprocess' }))
      : control.image;
    const net = b.add('ControlNetLoader', 'ControlNet', { control_net_name: r.controlnet.file }, { field: 'controlnet' });
    const apply = b.add('ControlNetApplyAdvanced', 'Apply ControlNet', {
      positive, negative, control_net: out(net), image: map, strength: 1, start_percent: 0, end_percent: 1, vae,
    }, { field: 'controlnet' });
    positive = out(apply, 0);
    negative = out(apply, 1);
  }

  let latent: Link;
  if (r.init === undefined) {
    latent = out(b.add('EmptyLatentImage', 'Empty latent', { width: r.width, height: r.height, batch_size: r.batch }, { field: 'num_images' }));
  } else {
    const init = loadScaled(b, r, 'init_image', 'Init image');
    loads.init_image = init.load;
    latent = out(b.add('VAEEncode', 'Encode init image', { pixels: init.image, vae }, { field: 'init_image' }));
    if (r.batch > 1) latent = out(b.add('RepeatLatentBatch', 'Batch', { samples: latent, amount: r.batch }, { field: 'num_images' }));
    if (r.init.masked) {
      const mask = loadScaled(b, r, 'mask_image', 'Mask');
      loads.mask_image = mask.load;
      const asMask = b.add('ImageToMask', 'Mask from white', { image: mask.image, channel: 'red' }, { field: 'mask_image' });
      latent = out(b.add('SetLatentNoiseMask', 'Inpaint only the mask', { samples: latent, mask: out(asMask) }, { field: 'mask_image' }));
    }
  }

  const common = { cfg: r.cfg, sampler_name: r.sampler.sampler_name, scheduler: r.sampler.scheduler };
  let samples: Link;
  if (r.refiner === undefined) {
    const denoise = r.init?.denoise ?? 1;
    const id = b.add('KSampler', 'Sampler', { model, seed: r.seed, steps: r.steps, ...common, positive, negative, latent_image: latent, denoise }, { field: 'sampler' });
    samplers.push({ node: id, steps: r.steps });
    samples = out(id);
  } else {
    // The base starts where the input image's denoise begins; KSamplerAdvanced has no denoise input.
    const start = r.init === undefined ? 0 : Math.round(r.steps * (1 - r.init.denoise));
    const split = r.refiner.split;
    const base = b.add('KSamplerAdvanced', 'Base sampler', {
      model, add_noise: 'enable', noise_seed: r.seed, steps: r.steps, ...common, positive, negative, latent_image: latent,
      start_at_step: start, end_at_step: split, return_with_leftover_noise: 'enable',
    }, { field: 'high_noise_frac' });
    samplers.push({ node: base, steps: split - start });
    const refinerCkpt = b.add('CheckpointLoaderSimple', 'Refiner checkpoint', { ckpt_name: r.refiner.file }, { field: 'use_refiner', fromSettings: true });
    const rClip = out(refinerCkpt, 1);
    const refine = (text: string, ascore: number, title: string, field: string) => out(b.add('CLIPTextEncodeSDXLRefiner', title, {
      ascore, width: r.width, height: r.height, text, clip: rClip,
    }, { field }));
    // diffusers' refiner pipeline pairs its one encoder (bigG) with `prompt`, and scores 6 and 2.5.
    const rPositive = refine(r.prompt, 6, 'Refiner prompt', 'prompt');
    const rNegative = refine(r.negative, 2.5, 'Refiner negative prompt', 'negative_prompt');
    const refined = b.add('KSamplerAdvanced', 'Refiner sampler', {
      model: out(refinerCkpt, 0), add_noise: 'disable', noise_seed: r.seed, steps: r.steps, ...common, positive: rPositive, negative: rNegative,
      latent_image: out(base), start_at_step: split, end_at_step: 10000, return_with_leftover_noise: 'disable',
    }, { field: 'use_refiner' });
    samplers.push({ node: refined, steps: r.steps - split });
    samples = out(refined);
  }

  const decoded = b.add('VAEDecode', 'Decode', { samples, vae }, { field: 'vae' });
  const output = b.add('SaveImage', 'Save', { images: out(decoded), filename_prefix: FILENAME_PREFIX });
  return { prompt: b.prompt, roles: b.roles, loads, samplers, output };
}

/** The control image as given: ComfyUI fits the control map to the latent itself. */
function loadAsGiven(b: Builder, r: Recipe): { load: string; image: Link } {
  const load = b.add('LoadImage', 'Control image', { image: r.images.controlnet_image ?? '' }, { field: 'controlnet_image' });
  return { load, image: out(load) };
}
