/**
 * One service request as fal requests, found from the request alone (no network, no decode): the
 * endpoint for its mode, the input fields, the images that go with it, how many requests its
 * num_images takes, and for every field whether it is sent, approximated, left out, or makes the
 * request impossible. `review` returns the person-facing part; `generate` sends the plan.
 */
import type { EngineId } from '../../catalog';
import { imageMode, type ImageRequest } from '../../image-schema';
import type { FieldIssue } from '../../issues';
import { backendAssetName, type BackendNamesConfig } from '../config';
import { elideImages } from '../elide';
import { composePrompts, leftOut, modeRefusal, splitCount, wantedSize, within } from '../hosted/common';
import { describeInput } from '../hosted/data-uri';
import type { TranslationNote, TranslationReview } from '../types';
import { FAL_LABEL } from './describe';
import { falModel, LORA_CHECKPOINTS, LORA_SCHEDULERS, type FalModel } from './models';

/** An input image and the fal field it goes in. */
export interface FalImage {
  source: 'init_image' | 'mask_image' | 'controlnet_image';
  field: 'image_url' | 'mask_url' | 'control_image_url';
  b64: string;
}

export interface FalPlan {
  model: FalModel;
  endpoint: string;
  /** Every input field but the images, as sent. */
  input: Record<string, unknown>;
  images: FalImage[];
  /** Images per request: one entry per request. */
  counts: number[];
}

const DEFAULTS = { cfg: 12, steps: 30, sampler: 'DDIM' } as const;

/** The families whose endpoints take `loras` (FluxDevInput has none: that is fal-ai/flux-lora). */
const LORA_FAMILIES = new Set(['sdxl', 'sdxl-controlnet', 'diffusers', 'sd35']);

function notSentTable(model: FalModel): Partial<Record<keyof ImageRequest, string>> {
  const who = model.who;
  return {
    textual_inversions: `${who}: textual inversions are not sent (fal loads embeddings by URL only); left out`,
    vae: `${who} runs its own VAE; left out`,
    use_refiner: `${who} has no refiner pass; left out`,
    high_noise_frac: `${who} has no refiner pass; left out`,
    ...(model.family === 'diffusers' ? {} : { checkpoint: `${who} runs its own checkpoint (the backend's model setting); left out` }),
    ...(model.family === 'diffusers' ? {} : { sampler: `${who} chooses its own sampler; left out` }),
  };
}

/** LoRAs whose asset mapping names a URL are sent (fal loads LoRA weights by URL); others are said. */
function loras(request: ImageRequest, names: BackendNamesConfig | undefined, model: FalModel, notes: TranslationNote[]): { path: string; scale: number }[] | undefined {
  if (request.loras === undefined) return undefined;
  const sent: { path: string; scale: number }[] = [];
  for (const [name, scale] of Object.entries(request.loras)) {
    const path = backendAssetName(names, name);
    if (/^https:\/\//.test(path) && LORA_FAMILIES.has(model.family)) sent.push({ path, scale });
    else notes.push({ field: `loras.${name}`, treatment: 'not-sent', message: `${model.who} loads LoRA weights from a URL: map '${name}' to the weights' https URL in this backend's assets setting to send it` });
  }
  return sent.length === 0 ? undefined : sent;
}

function refusals(engine: EngineId, request: ImageRequest, model: FalModel, endpoint: string | undefined): FieldIssue[] {
  const mode = imageMode(request);
  if (request.transfer_images !== undefined) {
    return [{ path: 'transfer_images', message: `no ${FAL_LABEL} model here carries a subject from sample images (subject transfer): route this engine to another backend` }];
  }
  if (endpoint === undefined) {
    const hint = mode === 'controlnet'
      ? 'choose fal-ai/fast-sdxl-controlnet-canny as this engine\'s model in Settings'
      : mode === 'text-to-image' ? `choose a text-to-image model for ${engine}` : 'choose fal-ai/fast-sdxl or fal-ai/lora as this engine\'s model in Settings';
    return [modeRefusal(mode, model.who, hint)];
  }
  if (mode === 'controlnet' && request.controlnet !== undefined && !/canny/i.test(request.controlnet)) {
    return [{ path: 'controlnet', message: `${model.who} follows canny edges only; '${request.controlnet}' is not a canny ControlNet` }];
  }
  if (mode === 'controlnet' && request.controlnet_image === undefined) {
    return [{ path: 'controlnet_image', message: `is required: ${model.who} needs the control image` }];
  }
  return [];
}

function addSize(engine: EngineId, request: ImageRequest, input: Record<string, unknown>, text: boolean, notes: TranslationNote[]): void {
  if (text) {
    input.image_size = wantedSize(engine, request);
  } else if (request.width !== undefined || request.height !== undefined) {
    notes.push({ field: 'width', treatment: 'not-sent', message: 'fal makes the picture the input image\'s size; width and height are left out' });
  }
}

function addSampling(request: ImageRequest, model: FalModel, input: Record<string, unknown>, notes: TranslationNote[]): void {
  const steps = request.steps ?? (model.serviceDefaults ? DEFAULTS.steps : undefined);
  if (steps !== undefined) input.num_inference_steps = model.steps === undefined ? steps : within(steps, model.steps[0], model.steps[1], 'steps', 'num_inference_steps', model.who, notes);
  const cfg = request.cfg_scale ?? (model.serviceDefaults ? DEFAULTS.cfg : undefined);
  if (cfg !== undefined && model.family !== 'flux-schnell' && model.family !== 'other') {
    input.guidance_scale = model.guidance === undefined ? cfg : within(cfg, model.guidance[0], model.guidance[1], 'cfg_scale', 'guidance_scale', model.who, notes);
    if (model.family === 'flux-dev') notes.push({ field: 'cfg_scale', treatment: 'approximated', message: `is sent as FLUX's guidance_scale, a distilled guidance: the same number weighs differently than classifier-free guidance (FLUX's own default is 3.5)` });
  } else if (request.cfg_scale !== undefined) {
    notes.push({ field: 'cfg_scale', treatment: 'not-sent', message: `${model.who} takes no guidance scale; left out` });
  }
  if (model.family === 'diffusers') {
    const sampler = request.sampler ?? DEFAULTS.sampler;
    const mapped = LORA_SCHEDULERS[sampler];
    input.scheduler = mapped.name;
    if (!mapped.exact) notes.push({ field: 'sampler', treatment: 'approximated', message: `${sampler} becomes '${mapped.name}', the nearest scheduler fal-ai/lora has` });
  }
}

/** What will be sent for `request` on `modelId`, and what cannot be. */
export function planFal(engine: EngineId, request: ImageRequest, modelId: string, names?: BackendNamesConfig): { review: TranslationReview; plan: FalPlan } {
  const model = falModel(modelId);
  const mode = imageMode(request);
  const endpoint = model.endpoints[mode];
  const notes: TranslationNote[] = [];
  const refused = refusals(engine, request, model, endpoint);
  const empty: FalPlan = { model, endpoint: endpoint ?? model.id, input: {}, images: [], counts: [] };
  if (refused.length > 0 || endpoint === undefined) {
    return { review: { backend: 'fal', label: FAL_LABEL, refusals: refused, notes, translated: { model: model.id, refused: true, request: elideImages(request) } }, plan: empty };
  }
  if (model.family === 'other') notes.push({ field: 'engine', treatment: 'approximated', message: `${model.id} is not in Atelier's table of fal models: it is sent the fields fal's text-to-image models share (prompt, image_size, num_images, seed), which it may not all take` });

  const { prompt, negative } = composePrompts(request, model, notes);
  const input: Record<string, unknown> = { prompt };
  if (negative !== undefined && negative !== '') input.negative_prompt = negative;
  if (model.weights) input.prompt_weighting = true;
  if (model.family === 'diffusers') {
    input.model_name = request.checkpoint === undefined ? LORA_CHECKPOINTS[engine] : backendAssetName(names, request.checkpoint);
  }
  addSize(engine, request, input, mode === 'text-to-image' || mode === 'controlnet', notes);
  addSampling(request, model, input, notes);
  if (request.seed !== undefined && request.seed !== null) input.seed = request.seed;
  const sentLoras = loras(request, names, model, notes);
  if (sentLoras !== undefined) input.loras = sentLoras;

  const images: FalImage[] = [];
  if (mode === 'image-to-image' || mode === 'inpainting') {
    images.push({ source: 'init_image', field: 'image_url', b64: request.init_image! });
    const strength = request.strength ?? 0.8;
    if (model.family === 'diffusers') input.noise_strength = strength;
    else input.strength = strength;
  } else if (request.strength !== undefined) {
    notes.push({ field: 'strength', treatment: 'not-sent', message: 'only used with init_image, as by the service' });
  }
  if (mode === 'inpainting') images.push({ source: 'mask_image', field: 'mask_url', b64: request.mask_image! });
  if (mode === 'controlnet') {
    images.push({ source: 'controlnet_image', field: 'control_image_url', b64: request.controlnet_image! });
    notes.push({ field: 'controlnet_preprocess', treatment: 'approximated', message: 'fal\'s canny endpoint takes the control image as given and finds its edges with its own thresholds' });
  }
  leftOut(request, notSentTable(model), notes);

  input.enable_safety_checker = true;
  input[model.formatField] = 'png';
  if (model.syncMode) input.sync_mode = true;

  const total = request.num_images ?? 1;
  const counts = splitCount(total, model.maxImages);
  if (counts.length > 1) notes.push({ field: 'num_images', treatment: 'approximated', message: `${total} images are asked for in ${counts.length} requests: ${model.who} makes at most ${model.maxImages} per request` });
  const shown: Record<string, unknown> = { ...input, num_images: counts[0] };
  for (const image of images) shown[image.field] = describeInput(image.source, image.b64);
  const translated = { endpoint: `POST /${endpoint}`, input: shown, ...(counts.length > 1 ? { requests: counts.length, images_per_request: counts } : {}) };
  return { review: { backend: 'fal', label: FAL_LABEL, refusals: [], notes, translated }, plan: { model, endpoint, input, images, counts } };
}
