/**
 * What each OpenAI image model accepts, from the OpenAPI spec (openai/openai-openapi, openapi.yaml:
 * CreateImageRequest, CreateImageEditRequest) and the SDK's parameter docs (openai-node,
 * src/resources/images.ts). A model id this table does not know is a compatible server's own
 * (LocalAI, a Stable Diffusion server behind an OpenAI-style API): it gets the sizes it is asked
 * for and `response_format: b64_json`, as those servers follow the DALL·E 2 conventions.
 */
import type { Resolution } from '../../catalog';

export type ModelKind = 'gpt-image' | 'dall-e-2' | 'dall-e-3' | 'other';

export interface ModelRules {
  kind: ModelKind;
  /** Sizes the model makes; `any` sends the request's own size. */
  sizes: readonly Resolution[] | 'any';
  /** gpt-image-2 also makes any size whose sides are multiples of 16 within 1:3 to 3:1. */
  freeSizes: boolean;
  /** Most images in one request; more are split over several requests. Undefined: no known limit. */
  maxN: number | undefined;
  /** Longest prompt in characters, where documented. */
  promptChars: number | undefined;
  /** Whether `/v1/images/edits` takes this model (image to image, inpainting). */
  edits: boolean;
  /** Whether edits take several images (`image[]`): only the GPT image models, up to 16. */
  referenceImages: number;
  /** Input image formats the edits endpoint takes. */
  inputFormats: readonly string[];
  /** Largest input image in bytes. */
  inputBytes: number;
  /** Whether b64_json must be asked for (`response_format`); GPT image models refuse the parameter. */
  responseFormat: boolean;
  /** Whether `output_format` is taken (GPT image models). */
  outputFormat: boolean;
}

const sizes = (list: readonly (readonly [number, number])[]): readonly Resolution[] =>
  list.map(([width, height]) => ({ width, height }));

const MB = 1024 * 1024;
const GPT_SIZES = sizes([[1024, 1024], [1536, 1024], [1024, 1536]]);

const GPT_IMAGE: ModelRules = {
  kind: 'gpt-image', sizes: GPT_SIZES, freeSizes: false, maxN: 10, promptChars: 32_000, edits: true,
  referenceImages: 16, inputFormats: ['png', 'jpeg', 'webp'], inputBytes: 50 * MB, responseFormat: false, outputFormat: true,
};

const DALL_E_2: ModelRules = {
  kind: 'dall-e-2', sizes: sizes([[256, 256], [512, 512], [1024, 1024]]), freeSizes: false, maxN: 10, promptChars: 1000,
  edits: true, referenceImages: 1, inputFormats: ['png'], inputBytes: 4 * MB, responseFormat: true, outputFormat: false,
};

const DALL_E_3: ModelRules = {
  kind: 'dall-e-3', sizes: sizes([[1024, 1024], [1792, 1024], [1024, 1792]]), freeSizes: false, maxN: 1, promptChars: 4000,
  edits: false, referenceImages: 0, inputFormats: [], inputBytes: 0, responseFormat: true, outputFormat: false,
};

const OTHER: ModelRules = {
  kind: 'other', sizes: 'any', freeSizes: false, maxN: undefined, promptChars: undefined, edits: true,
  referenceImages: 1, inputFormats: ['png', 'jpeg', 'webp'], inputBytes: 50 * MB, responseFormat: true, outputFormat: false,
};

export { DEFAULT_MODEL } from './describe';

export function modelRules(model: string): ModelRules {
  if (model === 'dall-e-2') return DALL_E_2;
  if (model === 'dall-e-3') return DALL_E_3;
  if (/^gpt-image-2(\b|-)/.test(model)) return { ...GPT_IMAGE, freeSizes: true };
  if (/^(gpt-image-|chatgpt-image-)/.test(model)) return GPT_IMAGE;
  return OTHER;
}

/** Whether an id names an image model on OpenAI's own API (for sorting `/v1/models`). */
export function isOpenAIImageModel(id: string): boolean {
  return modelRules(id).kind !== 'other';
}

export function sizeText(r: Resolution): string {
  return `${r.width}×${r.height}`;
}

/** gpt-image-2's rule for sizes it makes as asked (openapi.yaml, CreateImageRequest.size). */
function freeSizeFits(r: Resolution): boolean {
  const ratio = r.width / r.height;
  return r.width % 16 === 0 && r.height % 16 === 0 && ratio >= 1 / 3 && ratio <= 3
    && r.width * r.height <= 3840 * 2160 && Math.max(r.width, r.height) <= 3840;
}

/**
 * The size to ask for: the request's own where the model makes it, else the model's size nearest
 * in aspect ratio (and then in area), so a portrait stays a portrait.
 */
export function nearestSize(rules: ModelRules, wanted: Resolution): Resolution {
  if (rules.sizes === 'any' || (rules.freeSizes && freeSizeFits(wanted))) return wanted;
  const aspect = Math.log(wanted.width / wanted.height);
  const area = Math.log(wanted.width * wanted.height);
  let best = rules.sizes[0]!;
  let bestScore = Infinity;
  for (const size of rules.sizes) {
    const aspectGap = Math.abs(Math.log(size.width / size.height) - aspect);
    const areaGap = Math.abs(Math.log(size.width * size.height) - area);
    // Aspect first: an area difference only decides between sizes of the same shape.
    const score = aspectGap * 1000 + areaGap;
    if (score < bestScore) {
      best = size;
      bestScore = score;
    }
  }
  return best;
}

export function listSizes(rules: ModelRules): string {
  if (rules.sizes === 'any') return 'any size';
  const list = rules.sizes.map(sizeText);
  return list.length > 1 ? `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]!}` : list.join('');
}

/** How many images each request asks for: `total` split into requests of at most `maxN`. */
export function splitCount(total: number, maxN: number | undefined): number[] {
  if (maxN === undefined || total <= maxN) return [total];
  const calls: number[] = [];
  for (let left = total; left > 0; left -= maxN) calls.push(Math.min(maxN, left));
  return calls;
}
