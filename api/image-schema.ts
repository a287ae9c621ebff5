/**
 * The image generation request and response as data (docs/service-interface.md 2.1, 2.6): the zod
 * schemas, the bounds and defaults, and the mode a request selects. The engine rules that go
 * beyond field types, and the prompt token limits, are image.ts's `validateImageRequest`; the
 * editor's page needs only this part (its node forms and defaults), not the CLIP word list.
 */
import { z } from 'zod';
import { ENGINE_FAMILY, PUBLIC_ASSET_PREFIX, SAMPLERS, STYLE_PRESETS, type EngineId } from './catalog';
import { Base64ImageSchema } from './image-data';
import { closestName } from './closest-name';

/**
 * Bounds the interface does not show (steps, cfg_scale, num_images, seed). The local engines
 * enforce these so a request cannot ask for unbounded work; the hosted service may differ.
 */
export const LOCAL_LIMITS = {
  steps: { min: 1, max: 150 },
  cfgScale: { min: 0, max: 50 },
  numImages: { min: 1, max: 16 },
  seedMax: 2 ** 32 - 1,
  loraWeight: { min: -10, max: 10 },
  /** Most sample images per trigger word in transfer_images. */
  transferImages: 8,
  /** Longest text field, in characters, before token counting is even attempted. */
  textChars: 20_000,
} as const;

/** The fields only SDXL engines take (section 4, rule 2). */
export const SDXL_ONLY_FIELDS = ['prompt_2', 'negative_prompt_2', 'use_refiner', 'high_noise_frac', 'style_preset'] as const;

/** Fields that carry a base64 image. */
export const IMAGE_FIELDS = ['init_image', 'mask_image', 'controlnet_image'] as const;

/** The prompt fields, each checked against the engine's token limit. */
export const PROMPT_FIELDS = ['prompt', 'prompt_2', 'negative_prompt', 'negative_prompt_2'] as const;

const text = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .max(LOCAL_LIMITS.textChars, `is longer than ${LOCAL_LIMITS.textChars} characters`);
const between = (min: number, max: number, whole = false) => {
  const message = `must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}`;
  const number = z.number({ error: message }).min(min, message).max(max, message);
  return whole ? number.int(message) : number;
};
const unit = between(0, 1);
const size = z.number({ error: 'must be a whole number of pixels' }).int('must be a whole number of pixels').positive('must be a positive number of pixels');
const assetName = z.string({ error: 'must be an asset name' })
  .min(1, 'must name an asset')
  .max(200, 'is longer than 200 characters')
  .refine((name) => name !== PUBLIC_ASSET_PREFIX, `names no asset after the '${PUBLIC_ASSET_PREFIX}' prefix`)
  .refine((name) => name.trim() === name, 'has spaces at its start or end');

/** The style preset error: the nearest preset when one is close (case included), else the list. */
function stylePresetProblem(input: unknown): string {
  const guess = typeof input === 'string' ? closestName(input, STYLE_PRESETS) : undefined;
  if (guess !== undefined) return `must be one of the style presets of section 2.4, in their exact case: did you mean '${guess}'?`;
  return `must be one of the style presets of section 2.4, in their exact case: ${STYLE_PRESETS.join(', ')}`;
}

/** The request body, field by field (2.1). Unknown fields are refused so a typo is never ignored. */
export const ImageRequestSchema = z.strictObject({
  prompt: text,
  prompt_2: text.optional(),
  negative_prompt: text.optional(),
  negative_prompt_2: text.optional(),
  sampler: z.enum(SAMPLERS, { error: `must be one of ${SAMPLERS.join(', ')}` }).optional(),
  height: size.optional(),
  width: size.optional(),
  cfg_scale: between(LOCAL_LIMITS.cfgScale.min, LOCAL_LIMITS.cfgScale.max).optional(),
  steps: between(LOCAL_LIMITS.steps.min, LOCAL_LIMITS.steps.max, true).optional(),
  num_images: between(LOCAL_LIMITS.numImages.min, LOCAL_LIMITS.numImages.max, true).optional(),
  seed: between(0, LOCAL_LIMITS.seedMax, true).nullable().optional(),
  use_refiner: z.boolean({ error: 'must be true or false' }).optional(),
  high_noise_frac: unit.optional(),
  checkpoint: assetName.optional(),
  loras: z.record(assetName, between(LOCAL_LIMITS.loraWeight.min, LOCAL_LIMITS.loraWeight.max)).optional(),
  textual_inversions: z.record(assetName, z.string().min(1, 'must be a trigger word').max(200)).optional(),
  vae: assetName.optional(),
  style_preset: z.enum(STYLE_PRESETS, { error: (issue) => stylePresetProblem(issue.input) }).optional(),
  init_image: Base64ImageSchema.optional(),
  strength: unit.optional(),
  mask_image: Base64ImageSchema.optional(),
  // zod drops a `__proto__` key from a record without a word (a record built with it would change
  // its prototype), so the trigger word __proto__ is refused here by name.
  transfer_images: z.preprocess((input, ctx) => {
    if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
      ctx.issues.push({ code: 'custom', input, path: ['__proto__'], message: 'cannot use __proto__ as a trigger word: choose another word' });
    }
    return input;
  }, z.record(
    z.string().min(1, 'must be a trigger word').max(100, 'is longer than 100 characters'),
    z.array(Base64ImageSchema).min(1, 'must hold at least one sample image').max(LOCAL_LIMITS.transferImages, `holds more than ${LOCAL_LIMITS.transferImages} sample images`),
  ).refine((record) => Object.keys(record).length > 0, 'must map a trigger word to sample images')).optional(),
  controlnet: assetName.optional(),
  controlnet_preprocess: z.boolean({ error: 'must be true or false' }).optional(),
  controlnet_image: Base64ImageSchema.optional(),
});
export type ImageRequest = z.infer<typeof ImageRequestSchema>;

/** What a request asks for, chosen by which fields are present (2.1). */
export type ImageMode = 'text-to-image' | 'image-to-image' | 'inpainting' | 'controlnet' | 'subject-transfer';

export function imageMode(req: Pick<ImageRequest, 'init_image' | 'mask_image' | 'controlnet' | 'transfer_images'>): ImageMode {
  if (req.controlnet !== undefined) return 'controlnet';
  if (req.transfer_images !== undefined) return 'subject-transfer';
  if (req.init_image !== undefined && req.mask_image !== undefined) return 'inpainting';
  if (req.init_image !== undefined) return 'image-to-image';
  return 'text-to-image';
}

/** Engine defaults (2.1). num_images and use_refiner have none shown; 1 and false are ours. */
export function imageDefaults(engine: EngineId) {
  const family = ENGINE_FAMILY[engine];
  return {
    width: family === 'sdxl' ? 1024 : 512,
    height: family === 'sdxl' ? 1024 : 512,
    cfg_scale: 12,
    steps: 30,
    sampler: 'DDIM' as const,
    num_images: 1,
    strength: 0.8,
    high_noise_frac: 0.8,
    use_refiner: false,
  };
}

/** A request with every default filled in: what an engine actually runs. */
export interface ResolvedImageRequest extends ImageRequest {
  engine: EngineId;
  mode: ImageMode;
  width: number;
  height: number;
  cfg_scale: number;
  steps: number;
  sampler: (typeof SAMPLERS)[number];
  num_images: number;
  strength: number;
  high_noise_frac: number;
  use_refiner: boolean;
}

/** One generated image (2.6), with the hosted service's own extra fields. */
export const GeneratedImageSchema = z.looseObject({
  image_b64: z.string(),
  seed: z.number().int().optional(),
  removed_for_safety: z.boolean().optional(),
});

/** The response body (2.6). Other fields are passed through untouched. */
export const ImageResponseSchema = z.looseObject({
  images: z.array(GeneratedImageSchema),
  prediction_time_ms: z.number().optional(),
});
export type ImageResponse = z.infer<typeof ImageResponseSchema>;
