/**
 * What each Gemini image model takes, from Google's image generation guide
 * (https://ai.google.dev/gemini-api/docs/image-generation) and the official JavaScript SDK
 * (googleapis/js-genai, `ImageConfig`): the aspect ratios `generationConfig.imageConfig.aspectRatio`
 * accepts, the sizes `imageSize` accepts, and the pixel size each ratio comes out at. A model this
 * table does not know, but whose id says it makes images (`gemini-…-image…`), gets the ratios every
 * Gemini image model takes and no `imageSize`; any other id is refused before sending.
 */
import type { Resolution } from '../../catalog';

export interface AspectRatio {
  /** As the API spells it: `16:9`. */
  name: string;
  width: number;
  height: number;
}

const ratio = (name: string): AspectRatio => {
  const [w, h] = name.split(':').map(Number) as [number, number];
  return { name, width: w, height: h };
};

/** The ten ratios every Gemini image model takes (js-genai `ImageConfig.aspectRatio`, guide). */
const BASE_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'].map(ratio);
/** Gemini 3.1 Flash Image adds the extreme ones. */
const WIDE_RATIOS = [...BASE_RATIOS, ...['1:4', '4:1', '1:8', '8:1'].map(ratio)];

/**
 * Pixel size at 1K per ratio, from the guide's resolution table (the same for every model at 1K;
 * 2K doubles each side, 4K quadruples it, 512 halves it).
 */
const PIXELS_1K: Record<string, Resolution> = {
  '1:1': { width: 1024, height: 1024 }, '2:3': { width: 832, height: 1248 }, '3:2': { width: 1248, height: 832 },
  '3:4': { width: 864, height: 1184 }, '4:3': { width: 1184, height: 864 }, '4:5': { width: 896, height: 1152 },
  '5:4': { width: 1152, height: 896 }, '9:16': { width: 768, height: 1344 }, '16:9': { width: 1344, height: 768 },
  '21:9': { width: 1536, height: 672 }, '1:4': { width: 512, height: 2048 }, '4:1': { width: 2048, height: 512 },
  '1:8': { width: 384, height: 3072 }, '8:1': { width: 3072, height: 384 },
};

/** `imageSize` values, as the API spells them (upper-case K). */
export type ImageSize = '512' | '1K' | '2K' | '4K';

const SCALE: Record<ImageSize, number> = { '512': 0.5, '1K': 1, '2K': 2, '4K': 4 };

export type ModelFamily = 'gemini-2.5-flash-image' | 'gemini-3-pro-image' | 'gemini-3.1-flash-image' | 'gemini-image' | 'not-image';

export interface ModelRules {
  family: ModelFamily;
  ratios: readonly AspectRatio[];
  /** `imageSize` values the model takes; empty: none is sent (the model makes its one size, 1K). */
  sizes: readonly ImageSize[];
  /** Most input images in one request (Google documents up to 14 reference images). */
  maxInputImages: number;
  /** Input images past this many are taken but the guide says the model works best with fewer. */
  bestInputImages: number;
}

const GEMINI_IMAGE: ModelRules = { family: 'gemini-image', ratios: BASE_RATIOS, sizes: [], maxInputImages: 14, bestInputImages: 3 };

export { DEFAULT_MODEL } from './describe';

/** A model id as the API writes it in `GET /v1beta/models` (`models/x`), or as a person does (`x`). */
export function bareModelId(id: string): string {
  return id.startsWith('models/') ? id.slice('models/'.length) : id;
}

export function modelRules(model: string): ModelRules {
  const id = bareModelId(model);
  if (/^gemini-2\.5-flash-image/.test(id)) return { ...GEMINI_IMAGE, family: 'gemini-2.5-flash-image' };
  if (/^gemini-3(\.\d+)?-pro-image/.test(id)) return { ...GEMINI_IMAGE, family: 'gemini-3-pro-image', sizes: ['1K', '2K', '4K'], bestInputImages: 14 };
  if (/^gemini-3\.1-flash-image/.test(id)) {
    return { ...GEMINI_IMAGE, family: 'gemini-3.1-flash-image', ratios: WIDE_RATIOS, sizes: ['512', '1K', '2K', '4K'], bestInputImages: 14 };
  }
  if (/^gemini-.*image/.test(id)) return GEMINI_IMAGE;
  return { ...GEMINI_IMAGE, family: 'not-image', ratios: [], maxInputImages: 0 };
}

/** Whether an id from `GET /v1beta/models` is a Gemini image model (Imagen's ids speak `:predict`, not this API). */
export function isGeminiImageModel(id: string): boolean {
  return modelRules(id).family !== 'not-image';
}

/** The ratio nearest `wanted` in shape (compared as logarithms, so 2:1 and 1:2 are as far from 1:1). */
export function nearestRatio(rules: ModelRules, wanted: Resolution): AspectRatio {
  const target = Math.log(wanted.width / wanted.height);
  let best = rules.ratios[0]!;
  for (const r of rules.ratios) {
    if (Math.abs(Math.log(r.width / r.height) - target) < Math.abs(Math.log(best.width / best.height) - target)) best = r;
  }
  return best;
}

/**
 * The size whose picture at `ratio` is nearest the request's in area (as logarithms; a tie goes
 * to the smaller, cheaper one), so 1536×640 at 21:9 is 1K (1536×672), not 2K.
 */
export function nearestSize(rules: ModelRules, wanted: Resolution, ratio: AspectRatio): ImageSize | undefined {
  if (rules.sizes.length === 0) return undefined;
  const area = (r: Resolution) => Math.log(r.width * r.height);
  const target = area(wanted);
  let best = rules.sizes[0]!;
  for (const size of rules.sizes) {
    if (Math.abs(area(outputPixels(ratio, size)) - target) < Math.abs(area(outputPixels(ratio, best)) - target)) best = size;
  }
  return best;
}

/** The pixel size an image of `ratio` at `size` comes out at (1K when the model takes no size). */
export function outputPixels(ratio: AspectRatio, size: ImageSize | undefined): Resolution {
  const base = PIXELS_1K[ratio.name] ?? { width: 1024, height: 1024 };
  const scale = SCALE[size ?? '1K'];
  return { width: Math.round(base.width * scale), height: Math.round(base.height * scale) };
}
