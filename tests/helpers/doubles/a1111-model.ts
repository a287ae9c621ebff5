/**
 * The test double's copy of AUTOMATIC1111's request models and how FastAPI and pydantic 1 check
 * them: every field `Optional[...]` (null is fine), values coerced the way pydantic 1 coerces them
 * (`"5"` and `5.7` are the integer 5, `"yes"` is true, a number is a string), unknown fields
 * ignored (pydantic's default; the models set no `extra`), and a wrong type answered with
 * FastAPI's 422 `{detail: [{loc, msg, type}]}`.
 *
 * Source: AUTOMATIC1111/stable-diffusion-webui modules/api/models.py (`PydanticModelGenerator`:
 * the fields of `StableDiffusionProcessingTxt2Img` / `Img2Img` from modules/processing.py, plus
 * the API's own), pydantic 1.10 `validators.py` (`int_validator`, `float_validator`,
 * `bool_validator`, `str_validator`), FastAPI 0.94 `request_validation_exception_handler`.
 */

type FieldType = 'str' | 'int' | 'float' | 'bool' | 'dict' | 'list' | 'list[str]';

const COMMON: Record<string, FieldType> = {
  prompt: 'str', negative_prompt: 'str', styles: 'list[str]', seed: 'int', subseed: 'int', subseed_strength: 'float',
  seed_resize_from_h: 'int', seed_resize_from_w: 'int', seed_enable_extras: 'bool', sampler_name: 'str', scheduler: 'str',
  batch_size: 'int', n_iter: 'int', steps: 'int', cfg_scale: 'float', width: 'int', height: 'int', restore_faces: 'bool',
  tiling: 'bool', do_not_save_samples: 'bool', do_not_save_grid: 'bool', eta: 'float', denoising_strength: 'float',
  s_min_uncond: 'float', s_churn: 'float', s_tmax: 'float', s_tmin: 'float', s_noise: 'float', override_settings: 'dict',
  override_settings_restore_afterwards: 'bool', refiner_checkpoint: 'str', refiner_switch_at: 'float',
  disable_extra_networks: 'bool', firstpass_image: 'str', comments: 'dict',
  // The API's own additions (models.py).
  sampler_index: 'str', script_name: 'str', script_args: 'list', send_images: 'bool', save_images: 'bool',
  alwayson_scripts: 'dict', force_task_id: 'str', infotext: 'str',
};

export const TXT2IMG_FIELDS: Record<string, FieldType> = {
  ...COMMON, enable_hr: 'bool', firstphase_width: 'int', firstphase_height: 'int', hr_scale: 'float', hr_upscaler: 'str',
  hr_second_pass_steps: 'int', hr_resize_x: 'int', hr_resize_y: 'int', hr_checkpoint_name: 'str', hr_sampler_name: 'str',
  hr_scheduler: 'str', hr_prompt: 'str', hr_negative_prompt: 'str',
};

export const IMG2IMG_FIELDS: Record<string, FieldType> = {
  ...COMMON, init_images: 'list', resize_mode: 'int', image_cfg_scale: 'float', mask: 'str', mask_blur_x: 'int',
  mask_blur_y: 'int', mask_blur: 'int', mask_round: 'bool', inpainting_fill: 'int', inpaint_full_res: 'bool',
  inpaint_full_res_padding: 'int', inpainting_mask_invert: 'int', initial_noise_multiplier: 'float', latent_mask: 'str',
  include_init_images: 'bool',
};

/** The defaults a field takes when the request leaves it out (processing.py, models.py). */
export const DEFAULTS: Record<string, unknown> = {
  prompt: '', negative_prompt: '', seed: -1, subseed: -1, subseed_strength: 0, batch_size: 1, n_iter: 1, steps: 50,
  cfg_scale: 7, width: 512, height: 512, override_settings: null, override_settings_restore_afterwards: true,
  sampler_index: 'Euler', send_images: true, save_images: false, alwayson_scripts: {}, script_args: [],
  denoising_strength: 0.75, resize_mode: 0, mask_blur_x: 4, mask_blur_y: 4, inpainting_fill: 0, inpaint_full_res: true,
  inpainting_mask_invert: 0, include_init_images: false,
};

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

const TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/** Python's `int()` of a string: optional sign and spaces, digits (and single underscores) only. */
const PY_INT = /^\s*[+-]?\d+(_\d+)*\s*$/;
const PY_FLOAT = /^\s*[+-]?((\d+(_\d+)*)?\.?\d+(_\d+)*([eE][+-]?\d+)?|inf(inity)?|nan)\s*$/i;

function coerce(type: FieldType, value: unknown, loc: (string | number)[], issues: ValidationIssue[]): unknown {
  if (value === null) return null;
  const fail = (msg: string, kind: string) => {
    issues.push({ loc, msg, type: kind });
    return undefined;
  };
  switch (type) {
    case 'str':
      if (typeof value === 'string') return value;
      // pydantic 1 writes numbers as text (True is an int in Python: "True").
      if (typeof value === 'number') return String(value);
      if (typeof value === 'boolean') return value ? 'True' : 'False';
      return fail('str type expected', 'type_error.str');
    case 'int':
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
      if (typeof value === 'string' && PY_INT.test(value)) return Number(value.replace(/_/g, ''));
      return fail('value is not a valid integer', 'type_error.integer');
    case 'float':
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value === 'number') return value;
      if (typeof value === 'string' && PY_FLOAT.test(value)) return Number(value.replace(/_/g, '').trim().replace(/^([+-]?)inf(inity)?$/i, '$1Infinity'));
      return fail('value is not a valid float', 'type_error.float');
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === 0) return value === 1;
      if (typeof value === 'string' && TRUE.has(value.toLowerCase())) return true;
      if (typeof value === 'string' && FALSE.has(value.toLowerCase())) return false;
      return fail('value could not be parsed to a boolean', 'type_error.bool');
    case 'dict':
      if (typeof value === 'object' && !Array.isArray(value)) return value;
      return fail('value is not a valid dict', 'type_error.dict');
    case 'list':
      if (Array.isArray(value)) return value;
      return fail('value is not a valid list', 'type_error.list');
    case 'list[str]':
      if (!Array.isArray(value)) return fail('value is not a valid list', 'type_error.list');
      return value.map((item: unknown, i) => coerce('str', item, [...loc, i], issues));
  }
}

export type Parsed =
  | { ok: true; fields: Record<string, unknown>; ignored: string[] }
  | { ok: false; issues: ValidationIssue[] };

/** The request body as the model makes it, or FastAPI's 422 issues. */
export function parseModel(text: string, model: Record<string, FieldType>): Parsed {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { ok: false, issues: [{ loc: ['body', 0], msg: (error as Error).message, type: 'value_error.jsondecode' }] };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, issues: [{ loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' }] };
  }
  const issues: ValidationIssue[] = [];
  const fields: Record<string, unknown> = { ...DEFAULTS };
  const ignored: string[] = [];
  // pydantic checks fields in the model's order, so its errors come in that order.
  for (const [key, type] of Object.entries(model)) {
    if (key in body) fields[key] = coerce(type, (body as Record<string, unknown>)[key], ['body', key], issues);
  }
  for (const key of Object.keys(body)) if (model[key] === undefined) ignored.push(key);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, fields, ignored };
}

/** pydantic 1's bool for a query parameter (`?skip_current_image=true`). */
export function parseBool(value: string): boolean | undefined {
  if (TRUE.has(value.toLowerCase())) return true;
  if (FALSE.has(value.toLowerCase())) return false;
  return undefined;
}
