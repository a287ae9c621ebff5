/**
 * Turns an image node's parameters and input images into the API request, checks it with the
 * API's own validator (issues named by the node's parameters and ports), and runs it.
 * Images stay base64 from input to request and from response to output.
 */
import { ENGINE_LABEL, ENGINES, isPublicAsset, isSdxlEngine, type EngineId } from '../api/catalog';
import { imageDefaults, validateImageRequest, type ImageRequest } from '../api/image';
import { ParamIssuesError } from './errors';
import { toParamIssues } from './field-params';
import type { AnyImageParams } from './image-params';
import type { ImageData, ParamIssue, RunContext, Value } from './types';
import { imageMime, imageValue, imagesValue } from './values';

/** The images an image node puts into its request, as base64. */
export interface RequestImages {
  init_image?: string;
  mask_image?: string;
  controlnet_image?: string;
  /** Sample images for subject transfer; sent under the node's trigger word. */
  samples?: string[];
}

/** The node's engine, checked again because params merged from ports bypass the form. */
export function engineOf(p: AnyImageParams): EngineId {
  if (!(ENGINES as readonly string[]).includes(p.engine)) throw new ParamIssuesError([{ param: 'engine', message: `unknown engine '${p.engine}'` }]);
  return p.engine;
}

const nonEmpty = (s: string | undefined): s is string => s !== undefined && s !== '';
const hasKeys = <T extends object>(o: T | undefined): o is T => o !== undefined && Object.keys(o).length > 0;

/**
 * The request body for the node's engine: only the fields that apply, in the order of the
 * interface's table. SDXL-only fields never go to `sd`; `high_noise_frac` goes only with the
 * refiner, whose split it sets; a random seed is left out here (`runImageRequest` picks one).
 */
export function buildImageRequest(p: AnyImageParams, images: RequestImages): ImageRequest {
  const engine = engineOf(p);
  const sdxl = isSdxlEngine(engine);
  const fallback = imageDefaults(engine);
  const request: ImageRequest = { prompt: p.prompt };
  if (sdxl && nonEmpty(p.prompt_2)) request.prompt_2 = p.prompt_2;
  if (nonEmpty(p.negative_prompt)) request.negative_prompt = p.negative_prompt;
  if (sdxl && nonEmpty(p.negative_prompt_2)) request.negative_prompt_2 = p.negative_prompt_2;
  request.sampler = p.sampler;
  if (p.width === undefined && p.height === undefined) {
    request.height = fallback.height;
    request.width = fallback.width;
  } else {
    // A lone width or height is sent as set, so the validator reports the missing half.
    if (p.height !== undefined) request.height = p.height;
    if (p.width !== undefined) request.width = p.width;
  }
  request.cfg_scale = p.cfg_scale;
  request.steps = p.steps;
  request.num_images = p.num_images;
  if (p.seed !== null) request.seed = p.seed;
  if (sdxl) {
    request.use_refiner = p.use_refiner;
    if (p.use_refiner) request.high_noise_frac = p.high_noise_frac;
  }
  if (nonEmpty(p.checkpoint)) request.checkpoint = p.checkpoint;
  if (hasKeys(p.loras)) request.loras = p.loras;
  if (hasKeys(p.textual_inversions)) request.textual_inversions = p.textual_inversions;
  if (nonEmpty(p.vae)) request.vae = p.vae;
  if (sdxl && p.style_preset !== undefined) request.style_preset = p.style_preset;
  if (images.init_image !== undefined) request.init_image = images.init_image;
  if (images.init_image !== undefined && p.strength !== undefined) request.strength = p.strength;
  if (images.mask_image !== undefined) request.mask_image = images.mask_image;
  if (images.samples !== undefined && p.trigger_word !== undefined) request.transfer_images = { [p.trigger_word]: images.samples };
  if (p.controlnet !== undefined) {
    request.controlnet = p.controlnet;
    // Preprocessing is a public-checkpoint feature; a private checkpoint always takes the map as given.
    if (isPublicAsset(p.controlnet) && p.controlnet_preprocess !== undefined) request.controlnet_preprocess = p.controlnet_preprocess;
  }
  if (images.controlnet_image !== undefined) request.controlnet_image = images.controlnet_image;
  return request;
}

/** Stand-in for a connected image: valid base64 with a JPEG signature, never sent anywhere. */
const PLACEHOLDER_IMAGE = '/9j/4AAQSkZJRg==';

/**
 * Problems the API would report for this node's request, found before a run. Connected image
 * ports get a stand-in image; a prompt, negative prompt or seed that arrives through its port is
 * not judged by the form's value (it is checked again at run time, with the real value).
 */
export function imageParamIssues(p: AnyImageParams, imagePorts: RequestImages, connected: ReadonlySet<string>): ParamIssue[] {
  const { engine, request } = standInRequest(p, imagePorts, connected);
  const result = validateImageRequest(engine, request);
  return result.ok ? [] : toParamIssues(result.issues);
}

/**
 * The request the node will send, as far as it can be known before a run: connected images are
 * stand-ins and values that arrive through ports are left out (or, for the prompt, the trigger
 * word the real one must hold). What a backend's review and the API's validator judge.
 */
export function standInRequest(p: AnyImageParams, imagePorts: RequestImages, connected: ReadonlySet<string>): { engine: EngineId; request: ImageRequest } {
  const stand = {
    ...p,
    // The stand-in prompt names the trigger word, as the real one must; it is never empty, so a
    // backend that needs a prompt does not refuse one that has yet to arrive.
    prompt: connected.has('prompt') ? (p.trigger_word ?? 'the prompt from its input') : p.prompt,
    negative_prompt: connected.has('negative_prompt') ? undefined : p.negative_prompt,
    seed: connected.has('seed') ? null : p.seed,
  };
  return { engine: engineOf(stand), request: buildImageRequest(stand, imagePorts) };
}

export function placeholderImages(...fields: (keyof RequestImages)[]): RequestImages {
  const images: RequestImages = {};
  for (const field of fields) {
    if (field === 'samples') images.samples = [PLACEHOLDER_IMAGE];
    else images[field] = PLACEHOLDER_IMAGE;
  }
  return images;
}

/**
 * Sends the node's request and returns its outputs: `image` (the first) and `images` (all),
 * each with its mime type read from the bytes, its size, and the seed that made it.
 */
export async function runImageRequest(p: AnyImageParams, images: RequestImages, ctx: RunContext): Promise<Record<string, Value>> {
  const engine = engineOf(p);
  // A random seed is chosen here and sent, so the seed that made the image is known for sure;
  // chosen before the request is built, so that it sits where a fixed seed would and the request
  // is the same, byte for byte, when that seed is pinned and run again.
  const request = buildImageRequest(p.seed === null ? { ...p, seed: ctx.randomSeed() } : p, images);
  const checked = validateImageRequest(engine, request);
  if (!checked.ok) throw new ParamIssuesError(toParamIssues(checked.issues));
  const { width, height } = checked.value;

  ctx.progress(0, `generating on ${ENGINE_LABEL[engine]}`);
  // A backend that counts its steps (ComfyUI, AUTOMATIC1111) says how far along it is.
  const response = await ctx.api.image.generate(engine, request, { signal: ctx.signal, onProgress: (fraction, message) => ctx.progress(fraction, message) });
  if (response.images.length === 0) throw new Error(`the ${engine} engine answered with no images`);
  const madeOn = serverLabel(response);
  const made: ImageData[] = response.images.map((generated, index) => {
    // The seed sent made the first image; what seeds the others used only the service can say.
    const seed = generated.seed ?? (index === 0 ? request.seed ?? undefined : undefined);
    return {
      b64: generated.image_b64,
      mime: imageMime(generated.image_b64) ?? 'application/octet-stream',
      ...(seed === undefined ? {} : { seed }),
      width,
      height,
      ...(madeOn === undefined ? {} : { madeOn }),
    };
  });
  ctx.progress(1);
  return { image: imageValue(made[0]!), images: imagesValue(made) };
}

/** Labels are at most this long (api/backends/pool/servers.ts): anything longer is not one. */
const MAX_LABEL = 60;

/** The label of the pool server that answered (a pool's response names it as `server`), if any. */
/** The label of the pool's server that made `response`, when it says one (bounded; labels only). */
export function serverLabel(response: object): string | undefined {
  const server = (response as { server?: unknown }).server;
  return typeof server === 'string' && server !== '' && server.length <= MAX_LABEL ? server : undefined;
}

/** The base64 of a connected image input, or a clear error naming the input. */
export function requireImage(inputs: Readonly<Record<string, Value | undefined>>, port: string): string {
  const value = inputs[port];
  if (value?.kind === 'image') return value.value.b64;
  if (value?.kind === 'images' && value.value[0] !== undefined) return value.value[0].b64;
  throw new Error(`input '${port}' needs an image and none arrived`);
}
