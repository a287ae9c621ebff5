/**
 * The translation of one service request into Gemini `generateContent` requests, found from the
 * request alone (no network, no decode): the body (`contents[0].parts` with the input images as
 * `inlineData` and the instruction as `text`; `generationConfig` with `responseModalities`,
 * `imageConfig` and `seed`), how many requests (the image models refuse `candidateCount` above 1,
 * "Multiple candidates is not enabled for this model", so each image is its own request), and for
 * every field whether it is sent, approximated, left out or makes the request impossible.
 *
 * Input images go as the base64 they already are: Gemini takes base64 in JSON, so nothing is
 * decoded or re-encoded; only their first bytes are read, for the MIME type.
 */
import type { EngineId } from '../../catalog';
import type { FieldIssue } from '../../issues';
import { imageDefaults, imageMode, type ImageMode, type ImageRequest } from '../../image-schema';
import { elideImage, elideImages } from '../elide';
import { base64Format, FORMAT_MIME, FORMAT_NAME } from '../openai/image-info';
import type { TranslationNote, TranslationReview } from '../types';
import { LABEL } from './label';
import { bareModelId, modelRules, nearestRatio, nearestSize, outputPixels, type ImageSize, type ModelRules } from './models';
import { buildInstruction } from './prompt';

/** Image types Gemini reads as input (image understanding guide: PNG, JPEG, WEBP, HEIC, HEIF). */
const INPUT_FORMATS = new Set(['png', 'jpeg', 'webp']);
/** A generateContent request with inline data may be 20 MB at most, all parts together. */
const MAX_REQUEST_BYTES = 20 * 1024 * 1024;

export type Part = { text: string } | { inlineData: { mimeType: string; data: string } };

export interface GeminiBody {
  contents: { role: 'user'; parts: Part[] }[];
  generationConfig: {
    responseModalities: ['IMAGE'];
    imageConfig: { aspectRatio: string; imageSize?: ImageSize };
    seed?: number;
  };
}

export interface GeminiPlan {
  model: string;
  rules: ModelRules;
  mode: ImageMode;
  path: string;
  body: GeminiBody;
  /** Requests to send, one image each. */
  count: number;
  size: ImageSize | undefined;
}

/** Fields Gemini has no counterpart for, with why. */
const NOT_SENT: Partial<Record<keyof ImageRequest, string>> = {
  negative_prompt: `${LABEL} has no negative prompt; it is left out (describe what you want instead)`,
  negative_prompt_2: `${LABEL} has no negative prompt; it is left out`,
  sampler: `${LABEL} chooses its own sampling; the sampler is left out`,
  steps: `${LABEL} chooses its own number of steps; left out`,
  cfg_scale: `${LABEL} has no guidance scale; left out`,
  checkpoint: `${LABEL} runs the model named in the settings, not a checkpoint; left out`,
  loras: `${LABEL} takes no LoRAs; left out`,
  textual_inversions: `${LABEL} takes no textual inversions; left out`,
  vae: `${LABEL} takes no VAE; left out`,
  use_refiner: `${LABEL} has no refiner pass; left out`,
  high_noise_frac: `${LABEL} has no refiner pass; left out`,
};

function notSentNotes(request: ImageRequest, mode: ImageMode): TranslationNote[] {
  const notes: TranslationNote[] = [];
  for (const [field, message] of Object.entries(NOT_SENT) as [keyof ImageRequest, string][]) {
    const value = request[field];
    if (value === undefined || value === null || value === false) continue;
    notes.push({ field, treatment: 'not-sent', message });
  }
  if (mode === 'text-to-image' && request.strength !== undefined) {
    notes.push({ field: 'strength', treatment: 'not-sent', message: 'applies to image to image only; left out' });
  }
  return notes;
}

function refusedReview(request: ImageRequest, refusals: FieldIssue[], model: string): TranslationReview {
  return { backend: 'google', label: LABEL, refusals, notes: [], translated: { model, refused: true, request: elideImages(request) } };
}

/** The image parts for the mode, each checked; a refusal names the field. */
function imageParts(request: ImageRequest, mode: ImageMode, rules: ModelRules, model: string, refusals: FieldIssue[], notes: TranslationNote[]): Part[] {
  const sources: [string, string][] = [];
  if (mode === 'image-to-image' || mode === 'inpainting') sources.push(['init_image', request.init_image!]);
  if (mode === 'inpainting') sources.push(['mask_image', request.mask_image!]);
  if (mode === 'subject-transfer') {
    for (const [word, list] of Object.entries(request.transfer_images ?? {})) list.forEach((b64, i) => sources.push([`transfer_images.${word}.${i}`, b64]));
    if (sources.length > rules.maxInputImages) {
      refusals.push({ path: 'transfer_images', message: `holds ${sources.length} sample images; ${model} takes at most ${rules.maxInputImages} images in one request` });
      return [];
    }
    if (sources.length > rules.bestInputImages) {
      notes.push({ field: 'transfer_images', treatment: 'approximated', message: `${sources.length} sample images are sent; Google says ${model} works best with up to ${rules.bestInputImages}` });
    }
  }
  let bytes = 0;
  const parts: Part[] = [];
  for (const [field, b64] of sources) {
    const format = base64Format(b64);
    if (format === undefined || !INPUT_FORMATS.has(format)) {
      refusals.push({ path: field, message: `is ${format === undefined ? 'not an image format Gemini reads' : `a ${FORMAT_NAME[format]}`}; ${LABEL} takes PNG, JPEG or WebP (save it as PNG first)` });
      continue;
    }
    bytes += b64.length;
    parts.push({ inlineData: { mimeType: FORMAT_MIME[format], data: b64 } });
  }
  if (bytes > MAX_REQUEST_BYTES) {
    refusals.push({ path: sources[0]![0], message: `the input images come to ${(bytes / 1024 / 1024).toFixed(1)} MB as sent; ${LABEL} takes requests of at most 20 MB` });
  }
  return parts;
}

function sizeNotes(request: ImageRequest, engine: EngineId, rules: ModelRules, model: string, notes: TranslationNote[]) {
  const defaults = imageDefaults(engine);
  const wanted = { width: request.width ?? defaults.width, height: request.height ?? defaults.height };
  const ratio = nearestRatio(rules, wanted);
  const size = nearestSize(rules, wanted, ratio);
  const out = outputPixels(ratio, size);
  if (out.width !== wanted.width || out.height !== wanted.height) {
    const sizeWords = size === undefined ? `${model} makes one size per ratio` : `image size ${size}`;
    notes.push({ field: 'width', treatment: 'approximated', message: `${wanted.width}×${wanted.height} is sent as aspect ratio ${ratio.name}, ${sizeWords}: ${model} makes ${out.width}×${out.height} (it takes ratios ${rules.ratios.map((r) => r.name).join(', ')}${rules.sizes.length > 0 ? `; sizes ${rules.sizes.join(', ')}` : ''})` });
  }
  return { ratio, size };
}

/** `generationConfig.seed` is an int32; the service's seeds go up to 2^32 − 1. */
function int32(seed: number): number {
  return seed >= 2 ** 31 ? seed - 2 ** 32 : seed;
}

/** What will be sent for `request` on `model`, and what cannot be. */
export function planRequest(engine: EngineId, request: ImageRequest, model: string): { review: TranslationReview; plan: GeminiPlan } {
  const id = bareModelId(model);
  const rules = modelRules(id);
  const mode = imageMode(request);
  const path = `/v1beta/models/${encodeURIComponent(id)}:generateContent`;
  const empty: GeminiPlan = { model: id, rules, mode, path, body: { contents: [], generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '1:1' } } }, count: 0, size: undefined };
  if (rules.family === 'not-image') {
    const imagen = /^imagen/.test(id) ? ': Imagen on the Gemini API was shut down in August 2026 and answers a different route' : '';
    return { review: refusedReview(request, [{ path: 'model', message: `${id} (the backend's model setting for ${engine}) is not a Gemini image model${imagen}; set it to gemini-2.5-flash-image or another id ending in -image` }], id), plan: empty };
  }
  if (mode === 'controlnet' || engine === 'controlnet-sdxl') {
    return { review: refusedReview(request, [{ path: request.controlnet === undefined ? 'engine' : 'controlnet', message: `${LABEL} has no ControlNet: it cannot follow a control image. Route the controlnet-sdxl engine to ComfyUI or AUTOMATIC1111 in the settings, or use an Image to image node` }], id), plan: empty };
  }

  const refusals: FieldIssue[] = [];
  const notes: TranslationNote[] = [];
  const defaults = imageDefaults(engine);
  const instruction = buildInstruction(request, mode, request.strength ?? defaults.strength, notes);
  if (instruction.trim() === '') refusals.push({ path: 'prompt', message: `is empty: ${LABEL} needs a prompt to draw from` });
  const parts = imageParts(request, mode, rules, id, refusals, notes);
  const { ratio, size } = sizeNotes(request, engine, rules, id, notes);
  const count = request.num_images ?? defaults.num_images;
  if (count > 1) notes.push({ field: 'num_images', treatment: 'approximated', message: `${count} images are asked for in ${count} requests of one image each, each billed: ${LABEL} makes one image per request` });
  const seed = request.seed === undefined || request.seed === null ? undefined : int32(request.seed);
  if (seed !== undefined) {
    const as = seed === request.seed ? '' : ` as ${seed} (the same 32 bits as a signed number, which is what the API takes)`;
    notes.push({ field: 'seed', treatment: 'approximated', message: `is sent as generationConfig.seed${as}${count > 1 ? ', the same for every request' : ''}; Google does not promise the same picture for the same seed` });
  }
  notes.push(...notSentNotes(request, mode));

  const body: GeminiBody = {
    contents: [{ role: 'user', parts: [...parts, { text: instruction }] }],
    generationConfig: {
      responseModalities: ['IMAGE'],
      imageConfig: { aspectRatio: ratio.name, ...(size === undefined ? {} : { imageSize: size }) },
      ...(seed === undefined ? {} : { seed }),
    },
  };
  const plan: GeminiPlan = { model: id, rules, mode, path, body, count, size };
  const shown = { ...body, contents: [{ role: 'user', parts: body.contents[0]!.parts.map((p) => ('inlineData' in p ? { inlineData: { mimeType: p.inlineData.mimeType, data: elideImage(p.inlineData.data) } } : p)) }] };
  const translated = { endpoint: `POST ${path}`, body: shown, ...(count > 1 ? { requests: count } : {}) };
  return { review: { backend: 'google', label: LABEL, refusals, notes, translated }, plan };
}

