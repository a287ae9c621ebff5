/**
 * The image generation request and response (service-interface.md 2.1, 2.6), the engine rules
 * that go beyond field types (section 4 and 8), defaults, and the mode a request selects.
 * One source of truth for the clients, the local engines and the editor's forms.
 */
import { z } from 'zod';
import {
  ENGINE_FAMILY, ENGINE_LABEL, ENGINES, PUBLIC_CONTROLNETS, RESOLUTIONS, SAMPLERS, SDXL_CONTROLNETS,
  STYLE_PRESETS, TOKEN_LIMITS, formatResolution, isPublicAsset, isSupportedResolution,
  type EngineId, type ModelFamily,
} from './catalog';
import { countPromptTokens } from './prompt';

/**
 * Bounds the interface does not show (steps, cfg_scale, num_images, seed). The local engines
 * enforce these so a request cannot ask for unbounded work; the hosted service may differ.
 */
export const LOCAL_LIMITS = {
  steps: { min: 1, max: 150 },
  cfgScale: { min: 0, max: 50 },
  numImages: { min: 1, max: 16 },
  seedMax: 2 ** 32 - 1,
  /** Longest text field, in characters, before token counting is even attempted. */
  textChars: 20_000,
} as const;

/** The fields only SDXL engines take (section 4, rule 2). */
export const SDXL_ONLY_FIELDS = ['prompt_2', 'negative_prompt_2', 'use_refiner', 'high_noise_frac', 'style_preset'] as const;

/** Fields that carry a base64 image. */
export const IMAGE_FIELDS = ['init_image', 'mask_image', 'controlnet_image'] as const;

const base64Pattern = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** A base64-encoded image file (JPEG or PNG). Decoding is checked by whoever uses the pixels. */
export const Base64ImageSchema = z
  .string()
  .min(1, 'must be a base64 image, not an empty string')
  .refine((s) => !s.startsWith('data:'), 'must be bare base64, not a data: URL (drop the "data:image/...;base64," prefix)')
  .refine((s) => base64Pattern.test(s), 'is not valid base64');

const text = z.string().max(LOCAL_LIMITS.textChars, `is longer than ${LOCAL_LIMITS.textChars} characters`);
const unit = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

/** The request body, field by field (2.1). Unknown fields are refused so a typo is never ignored. */
export const ImageRequestSchema = z.strictObject({
  prompt: text,
  prompt_2: text.optional(),
  negative_prompt: text.optional(),
  negative_prompt_2: text.optional(),
  sampler: z.enum(SAMPLERS, { error: `must be one of ${SAMPLERS.join(', ')}` }).optional(),
  height: z.number().int('must be a whole number').positive().optional(),
  width: z.number().int('must be a whole number').positive().optional(),
  cfg_scale: z.number().min(LOCAL_LIMITS.cfgScale.min).max(LOCAL_LIMITS.cfgScale.max).optional(),
  steps: z.number().int('must be a whole number').min(LOCAL_LIMITS.steps.min).max(LOCAL_LIMITS.steps.max).optional(),
  num_images: z.number().int('must be a whole number').min(LOCAL_LIMITS.numImages.min).max(LOCAL_LIMITS.numImages.max).optional(),
  seed: z.number().int('must be a whole number').min(0).max(LOCAL_LIMITS.seedMax).nullable().optional(),
  use_refiner: z.boolean().optional(),
  high_noise_frac: unit.optional(),
  checkpoint: z.string().min(1).max(200).optional(),
  loras: z.record(z.string().min(1).max(200), z.number().min(-10).max(10)).optional(),
  textual_inversions: z.record(z.string().min(1).max(200), z.string().min(1).max(200)).optional(),
  vae: z.string().min(1).max(200).optional(),
  style_preset: z.enum(STYLE_PRESETS, { error: 'must be one of the style presets of section 2.4 (exact case)' }).optional(),
  init_image: Base64ImageSchema.optional(),
  strength: unit.optional(),
  mask_image: Base64ImageSchema.optional(),
  transfer_images: z.record(z.string().min(1).max(100), z.array(Base64ImageSchema).min(1).max(8)).optional(),
  controlnet: z.string().min(1).max(200).optional(),
  controlnet_preprocess: z.boolean().optional(),
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

/** One thing wrong with a request: the field (dotted path) and what is wrong with it. */
export interface FieldIssue {
  path: string;
  message: string;
}

export type ImageValidation =
  | { ok: true; value: ResolvedImageRequest }
  | { ok: false; issues: FieldIssue[] };

export function zodIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.') || '(body)';
    if (issue.code === 'unrecognized_keys') {
      return { path: issue.keys.join(', '), message: `is not a field of this request (${issue.keys.map((k) => `'${k}'`).join(', ')})` };
    }
    return { path, message: issue.message };
  });
}

/** Readable one-line-per-problem text, as the local service sends in a 400 body. */
export function formatIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('\n');
}

function familyName(family: ModelFamily): string {
  return family === 'sdxl' ? 'SDXL' : 'SD 1.5';
}

/**
 * Checks a request body against the engine it is sent to and fills in the engine's defaults.
 * Every problem is reported at once, each naming its field.
 */
export function validateImageRequest(engine: string, body: unknown): ImageValidation {
  if (!(ENGINES as readonly string[]).includes(engine)) {
    return { ok: false, issues: [{ path: 'engine_id', message: `unknown engine '${engine}'; use one of ${ENGINES.join(', ')}` }] };
  }
  const engineId = engine as EngineId;
  const parsed = ImageRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error) };
  const req = parsed.data;
  const family = ENGINE_FAMILY[engineId];
  const issues: FieldIssue[] = [];
  const label = ENGINE_LABEL[engineId];

  if (family !== 'sdxl') {
    for (const field of SDXL_ONLY_FIELDS) {
      if (req[field] !== undefined) issues.push({ path: field, message: `applies only to SDXL engines, not to '${engineId}' (${label})` });
    }
  }

  const defaults = imageDefaults(engineId);
  if ((req.width === undefined) !== (req.height === undefined)) {
    issues.push({ path: req.width === undefined ? 'width' : 'height', message: 'width and height are set together, as one of the supported pairs' });
  } else if (req.width !== undefined && req.height !== undefined && !isSupportedResolution(family, req.width, req.height)) {
    issues.push({
      path: 'width',
      message: `${req.width}x${req.height} is not a supported ${familyName(family)} resolution; use one of ${RESOLUTIONS[family].map(formatResolution).join(', ')}`,
    });
  }

  const limit = TOKEN_LIMITS[family];
  for (const field of ['prompt', 'prompt_2', 'negative_prompt', 'negative_prompt_2'] as const) {
    const value = req[field];
    if (value === undefined) continue;
    const count = countPromptTokens(value);
    if (count > limit) issues.push({ path: field, message: `has ${count} tokens, over the ${familyName(family)} limit of ${limit} (weighting syntax does not count)` });
  }

  if (req.mask_image !== undefined && req.init_image === undefined) {
    issues.push({ path: 'mask_image', message: 'inpainting needs init_image as well as mask_image' });
  }
  if (req.strength !== undefined && req.init_image === undefined) {
    issues.push({ path: 'strength', message: 'applies to image-to-image; send init_image with it' });
  }

  const modes = [req.controlnet !== undefined, req.transfer_images !== undefined, req.init_image !== undefined].filter(Boolean).length;
  if (modes > 1) {
    issues.push({ path: 'controlnet', message: 'controlnet, transfer_images and init_image select different modes; send only one of them' });
  }

  if (engineId === 'controlnet-sdxl') {
    if (req.controlnet === undefined) {
      issues.push({ path: 'controlnet', message: `the controlnet-sdxl engine needs a ControlNet checkpoint: one of ${SDXL_CONTROLNETS.join(', ')} or a private one` });
    } else if (isPublicAsset(req.controlnet)) {
      if (!(PUBLIC_CONTROLNETS as readonly string[]).includes(req.controlnet)) {
        issues.push({ path: 'controlnet', message: `unknown public ControlNet checkpoint '${req.controlnet}'; the public ones are ${PUBLIC_CONTROLNETS.join(', ')}` });
      } else if (!(SDXL_CONTROLNETS as readonly string[]).includes(req.controlnet)) {
        issues.push({ path: 'controlnet', message: `'${req.controlnet}' is an SD 1.5 checkpoint and controlnet-sdxl runs SDXL; use one of ${SDXL_CONTROLNETS.join(', ')} (the interface does not say which engine takes SD 1.5 checkpoints)` });
      }
    } else if (req.controlnet_image === undefined) {
      issues.push({ path: 'controlnet_image', message: `a private ControlNet checkpoint ('${req.controlnet}') needs controlnet_image, the control map` });
    }
    if (req.controlnet !== undefined && isPublicAsset(req.controlnet) && req.controlnet_image === undefined) {
      issues.push({ path: 'controlnet_image', message: 'ControlNet needs controlnet_image, the image to take the control map from' });
    }
  } else {
    for (const field of ['controlnet', 'controlnet_preprocess', 'controlnet_image'] as const) {
      if (req[field] !== undefined) issues.push({ path: field, message: `applies only to the controlnet-sdxl engine, not to '${engineId}'` });
    }
  }

  if (req.transfer_images !== undefined) {
    for (const word of Object.keys(req.transfer_images)) {
      if (!req.prompt.includes(word)) {
        issues.push({ path: `transfer_images.${word}`, message: `the trigger word '${word}' does not appear in the prompt, so the subject is never referred to` });
      }
    }
  }

  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: {
      ...req,
      engine: engineId,
      mode: imageMode(req),
      width: req.width ?? defaults.width,
      height: req.height ?? defaults.height,
      cfg_scale: req.cfg_scale ?? defaults.cfg_scale,
      steps: req.steps ?? defaults.steps,
      sampler: req.sampler ?? defaults.sampler,
      num_images: req.num_images ?? defaults.num_images,
      strength: req.strength ?? defaults.strength,
      high_noise_frac: req.high_noise_frac ?? defaults.high_noise_frac,
      use_refiner: req.use_refiner ?? defaults.use_refiner,
    },
  };
}

/** One generated image (2.6), with the hosted service's own extra fields. */
export const GeneratedImageSchema = z.object({
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
