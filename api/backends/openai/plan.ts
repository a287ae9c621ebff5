/**
 * The translation of one service request into OpenAI Images requests, found from the request alone
 * (no network, no decode): which endpoint, which form fields, how many requests, which images go
 * up, and for every field of the request whether it is sent, approximated, left out or makes the
 * request impossible. `review` returns the person-facing part; `generate` sends the plan.
 */
import type { EngineId } from '../../catalog';
import type { FieldIssue } from '../../issues';
import { imageDefaults, imageMode, type ImageMode, type ImageRequest } from '../../image-schema';
import { elideImage, elideImages } from '../elide';
import type { TranslationNote, TranslationReview } from '../types';
import { openaiDescription } from './describe';
import { checkImages, type UploadImage } from './plan-images';
import { buildPrompt } from './prompt-text';
import { listSizes, modelRules, nearestSize, sizeText, splitCount, type ModelRules } from './models';

export const GENERATIONS_PATH = '/v1/images/generations';
export const EDITS_PATH = '/v1/images/edits';

export interface OpenAIPlan {
  model: string;
  rules: ModelRules;
  mode: ImageMode;
  path: typeof GENERATIONS_PATH | typeof EDITS_PATH;
  /** Every field but `n` and the images, as sent. */
  fields: Record<string, string>;
  /** Images per request: one entry per request sent. */
  counts: number[];
  images: UploadImage[];
  mask?: { b64: string; format: 'png' | 'jpeg' };
}

const LABEL = openaiDescription.label;

/** Fields OpenAI Images has no counterpart for, with why, in a person's words. */
const NOT_SENT: Partial<Record<keyof ImageRequest, string>> = {
  negative_prompt: 'OpenAI Images has no negative prompt; it is left out',
  negative_prompt_2: 'OpenAI Images has no negative prompt; it is left out',
  seed: 'OpenAI Images takes no seed: each run draws new images, and the same seed will not repeat one',
  sampler: 'OpenAI Images chooses its own sampling; the sampler is left out',
  steps: 'OpenAI Images chooses its own number of steps; left out',
  cfg_scale: 'OpenAI Images has no guidance scale; left out',
  checkpoint: 'OpenAI Images runs its own model (the backend\'s model setting), not a checkpoint; left out',
  loras: 'OpenAI Images takes no LoRAs; left out',
  textual_inversions: 'OpenAI Images takes no textual inversions; left out',
  vae: 'OpenAI Images takes no VAE; left out',
  use_refiner: 'OpenAI Images has no refiner pass; left out',
  high_noise_frac: 'OpenAI Images has no refiner pass; left out',
  strength: 'OpenAI edits have no strength: the model decides how much of the input image to keep',
};

function notSentNotes(request: ImageRequest, mode: ImageMode): TranslationNote[] {
  const notes: TranslationNote[] = [];
  for (const [field, message] of Object.entries(NOT_SENT) as [keyof ImageRequest, string][]) {
    const value = request[field];
    // null seed is "random" and false refiner is "none": OpenAI does both already.
    if (value === undefined || value === null || value === false) continue;
    if (field === 'strength' && mode === 'text-to-image') continue;
    notes.push({ field, treatment: 'not-sent', message });
  }
  return notes;
}

function refusalOnly(request: ImageRequest, refusals: FieldIssue[], model: string): TranslationReview {
  return { backend: 'openai', label: LABEL, refusals, notes: [], translated: { model, refused: true, request: elideImages(request) } };
}

function controlNetRefusal(engine: EngineId, request: ImageRequest): FieldIssue | undefined {
  if (engine !== 'controlnet-sdxl' && request.controlnet === undefined) return undefined;
  return {
    path: request.controlnet === undefined ? 'engine' : 'controlnet',
    message: `${LABEL} has no ControlNet: it cannot follow a control image. Route the controlnet-sdxl engine to ComfyUI or AUTOMATIC1111 in the settings, or use an Image to image node`,
  };
}

function countNotes(rules: ModelRules, model: string, wanted: number, counts: number[]): TranslationNote[] {
  if (counts.length < 2) return [];
  const each = counts.every((c) => c === 1) ? 'one image each' : `at most ${rules.maxN ?? wanted} images each`;
  return [{ field: 'num_images', treatment: 'approximated', message: `${wanted} images are asked for in ${counts.length} requests of ${each}: ${model} makes ${rules.maxN === 1 ? 'one image' : `at most ${rules.maxN} images`} per request` }];
}

/** What will be sent for `request`, and what cannot be. */
export function planRequest(engine: EngineId, request: ImageRequest, model: string): { review: TranslationReview; plan: OpenAIPlan } {
  const rules = modelRules(model);
  const mode = imageMode(request);
  const controlNet = controlNetRefusal(engine, request);
  const empty: OpenAIPlan = { model, rules, mode, path: GENERATIONS_PATH, fields: {}, counts: [], images: [] };
  if (controlNet !== undefined) return { review: refusalOnly(request, [controlNet], model), plan: empty };

  const refusals: FieldIssue[] = [];
  const notes: TranslationNote[] = [];
  const prompt = buildPrompt(request, notes);
  if (prompt.trim() === '') refusals.push({ path: 'prompt', message: `is empty: ${LABEL} needs a prompt to draw from` });
  if (rules.promptChars !== undefined && prompt.length > rules.promptChars) {
    refusals.push({ path: 'prompt', message: `is ${prompt.length} characters as sent, over the ${rules.promptChars} ${model} takes` });
  }

  const images = checkImages(request, mode, rules, model, refusals, notes);

  const defaults = imageDefaults(engine);
  const wanted = { width: request.width ?? defaults.width, height: request.height ?? defaults.height };
  const size = nearestSize(rules, wanted);
  if (size.width !== wanted.width || size.height !== wanted.height) {
    notes.push({ field: 'width', treatment: 'approximated', message: `${sizeText(wanted)} becomes ${sizeText(size)}, the nearest size ${model} makes (it makes ${listSizes(rules)})` });
  }
  const total = request.num_images ?? defaults.num_images;
  const counts = splitCount(total, rules.maxN);
  notes.push(...countNotes(rules, model, total, counts));
  notes.push(...notSentNotes(request, mode));

  const fields: Record<string, string> = { model, prompt, size: `${size.width}x${size.height}` };
  if (rules.responseFormat) fields.response_format = 'b64_json';
  if (rules.outputFormat) fields.output_format = 'png';
  const path = mode === 'text-to-image' ? GENERATIONS_PATH : EDITS_PATH;
  const plan: OpenAIPlan = { model, rules, mode, path, fields, counts, images: images.uploads, ...(images.mask === undefined ? {} : { mask: images.mask }) };

  const body: Record<string, unknown> = { ...fields, n: counts[0] };
  if (plan.images.length === 1) body.image = elideImage(plan.images[0]!.b64);
  if (plan.images.length > 1) body['image[]'] = plan.images.map((i) => elideImage(i.b64));
  if (plan.mask !== undefined) body.mask = `mask_image ${elideImage(plan.mask.b64)} as a PNG whose transparent pixels mark where to paint`;
  const translated = {
    endpoint: `POST ${path}`,
    ...(path === EDITS_PATH ? { encoding: 'multipart/form-data' } : {}),
    body: elideImages(body),
    ...(counts.length > 1 ? { requests: counts.length, images_per_request: counts } : {}),
  };
  return { review: { backend: 'openai', label: LABEL, refusals, notes, translated }, plan };
}
