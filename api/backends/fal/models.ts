/**
 * The fal models Atelier knows, by family: which endpoint does each mode, what each takes, how
 * many images one request makes. The fields are those of fal's own client's generated endpoint
 * types (fal-ai/fal-js, libs/client/src/types/endpoints.ts: FastSdxlInput, ImageToImageSD15Input,
 * InpaintingInput, TextToImageControlNetInput, loraInput, LoraImageToImageInput, LoraInpaintInput,
 * FluxDevInput, BaseImageToInput, StableDiffusionV35LargeInput, unoOutput) and the model pages
 * (https://fal.ai/models/<id>/api). A model id this table does not know is still sent, with the
 * fields fal's text-to-image models share, and the review says so.
 */
import type { EngineId, Sampler } from '../../catalog';
import type { ImageMode } from '../../image-schema';

export type FalFamily = 'sdxl' | 'diffusers' | 'sdxl-controlnet' | 'flux-dev' | 'flux-schnell' | 'sd35' | 'other';

export interface FalModel {
  /** The id as set (the text-to-image endpoint), e.g. `fal-ai/flux/dev`. */
  id: string;
  family: FalFamily;
  /** The model as a person names it, for notes: "FLUX.1 [dev] on fal". */
  who: string;
  /** The endpoint of each mode it can do. */
  endpoints: Partial<Record<ImageMode, string>>;
  /** Most images one request makes (num_images' maximum). */
  maxImages: number;
  /** num_inference_steps' range, where the model page gives one. */
  steps?: readonly [number, number];
  /** guidance_scale's range; absent: the model takes no guidance. */
  guidance?: readonly [number, number];
  /** The field that asks for PNG. */
  formatField: 'format' | 'output_format' | 'image_format';
  negative: boolean;
  /** Reads `(word:1.3)` (fal-ai/lora's `prompt_weighting`). */
  weights: boolean;
  /** Whether `sync_mode` is taken (answer images as data URIs, not CDN URLs). */
  syncMode: boolean;
  /** Sent the service's defaults (cfg 12, steps 30, DDIM) like the other Stable Diffusion backends. */
  serviceDefaults: boolean;
}

const SDXL: Omit<FalModel, 'id' | 'endpoints'> = {
  family: 'sdxl', who: 'SDXL on fal', maxImages: 4, formatField: 'format', negative: true, weights: false, syncMode: true, serviceDefaults: true,
};

const MODELS: readonly FalModel[] = [
  { ...SDXL, id: 'fal-ai/fast-sdxl', endpoints: { 'text-to-image': 'fal-ai/fast-sdxl', 'image-to-image': 'fal-ai/fast-sdxl/image-to-image', inpainting: 'fal-ai/fast-sdxl/inpainting' } },
  {
    ...SDXL, id: 'fal-ai/fast-sdxl-controlnet-canny', family: 'sdxl-controlnet', who: 'SDXL ControlNet (canny) on fal',
    endpoints: { controlnet: 'fal-ai/fast-sdxl-controlnet-canny' },
  },
  {
    id: 'fal-ai/lora', family: 'diffusers', who: 'Stable Diffusion (fal-ai/lora)', maxImages: 4, steps: [1, 150], guidance: [0, 20],
    formatField: 'image_format', negative: true, weights: true, syncMode: false, serviceDefaults: true,
    endpoints: { 'text-to-image': 'fal-ai/lora', 'image-to-image': 'fal-ai/lora/image-to-image', inpainting: 'fal-ai/lora/inpaint' },
  },
  {
    id: 'fal-ai/flux/dev', family: 'flux-dev', who: 'FLUX.1 [dev] on fal', maxImages: 4, steps: [1, 50], guidance: [1, 20],
    formatField: 'output_format', negative: false, weights: false, syncMode: true, serviceDefaults: false,
    endpoints: { 'text-to-image': 'fal-ai/flux/dev', 'image-to-image': 'fal-ai/flux/dev/image-to-image' },
  },
  {
    id: 'fal-ai/flux/schnell', family: 'flux-schnell', who: 'FLUX.1 [schnell] on fal', maxImages: 4, steps: [1, 12],
    formatField: 'output_format', negative: false, weights: false, syncMode: true, serviceDefaults: false,
    endpoints: { 'text-to-image': 'fal-ai/flux/schnell' },
  },
  ...['large', 'medium'].map((size): FalModel => ({
    id: `fal-ai/stable-diffusion-v35-${size}`, family: 'sd35', who: `Stable Diffusion 3.5 ${size === 'large' ? 'Large' : 'Medium'} on fal`, maxImages: 4,
    steps: [1, 50], guidance: [0, 20], formatField: 'output_format', negative: true, weights: false, syncMode: true, serviceDefaults: false,
    endpoints: { 'text-to-image': `fal-ai/stable-diffusion-v35-${size}` },
  })),
];

/** The model each engine runs when the settings name none. */
export const DEFAULT_MODELS: Record<EngineId, string> = {
  sdxl: 'fal-ai/fast-sdxl',
  sd: 'fal-ai/lora',
  'controlnet-sdxl': 'fal-ai/fast-sdxl-controlnet-canny',
};

/** The diffusers checkpoint fal-ai/lora loads for each engine (`model_name`), when the request names none. */
export const LORA_CHECKPOINTS: Record<EngineId, string> = {
  sdxl: 'stabilityai/stable-diffusion-xl-base-1.0',
  sd: 'stable-diffusion-v1-5/stable-diffusion-v1-5',
  'controlnet-sdxl': 'stabilityai/stable-diffusion-xl-base-1.0',
};

/** Model ids in the table, for suggestions when fal's list cannot be read. */
export const KNOWN_MODELS: readonly string[] = MODELS.map((m) => m.id);

/** The table's entry for `id`, or the generic one for a model it does not know. */
export function falModel(id: string): FalModel {
  const known = MODELS.find((m) => m.id === id);
  if (known !== undefined) return known;
  return {
    id, family: 'other', who: `${id} on fal`, endpoints: { 'text-to-image': id }, maxImages: 1,
    formatField: 'output_format', negative: false, weights: false, syncMode: true, serviceDefaults: false,
  };
}

/**
 * The queue's address of a request: `owner/alias` of an endpoint id, without its sub-path
 * (`fal-ai/flux/dev` → `fal-ai/flux`), as fal-js builds status, result and cancel URLs
 * (src/queue.ts with parseEndpointId in src/utils.ts; the `workflows/` and `comfy/` namespaces
 * keep their prefix).
 */
export function queueApp(endpoint: string): string {
  const parts = endpoint.split('/');
  if (parts[0] === 'workflows' || parts[0] === 'comfy') return parts.slice(0, 3).join('/');
  return parts.slice(0, 2).join('/');
}

/** fal-ai/lora's schedulers for the service's samplers; `exact` false where the nearest is sent. */
export const LORA_SCHEDULERS: Record<Sampler, { name: string; exact: boolean }> = {
  DDIM: { name: 'DDIM', exact: true },
  DDPM: { name: 'Euler A', exact: false },
  DPM_PLUS_PLUS_2M_KARRAS: { name: 'DPM++ 2M Karras', exact: true },
  DPM_SINGLE: { name: 'DPM++ 2M', exact: false },
  DPM_SOLVER_MULTISTEP: { name: 'DPM++ 2M', exact: true },
  K_EULER: { name: 'Euler', exact: true },
  K_EULER_ANCESTRAL: { name: 'Euler A', exact: true },
  PNDM: { name: 'DDIM', exact: false },
  UNI_PC: { name: 'DPM++ 2M', exact: false },
  DPM_2: { name: 'DPM++ 2M', exact: false },
  DPM_2_ANCESTRAL: { name: 'Euler A', exact: false },
  DPM_PLUS_PLUS_SDE_KARRAS: { name: 'DPM++ 2M SDE Karras', exact: false },
  HEUN: { name: 'Euler', exact: false },
  KLMS: { name: 'Euler', exact: false },
};
