/**
 * The image generation request and response (docs/service-interface.md 2.1, 2.6), the engine rules
 * that go beyond field types (section 4 and 8), defaults, and the mode a request selects.
 * One source of truth for the clients, the local engines and the editor's forms. The request's
 * shape, bounds and defaults live in image-schema.ts (re-exported here).
 */
import {
  ENGINE_FAMILY, ENGINE_LABEL, ENGINES, PUBLIC_CONTROLNETS, RESOLUTIONS,
  SDXL_CONTROLNETS, TOKEN_LIMITS, formatResolution, isPublicAsset, isSupportedResolution,
  type EngineId, type ModelFamily,
} from './catalog';
import { base64ImageProblem } from './image-data';
import {
  IMAGE_FIELDS, ImageRequestSchema, PROMPT_FIELDS, SDXL_ONLY_FIELDS, imageDefaults, imageMode,
  type ImageRequest, type ResolvedImageRequest,
} from './image-schema';
import { type FieldIssue, zodIssues } from './issues';
import { countPromptTokens } from './prompt';

export * from './image-schema';
export { Base64ImageSchema } from './image-data';
export { formatIssues, zodIssues, type FieldIssue } from './issues';

const REQUEST_FIELDS = Object.keys(ImageRequestSchema.shape);

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

