/**
 * The fal endpoints the double serves, each with its input schema: the fields, defaults and
 * enums of fal's own client's generated types (fal-ai/fal-js libs/client/src/types/endpoints.ts:
 * FastSdxlInput, ImageToImageSD15Input, InpaintingInput, TextToImageControlNetInput, loraInput,
 * LoraImageToImageInput, LoraInpaintInput, FluxDevInput, BaseImageToInput (flux/dev
 * image-to-image), FluxSchnellInput (= FluxDevInput), StableDiffusionV35LargeInput,
 * StableDiffusionV35MediumInput), the ranges the model pages give (https://fal.ai/models/<id>/api).
 */
import type { FieldRule, InputSchema } from './hosted-schema';

const SIZE_NAMES = ['square_hd', 'square', 'portrait_4_3', 'portrait_16_9', 'landscape_4_3', 'landscape_16_9'] as const;
const size = (custom: boolean): FieldRule => ({ type: 'image_size', names: SIZE_NAMES, custom });
const int = (min: number, max: number): FieldRule => ({ type: 'int', min, max });
const num = (min: number, max: number): FieldRule => ({ type: 'number', min, max });
const str: FieldRule = { type: 'string' };
const bool: FieldRule = { type: 'boolean' };
const file = (required: boolean): FieldRule => ({ type: 'file', required });
const list: FieldRule = { type: 'array' };

const SD_COMMON: InputSchema = {
  prompt: { type: 'string', required: true }, negative_prompt: str, num_inference_steps: int(1, 65), seed: { type: 'int' },
  guidance_scale: num(0, 20), num_images: int(1, 8), loras: list, embeddings: list, enable_safety_checker: bool,
  safety_checker_version: { type: 'enum', values: ['v1', 'v2'] }, expand_prompt: bool, format: { type: 'enum', values: ['jpeg', 'png'] },
  sync_mode: bool, request_id: str,
};

const LORA_COMMON: InputSchema = {
  model_name: { type: 'string', required: true }, unet_name: str, variant: str, prompt: { type: 'string', required: true }, negative_prompt: str,
  prompt_weighting: bool, loras: list, embeddings: list, controlnets: list, controlnet_guess_mode: bool, ip_adapter: list, seed: { type: 'int' },
  image_size: size(true), num_inference_steps: int(1, 150), guidance_scale: num(0, 20), clip_skip: int(0, 2),
  scheduler: { type: 'enum', values: ['DPM++ 2M', 'DPM++ 2M Karras', 'DPM++ 2M SDE', 'DPM++ 2M SDE Karras', 'Euler', 'Euler A', 'Euler (trailing timesteps)', 'LCM', 'LCM (trailing timesteps)', 'DDIM', 'TCD'] },
  prediction_type: { type: 'enum', values: ['v_prediction', 'epsilon'] }, rescale_betas_snr_zero: bool, image_format: { type: 'enum', values: ['jpeg', 'png'] },
  num_images: int(1, 8), enable_safety_checker: bool, tile_width: int(128, 4096), tile_height: int(128, 4096), eta: num(0, 1),
};

const FLUX_COMMON: InputSchema = {
  prompt: { type: 'string', required: true }, seed: { type: 'int' }, guidance_scale: num(1, 20), sync_mode: bool, num_images: int(1, 4),
  enable_safety_checker: bool, output_format: { type: 'enum', values: ['jpeg', 'png'] }, acceleration: { type: 'enum', values: ['none', 'regular', 'high'] },
};

const SD35: InputSchema = {
  prompt: { type: 'string', required: true }, negative_prompt: str, image_size: size(true), num_inference_steps: int(1, 50), seed: { type: 'int' },
  guidance_scale: num(0, 20), num_images: int(1, 4), enable_safety_checker: bool, output_format: { type: 'enum', values: ['jpeg', 'png'] }, sync_mode: bool, loras: list,
};

export interface FalEndpoint {
  schema: InputSchema;
  /** The answer carries `has_nsfw_concepts` (every model here runs fal's safety checker). */
  safety: boolean;
}

/** Endpoint id → what it takes. A Map: ids arrive in URLs. */
export const FAL_ENDPOINTS = new Map<string, FalEndpoint>([
  ['fal-ai/fast-sdxl', { schema: { ...SD_COMMON, image_size: size(true) }, safety: true }],
  ['fal-ai/fast-sdxl/image-to-image', { schema: { ...SD_COMMON, image_size: size(false), image_url: file(true), strength: num(0.05, 1), crop_output: bool, preserve_aspect_ratio: bool }, safety: true }],
  ['fal-ai/fast-sdxl/inpainting', { schema: { ...SD_COMMON, image_size: size(false), image_url: file(true), mask_url: file(true), strength: num(0.01, 1) }, safety: true }],
  ['fal-ai/fast-sdxl-controlnet-canny', { schema: { ...SD_COMMON, image_size: size(true), num_inference_steps: int(1, 65), control_image_url: file(true), controlnet_conditioning_scale: num(0, 1) }, safety: true }],
  ['fal-ai/lora', { schema: LORA_COMMON, safety: true }],
  ['fal-ai/lora/image-to-image', { schema: { ...LORA_COMMON, image_url: file(true), noise_strength: num(0, 1) }, safety: true }],
  ['fal-ai/lora/inpaint', { schema: { ...LORA_COMMON, image_url: file(true), mask_url: file(true), noise_strength: num(0, 1) }, safety: true }],
  ['fal-ai/flux/dev', { schema: { ...FLUX_COMMON, image_size: size(true), num_inference_steps: int(1, 50) }, safety: true }],
  ['fal-ai/flux/dev/image-to-image', { schema: { ...FLUX_COMMON, image_url: file(true), strength: num(0.01, 1), num_inference_steps: int(1, 50) }, safety: true }],
  ['fal-ai/flux/schnell', { schema: { ...FLUX_COMMON, image_size: size(true), num_inference_steps: int(1, 12) }, safety: true }],
  ['fal-ai/stable-diffusion-v35-large', { schema: SD35, safety: true }],
  ['fal-ai/stable-diffusion-v35-medium', { schema: { ...SD35, auto_fix: bool }, safety: true }],
]);

/** The format field each endpoint's answer follows, for the double's images. */
export function formatOf(endpoint: string, input: Record<string, unknown>): 'png' | 'jpeg' {
  const asked = input.format ?? input.output_format ?? input.image_format ?? (endpoint.startsWith('fal-ai/lora') ? 'png' : 'jpeg');
  return asked === 'png' ? 'png' : 'jpeg';
}
