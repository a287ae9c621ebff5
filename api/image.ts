/**
 * The image generation request and response (service-interface.md 2.1, 2.6), the engine rules
 * that go beyond field types (section 4 and 8), defaults, and the mode a request selects.
 * One source of truth for the clients, the local engines and the editor's forms.
 */
import { z } from 'zod';
import {
  ENGINE_FAMILY, ENGINE_LABEL, ENGINES, PUBLIC_ASSET_PREFIX, PUBLIC_CONTROLNETS, RESOLUTIONS, SAMPLERS,
  SDXL_CONTROLNETS, STYLE_PRESETS, TOKEN_LIMITS, formatResolution, isPublicAsset, isSupportedResolution,
  type EngineId, type ModelFamily,
} from './catalog';
import { Base64ImageSchema, base64ImageProblem } from './image-data';
import { closestName, type FieldIssue, formatIssues, zodIssues } from './issues';
import { countPromptTokens } from './prompt';

export { Base64ImageSchema, formatIssues, zodIssues, type FieldIssue };

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
  transfer_images: z.record(
    z.string().min(1, 'must be a trigger word').max(100, 'is longer than 100 characters'),
    z.array(Base64ImageSchema).min(1, 'must hold at least one sample image').max(LOCAL_LIMITS.transferImages, `holds more than ${LOCAL_LIMITS.transferImages} sample images`),
  ).refine((record) => Object.keys(record).length > 0, 'must map a trigger word to sample images').optional(),
  controlnet: assetName.optional(),
  controlnet_preprocess: z.boolean({ error: 'must be true or false' }).optional(),
  controlnet_image: Base64ImageSchema.optional(),
});
export type ImageRequest = z.infer<typeof ImageRequestSchema>;

const REQUEST_FIELDS = Object.keys(ImageRequestSchema.shape);

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

export type ImageValidation =
  | { ok: true; value: ResolvedImageRequest }
  | { ok: false; issues: FieldIssue[] };

function familyName(family: ModelFamily): string {
  return family === 'sdxl' ? 'SDXL' : 'SD 1.5';
}

function checkSize(req: ImageRequest, family: ModelFamily): FieldIssue[] {
  const supported = RESOLUTIONS[family].map(formatResolution).join(', ');
  if (req.width === undefined && req.height === undefined) return [];
  if (req.width === undefined || req.height === undefined) {
    const missing = req.width === undefined ? 'width' : 'height';
    return [{ path: missing, message: `is missing: width and height are set together, as one of the ${familyName(family)} sizes ${supported}` }];
  }
  if (isSupportedResolution(family, req.width, req.height)) return [];
  return [{ path: 'width', message: `${req.width}x${req.height} is not a supported ${familyName(family)} resolution; use one of ${supported} (width x height)` }];
}

function checkPrompts(req: ImageRequest, family: ModelFamily): FieldIssue[] {
  const limit = TOKEN_LIMITS[family];
  return PROMPT_FIELDS.flatMap((field) => {
    const value = req[field];
    if (value === undefined || (family !== 'sdxl' && field.endsWith('_2'))) return [];
    const count = countPromptTokens(value);
    return count > limit
      ? [{ path: field, message: `has ${count} tokens, over the ${familyName(family)} limit of ${limit} (weighting syntax does not count)` }]
      : [];
  });
}

/** One mode per request: init_image (with or without a mask), controlnet and transfer_images exclude each other. */
function checkMode(req: ImageRequest): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (req.mask_image !== undefined && req.init_image === undefined) {
    issues.push({ path: 'mask_image', message: 'needs init_image: inpainting paints the masked area of init_image' });
  }
  const selectors = (['controlnet', 'transfer_images', 'init_image'] as const).filter((field) => req[field] !== undefined);
  const [chosen, ...others] = selectors;
  for (const other of others) {
    issues.push({ path: other, message: `cannot be combined with ${chosen}: each selects its own mode (ControlNet, subject transfer, image-to-image); send one` });
  }
  return issues;
}

function checkControlNet(req: ImageRequest, engine: EngineId): FieldIssue[] {
  if (engine !== 'controlnet-sdxl') {
    return (['controlnet', 'controlnet_preprocess', 'controlnet_image'] as const)
      .filter((field) => req[field] !== undefined)
      .map((field) => ({ path: field, message: `applies only to the controlnet-sdxl engine, not to '${engine}'` }));
  }
  const name = req.controlnet;
  if (name === undefined) {
    return [{ path: 'controlnet', message: `is required by the controlnet-sdxl engine: one of ${SDXL_CONTROLNETS.join(', ')} or a private checkpoint` }];
  }
  const issues: FieldIssue[] = [];
  if (isPublicAsset(name)) {
    if (!(PUBLIC_CONTROLNETS as readonly string[]).includes(name)) {
      issues.push({ path: 'controlnet', message: `unknown public ControlNet checkpoint '${name}'; the public ones are ${PUBLIC_CONTROLNETS.join(', ')}` });
    } else if (!(SDXL_CONTROLNETS as readonly string[]).includes(name)) {
      issues.push({ path: 'controlnet', message: `'${name}' is an SD 1.5 checkpoint and controlnet-sdxl runs SDXL; use one of ${SDXL_CONTROLNETS.join(', ')} (the interface does not say which engine takes SD 1.5 checkpoints)` });
    }
    if (req.controlnet_image === undefined) {
      issues.push({ path: 'controlnet_image', message: 'is required: the image the control map is taken from (or the map itself with controlnet_preprocess false)' });
    }
  } else {
    if (req.controlnet_image === undefined) {
      issues.push({ path: 'controlnet_image', message: `is required with a private ControlNet checkpoint ('${name}'): the control map` });
    }
    if (req.controlnet_preprocess === true) {
      issues.push({ path: 'controlnet_preprocess', message: `applies only to public checkpoints; a private one ('${name}') takes controlnet_image as the map` });
    }
  }
  return issues;
}

/** Image fields must hold an image the engines decode; the schema has only checked the base64. */
function checkImages(req: ImageRequest): FieldIssue[] {
  const images: [string, string][] = IMAGE_FIELDS.flatMap((field) => {
    const value = req[field];
    return value === undefined ? [] : [[field, value] as [string, string]];
  });
  for (const [word, list] of Object.entries(req.transfer_images ?? {})) {
    list.forEach((value, i) => images.push([`transfer_images.${word}.${i}`, value]));
  }
  return images.flatMap(([path, value]) => {
    const problem = base64ImageProblem(value);
    return problem === undefined ? [] : [{ path, message: problem }];
  });
}

function checkTransfer(req: ImageRequest): FieldIssue[] {
  if (req.transfer_images === undefined) return [];
  const prompts = `${req.prompt}\n${req.prompt_2 ?? ''}`.toLowerCase();
  return Object.keys(req.transfer_images)
    .filter((word) => !prompts.includes(word.toLowerCase()))
    .map((word) => ({ path: `transfer_images.${word}`, message: `the trigger word '${word}' does not appear in the prompt, so the subject is never referred to` }));
}

/**
 * Checks a request body against the engine it is sent to and fills in the engine's defaults.
 * Every problem is reported at once, each naming its field. Fields that only go unused (strength
 * without init_image) are accepted, as the service accepts them.
 */
export function validateImageRequest(engine: string, body: unknown): ImageValidation {
  if (!(ENGINES as readonly string[]).includes(engine)) {
    return { ok: false, issues: [{ path: 'engine_id', message: `unknown engine '${engine}'; use one of ${ENGINES.join(', ')}` }] };
  }
  const engineId = engine as EngineId;
  const parsed = ImageRequestSchema.safeParse(body);
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error, REQUEST_FIELDS) };
  const req = parsed.data;
  const family = ENGINE_FAMILY[engineId];

  const issues: FieldIssue[] = [];
  if (family !== 'sdxl') {
    for (const field of SDXL_ONLY_FIELDS) {
      if (req[field] !== undefined) issues.push({ path: field, message: `applies only to SDXL engines, not to '${engineId}' (${ENGINE_LABEL[engineId]})` });
    }
  }
  issues.push(...checkSize(req, family), ...checkPrompts(req, family), ...checkImages(req), ...checkMode(req));
  issues.push(...checkControlNet(req, engineId), ...checkTransfer(req));
  if (issues.length > 0) return { ok: false, issues };

  const defaults = imageDefaults(engineId);
  return {
    ok: true,
    value: {
      // prompt_2 stays as sent: an SDXL engine reads a missing one as a copy of prompt (2.1).
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
