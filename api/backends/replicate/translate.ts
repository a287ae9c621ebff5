/**
 * One service request as Replicate predictions, found from the request alone (no network, no
 * decode): the model and version, the `input` fields, the images that go with it, how many
 * predictions its num_images takes, and for every field whether it is sent, approximated, left
 * out, or makes the request impossible.
 */
import type { EngineId } from '../../catalog';
import { imageMode, type ImageMode, type ImageRequest } from '../../image-schema';
import type { FieldIssue } from '../../issues';
import { elideImages } from '../elide';
import { composePrompts, leftOut, modeRefusal, splitCount, wantedSize, within } from '../hosted/common';
import { describeInput } from '../hosted/data-uri';
import type { TranslationNote, TranslationReview } from '../types';
import { REPLICATE_LABEL } from './describe';
import { modelRefProblem, nearestAspect, replicateModel, SD_SCHEDULERS, SDXL_SCHEDULERS, type ReplicateModel } from './models';

export interface ReplicateImage {
  source: 'init_image' | 'mask_image' | 'controlnet_image';
  field: 'image' | 'mask';
  b64: string;
}

export interface ReplicatePlan {
  model: ReplicateModel;
  input: Record<string, unknown>;
  images: ReplicateImage[];
  counts: number[];
}

const DEFAULTS = { cfg: 12, steps: 30, sampler: 'DDIM' } as const;
const SD_FAMILIES = new Set(['sdxl', 'sd', 'sdxl-controlnet']);

function refusals(request: ImageRequest, model: ReplicateModel, mode: ImageMode, setting: string): FieldIssue[] {
  const bad = modelRefProblem(setting);
  if (bad !== undefined) return [{ path: 'engine', message: `${bad} (the backend's model setting)` }];
  if (request.transfer_images !== undefined) return [{ path: 'transfer_images', message: `no ${REPLICATE_LABEL} model here carries a subject from sample images (subject transfer): route this engine to another backend` }];
  if (!model.modes.includes(mode)) {
    const hint = mode === 'controlnet' ? 'choose lucataco/sdxl-controlnet as this engine\'s model in Settings'
      : mode === 'inpainting' ? 'choose stability-ai/sdxl as this engine\'s model in Settings'
        : 'choose stability-ai/sdxl or black-forest-labs/flux-dev as this engine\'s model in Settings';
    return [modeRefusal(mode, model.who, hint)];
  }
  if (mode === 'controlnet' && request.controlnet !== undefined && !/canny/i.test(request.controlnet)) {
    return [{ path: 'controlnet', message: `${model.who} follows canny edges only; '${request.controlnet}' is not a canny ControlNet` }];
  }
  if (mode === 'controlnet' && request.controlnet_image === undefined) return [{ path: 'controlnet_image', message: `is required: ${model.who} needs the control image` }];
  return [];
}

function notSentTable(model: ReplicateModel): Partial<Record<keyof ImageRequest, string>> {
  const who = model.who;
  return {
    checkpoint: `${who} runs its own weights (the backend's model setting); left out`,
    loras: `${who} takes no LoRA names; left out`,
    textual_inversions: `${who} takes no textual inversions; left out`,
    vae: `${who} runs its own VAE; left out`,
    ...(model.family === 'sdxl' ? {} : { use_refiner: `${who} has no refiner pass; left out`, high_noise_frac: `${who} has no refiner pass; left out` }),
    ...(model.family === 'sdxl' || model.family === 'sd' ? {} : { sampler: `${who} chooses its own sampler; left out` }),
  };
}

/** Size: width and height where the model takes them, else the nearest aspect ratio. */
function addSize(engine: EngineId, request: ImageRequest, model: ReplicateModel, mode: ImageMode, input: Record<string, unknown>, notes: TranslationNote[]): void {
  const { width, height } = wantedSize(engine, request);
  const asked = request.width !== undefined || request.height !== undefined;
  if (model.family === 'sdxl' && mode === 'text-to-image') Object.assign(input, { width, height });
  else if (model.family === 'sd') {
    // stability-ai/stable-diffusion takes 64 to 1024 in steps of 64.
    const snap = (v: number) => Math.min(1024, Math.max(64, Math.round(v / 64) * 64));
    Object.assign(input, { width: snap(width), height: snap(height) });
    if (snap(width) !== width || snap(height) !== height) notes.push({ field: 'width', treatment: 'approximated', message: `${width}×${height} becomes ${snap(width)}×${snap(height)}: ${model.who} takes sides of 64 to 1024 in steps of 64` });
  } else if ((model.family === 'flux-dev' || model.family === 'flux-schnell' || model.family === 'sd35') && mode === 'text-to-image') {
    const { ratio, exact } = nearestAspect(width, height);
    input.aspect_ratio = ratio;
    notes.push({ field: 'width', treatment: 'approximated', message: `${width}×${height} is sent as aspect_ratio ${ratio}${exact ? '' : ' (the nearest it takes)'}: ${model.who} makes about a megapixel in that shape, not the exact size` });
  } else if (asked) {
    notes.push({ field: 'width', treatment: 'not-sent', message: `${model.who} makes the picture from the input image's size; width and height are left out` });
  }
}

function addSampling(request: ImageRequest, model: ReplicateModel, input: Record<string, unknown>, notes: TranslationNote[]): void {
  const sd = SD_FAMILIES.has(model.family);
  const steps = request.steps ?? (sd ? DEFAULTS.steps : undefined);
  if (steps !== undefined && model.family !== 'other') {
    const field = model.family === 'sd35' ? 'steps' : 'num_inference_steps';
    input[field] = model.family === 'flux-schnell' ? within(steps, 1, 4, 'steps', field, model.who, notes)
      : model.family === 'flux-dev' ? within(steps, 1, 50, 'steps', field, model.who, notes) : steps;
  }
  const cfg = request.cfg_scale ?? (sd ? DEFAULTS.cfg : undefined);
  if (cfg !== undefined && (model.family === 'sdxl' || model.family === 'sd')) {
    input.guidance_scale = model.family === 'sd' ? within(cfg, 1, 20, 'cfg_scale', 'guidance_scale', model.who, notes) : within(cfg, 1, 50, 'cfg_scale', 'guidance_scale', model.who, notes);
  } else if (request.cfg_scale !== undefined && model.family === 'flux-dev') {
    input.guidance = within(request.cfg_scale, 0, 10, 'cfg_scale', 'guidance', model.who, notes);
    notes.push({ field: 'cfg_scale', treatment: 'approximated', message: "is sent as FLUX's guidance, a distilled guidance: the same number weighs differently than classifier-free guidance (FLUX's own default is 3)" });
  } else if (request.cfg_scale !== undefined && model.family === 'sd35') {
    input.cfg = request.cfg_scale;
  } else if (request.cfg_scale !== undefined) {
    notes.push({ field: 'cfg_scale', treatment: 'not-sent', message: `${model.who} takes no guidance scale; left out` });
  }
  if (model.family === 'sdxl' || model.family === 'sd') {
    const sampler = request.sampler ?? DEFAULTS.sampler;
    const mapped = (model.family === 'sdxl' ? SDXL_SCHEDULERS : SD_SCHEDULERS)[sampler];
    input.scheduler = mapped.name;
    if (!mapped.exact) notes.push({ field: 'sampler', treatment: 'approximated', message: `${sampler} becomes '${mapped.name}', the nearest scheduler ${model.who} has` });
  }
}

function addRefiner(request: ImageRequest, model: ReplicateModel, input: Record<string, unknown>): void {
  if (model.family !== 'sdxl' || request.use_refiner !== true) return;
  // Replicate's SDXL: the base makes the first high_noise_frac of the steps, the refiner the rest.
  input.refine = 'expert_ensemble_refiner';
  input.high_noise_frac = request.high_noise_frac ?? 0.8;
}

/** What will be sent for `request` on the model `setting` names, and what cannot be. */
export function planReplicate(engine: EngineId, request: ImageRequest, setting: string): { review: TranslationReview; plan: ReplicatePlan } {
  const model = replicateModel(setting);
  const mode = imageMode(request);
  const refused = refusals(request, model, mode, setting);
  if (refused.length > 0) {
    return { review: { backend: 'replicate', label: REPLICATE_LABEL, refusals: refused, notes: [], translated: { model: setting, refused: true, request: elideImages(request) } }, plan: { model, input: {}, images: [], counts: [] } };
  }
  const notes: TranslationNote[] = [];
  if (model.family === 'other') notes.push({ field: 'engine', treatment: 'approximated', message: `${model.ref} is not in Atelier's table of Replicate models: it is sent the prompt and the seed only` });
  if (model.family === 'sd' && engine === 'sd') notes.push({ field: 'engine', treatment: 'approximated', message: `${model.ref} runs Stable Diffusion 2.1, Replicate's own Stable Diffusion, not 1.5: for SD 1.5 itself, name a community SD 1.5 model as this engine's model` });
  const { prompt, negative } = composePrompts(request, { negative: SD_FAMILIES.has(model.family), weights: false, who: model.who }, notes);
  const input: Record<string, unknown> = { prompt };
  if (negative !== undefined && negative !== '') input.negative_prompt = negative;
  if (model.family !== 'other') {
    addSize(engine, request, model, mode, input, notes);
    addSampling(request, model, input, notes);
    addRefiner(request, model, input);
  }
  if (request.seed !== undefined && request.seed !== null) input.seed = request.seed;

  const images: ReplicateImage[] = [];
  if (mode === 'image-to-image' || mode === 'inpainting') {
    images.push({ source: 'init_image', field: 'image', b64: request.init_image! });
    input.prompt_strength = request.strength ?? 0.8;
  } else if (request.strength !== undefined) {
    notes.push({ field: 'strength', treatment: 'not-sent', message: 'only used with init_image, as by the service' });
  }
  if (mode === 'inpainting') images.push({ source: 'mask_image', field: 'mask', b64: request.mask_image! });
  if (mode === 'controlnet') {
    images.push({ source: 'controlnet_image', field: 'image', b64: request.controlnet_image! });
    notes.push({ field: 'controlnet_preprocess', treatment: 'approximated', message: `${model.who} finds the canny edges of the control image itself, with its own thresholds` });
  }
  leftOut(request, notSentTable(model), notes);
  if (model.family === 'flux-dev' || model.family === 'flux-schnell' || model.family === 'sd35') input.output_format = 'png';

  const total = request.num_images ?? 1;
  const counts = splitCount(total, model.maxImages);
  if (model.maxImages > 1) input.num_outputs = counts[0];
  if (counts.length > 1) notes.push({ field: 'num_images', treatment: 'approximated', message: `${total} images are asked for in ${counts.length} predictions: ${model.who} makes at most ${model.maxImages} per prediction` });
  const shown: Record<string, unknown> = { ...input };
  for (const image of images) shown[image.field] = describeInput(image.source, image.b64);
  const route = model.version === undefined ? `POST /v1/models/${model.ref}/predictions` : 'POST /v1/predictions';
  const translated = { endpoint: route, ...(model.version === undefined ? {} : { version: model.version }), input: shown, ...(counts.length > 1 ? { predictions: counts.length, images_per_prediction: counts } : {}) };
  return { review: { backend: 'replicate', label: REPLICATE_LABEL, refusals: [], notes, translated }, plan: { model, input, images, counts } };
}
