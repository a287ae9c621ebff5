/**
 * The local image engine: an offline STAND-IN for `POST /generate/{sdxl,sd,controlnet-sdxl}`.
 * There is no diffusion model here. Pictures are painted procedurally from the request so that
 * what it asks for is visible and measurable: words become a scene (sky, ground, light, palette,
 * objects; prompt-field.ts), weights scale them, the negative prompt pushes its colours away,
 * cfg_scale sets how hard colour and contrast follow the prompt, few steps leave noise and
 * blotches, each style preset has its own look, img2img and inpainting blend with the input by
 * strength and mask, ControlNet follows the edges, depth or pose of its control map (computed
 * for real where the service would), and subject transfer carries the sample images in.
 * The same request and seed always give the same JPEG bytes.
 */
import { type ImageResponse, type ResolvedImageRequest } from '../../../api/image';
import { decodeImage, encodeJpeg, ImageInputError } from './codec';
import { fieldSize, synthesise, type PreparedInputs } from './synthesise';
import { downscaleToField } from './upscale';
import { prepareControl } from './controlnet';
import { prepareSubjects } from './transfer';
import { nthSeed, randomSeed } from '../random';

export { ImageInputError };

export interface EngineOptions {
  signal?: AbortSignal;
  /** Simulated latency per diffusion step, in milliseconds (0 or absent: none). */
  stepDelayMs?: number;
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error('image generation was aborted');
  err.name = 'AbortError';
  return err;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/** Waits ms milliseconds, or rejects with an AbortError as soon as the signal aborts. */
function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Decodes every input image the request's mode uses, each resized to the output size. */
async function prepareInputs(req: ResolvedImageRequest): Promise<PreparedInputs> {
  const { width, height } = req;
  const inputs: PreparedInputs = {};
  const tasks: Promise<void>[] = [];
  if (req.init_image !== undefined) {
    tasks.push(decodeImage('init_image', req.init_image, width, height, 'rgb').then((img) => {
      inputs.init = img;
      const { fw, fh } = fieldSize(width, height);
      inputs.initField = downscaleToField(img.data, width, height, fw, fh);
    }));
  }
  if (req.mask_image !== undefined) {
    tasks.push(decodeImage('mask_image', req.mask_image, width, height, 'grey').then((img) => { inputs.mask = img; }));
  }
  if (req.mode === 'controlnet' && req.controlnet !== undefined && req.controlnet_image !== undefined) {
    const { controlnet, controlnet_preprocess: preprocess } = req;
    tasks.push(decodeImage('controlnet_image', req.controlnet_image, width, height, 'rgb')
      .then(async (img) => { inputs.control = await prepareControl(controlnet, preprocess, img); }));
  }
  if (req.transfer_images !== undefined) {
    tasks.push(prepareSubjects(req.prompt, req.transfer_images, width, height).then((s) => { inputs.subjects = s; }));
  }
  // Settle all before reporting so no decode is left running unobserved; report the first failure.
  const results = await Promise.allSettled(tasks);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return inputs;
}

/**
 * Generates the request's images. `req` is already validated with defaults filled
 * (api/image.ts validateImageRequest). Image n uses seed + n; a null or missing seed picks a
 * random one, returned in each image so it can be pinned. Rejects with ImageInputError for an
 * input image that does not decode, and with an AbortError when the signal aborts.
 */
export async function generateImages(req: ResolvedImageRequest, opts: EngineOptions = {}): Promise<ImageResponse> {
  const started = performance.now();
  const { signal } = opts;
  throwIfAborted(signal);
  const baseSeed = req.seed ?? randomSeed();
  const inputs = await prepareInputs(req);
  const encodes: Promise<{ image_b64: string; seed: number; removed_for_safety: boolean }>[] = [];
  for (let n = 0; n < req.num_images; n++) {
    await delay(req.steps * (opts.stepDelayMs ?? 0), signal);
    throwIfAborted(signal);
    const seed = nthSeed(baseSeed, n);
    const pixels = synthesise(req, seed, inputs);
    // The encode runs on libvips' threads while the next image is painted.
    encodes.push(encodeJpeg(pixels, req.width, req.height).then((image_b64) => ({ image_b64, seed, removed_for_safety: false })));
  }
  const settled = await Promise.allSettled(encodes);
  throwIfAborted(signal);
  const images = settled.map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  });
  return { images, prediction_time_ms: Math.round(performance.now() - started) };
}
