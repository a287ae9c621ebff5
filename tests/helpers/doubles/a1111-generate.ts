/**
 * The AUTOMATIC1111 double's `text2imgapi` / `img2imgapi` after the model check: the order of its
 * checks, what it quietly replaces, the steps, and the answer `{images, parameters, info}` with
 * real PNGs whose colour comes from the seed.
 *
 * Source: AUTOMATIC1111/stable-diffusion-webui modules/api/api.py (`text2imgapi`, `img2imgapi`,
 * `init_script_args`, `decode_base64_to_image`), modules/processing.py (`process_images`,
 * `process_images_inner`, `Processed.js`), modules/sd_vae.py, extensions-builtin/Lora/networks.py;
 * Mikubill/sd-webui-controlnet scripts/controlnet.py (`build_control_model`,
 * `find_closest_lora_model_name`) and internal_controlnet/args.py (`ControlNetUnit`).
 */
import sharp from 'sharp';
import { closestCheckpoint, checkpointIds, checkpointTitle, PREPROCESSORS, resolveSampler, stemOf } from './a1111-data';
import type { A1111DoubleOptions, CheckpointFile } from './a1111-data';

export interface GenerationRecord {
  route: 'txt2img' | 'img2img';
  /** The request's fields as the model made them. */
  fields: Record<string, unknown>;
  /** Fields the model does not have, which it ignored. */
  ignored: string[];
  sampler: string;
  scheduler: string;
  /** Title of the checkpoint that made the images. */
  checkpoint: string;
  /** An `override_settings.sd_model_checkpoint` it could not find, and so dropped. */
  checkpointDropped?: string;
  vae?: string | null;
  lorasUsed: string[];
  lorasMissing: string[];
  controlnet?: { module: string; model: string; loose: boolean };
  steps: number;
  stepsDone: number;
  interrupted: boolean;
  seeds: number[];
}

export type DoubleEvent =
  | { type: 'request'; method: string; path: string; query: string; authorization?: string }
  | { type: 'started'; generation: GenerationRecord }
  | { type: 'step'; step: number; steps: number }
  | { type: 'progress'; body: unknown }
  | { type: 'interrupt' }
  | { type: 'finished'; generation: GenerationRecord };

export interface ServerState {
  options: A1111DoubleOptions & { checkpoints: CheckpointFile[] };
  loaded: CheckpointFile;
  job: { step: number; steps: number; count: number; no: number; interrupted: boolean };
  emit(event: DoubleEvent): void;
  /** Resolves when the test lets the running generation take its next step (manual mode). */
  nextStep(): Promise<void>;
}

interface Outcome {
  status: number;
  body: unknown;
}

const failure = (status: number, error: string, detail: string, errors = ''): Outcome => ({ status, body: { error, detail, body: '', errors } });

/** Bound at load, so that a test counting the backend's decodes (a spy on Buffer.from) misses the double's. */
const bufferFrom = Buffer.from.bind(Buffer) as (text: string, encoding: BufferEncoding) => Buffer;

async function decodes(encoding: unknown): Promise<boolean> {
  if (typeof encoding !== 'string') return false;
  const b64 = encoding.startsWith('data:image/') ? (encoding.split(';')[1]?.split(',')[1] ?? '') : encoding;
  try {
    await sharp(bufferFrom(b64, 'base64')).metadata();
    return true;
  } catch {
    return false;
  }
}

const ALWAYSON = ['refiner', 'seed', 'sampler', 'hypertile', 'extra options'];

const RESIZE_MODES = ['Just Resize', 'Crop and Resize', 'Resize and Fill', 'Inner Fit (Scale to Fit)', 'Outer Fit (Shrink to Fit)', 'Scale to Fit (Inner Fit)', 'Envelope (Outer Fit)'];
const CONTROL_MODES = ['Balanced', 'My prompt is more important', 'ControlNet is more important'];
const unitError = (field: string, text: string) => failure(500, 'ValidationError', '', `1 validation error for ControlNetUnit\n${field}\n  ${text}`);

/** `ControlNetUnit`'s own field checks (pydantic 1): a failure surfaces as a 500 from the script. */
function unitFields(unit: Record<string, unknown>): Outcome | undefined {
  const { resize_mode: resize, control_mode: control, weight } = unit;
  if (typeof resize === 'string' && !RESIZE_MODES.includes(resize)) return unitError('resize_mode', `'${resize}' is not a valid ResizeMode (type=value_error)`);
  if (typeof control === 'string' && !CONTROL_MODES.includes(control)) {
    return unitError('control_mode', `value is not a valid enumeration member; permitted: ${CONTROL_MODES.map((m) => `'${m}'`).join(', ')} (type=type_error.enum)`);
  }
  if (typeof weight === 'number' && (weight < 0 || weight > 2)) {
    return unitError('weight', `ensure this value is ${weight < 0 ? 'greater than or equal to 0.0' : 'less than or equal to 2.0'} (type=value_error.number)`);
  }
  return undefined;
}

/** The ControlNet unit's checks, in the extension's order; a failure is what the API answers. */
async function controlUnit(state: ServerState, unit: Record<string, unknown>, record: GenerationRecord): Promise<Outcome | undefined> {
  const invalid = unitFields(unit);
  if (invalid !== undefined) return invalid;
  const module = String(unit.module ?? 'none');
  if (!PREPROCESSORS.has(module)) {
    return failure(500, 'ValidationError', '', `1 validation error for ControlNetUnit\nmodule\n  module(${module}) not found in supported modules. (type=value_error)`);
  }
  const models = state.options.controlnetModels ?? [];
  const model = String(unit.model ?? 'None');
  if (model === 'None') return failure(500, 'RuntimeError', '', 'You have not selected any ControlNet Model.');
  const named = models.find((m) => m === model) ?? models.find((m) => m.replace(/ \[[^\]]*\]$/, '').toLowerCase() === model.toLowerCase());
  const loose = named === undefined ? models.filter((m) => m.toLowerCase().includes(model.toLowerCase())).sort((a, b) => a.length - b.length)[0] : undefined;
  if (named === undefined && loose === undefined) return failure(500, 'RuntimeError', '', `model not found: ${model}`);
  if (unit.image === undefined || unit.image === null) return failure(500, 'ValueError', '', 'controlnet is enabled but no input image is given');
  if (!(await decodes(unit.image))) return failure(500, 'HTTPException', 'Invalid encoded image');
  record.controlnet = { module, model: (named ?? loose)!, loose: named === undefined };
  return undefined;
}

function applyOverrides(state: ServerState, fields: Record<string, unknown>, record: GenerationRecord): void {
  const override = (fields.override_settings ?? {}) as Record<string, unknown>;
  const wanted = override.sd_model_checkpoint;
  const found = state.options.checkpoints.find((c) => typeof wanted === 'string' && checkpointIds(c).includes(wanted));
  if (wanted !== undefined && found === undefined) record.checkpointDropped = String(wanted);
  record.checkpoint = checkpointTitle(found ?? state.loaded);
  if (found !== undefined && fields.override_settings_restore_afterwards === false) state.loaded = found;
  if ('sd_vae' in override) {
    const vae = String(override.sd_vae);
    record.vae = ['Automatic', 'None', ...(state.options.vaes ?? [])].includes(vae) ? vae : null;
  }
  const prompt = String(fields.prompt ?? '');
  for (const match of prompt.matchAll(/<(\w+):([^>]+)>/g)) {
    if (match[1] !== 'lora' && match[1] !== 'lyco') continue;
    const name = (match[2] ?? '').split(':')[0] ?? '';
    const known = (state.options.loras ?? []).some((l) => l.name === name || l.alias === name);
    (known ? record.lorasUsed : record.lorasMissing).push(name);
  }
}

export async function runGeneration(
  state: ServerState, route: 'txt2img' | 'img2img', fields: Record<string, unknown>, ignored: string[], generations: GenerationRecord[],
): Promise<Outcome> {
  if (route === 'img2img') {
    if (fields.init_images === undefined || fields.init_images === null) return failure(404, 'HTTPException', 'Init image not found');
    if (fields.mask && !(await decodes(fields.mask))) return failure(500, 'HTTPException', 'Invalid encoded image');
  }
  const given = (fields.sampler_name || fields.sampler_index) as string | null;
  const [sampler, scheduler] = resolveSampler(given, fields.scheduler as string | null);
  const asked = (fields.scheduler as string | null) || (scheduler !== 'Automatic' ? scheduler : null);
  const [finalSampler, finalScheduler] = resolveSampler(sampler, asked, false);
  for (const name of Object.keys((fields.alwayson_scripts ?? {}) as object)) {
    const installed = [...ALWAYSON, ...(state.options.controlnetModels !== undefined ? ['controlnet'] : [])];
    if (!installed.includes(name.toLowerCase())) return failure(422, 'HTTPException', `Script '${name}' not found`);
  }
  const record: GenerationRecord = {
    route, fields, ignored, sampler: finalSampler, scheduler: finalScheduler, checkpoint: '', lorasUsed: [], lorasMissing: [],
    steps: 0, stepsDone: 0, interrupted: false, seeds: [],
  };
  applyOverrides(state, fields, record);
  const refiner = fields.refiner_checkpoint;
  if (typeof refiner === 'string' && !['', 'None', 'none'].includes(refiner) && closestCheckpoint(state.options.checkpoints, refiner) === undefined) {
    return failure(500, 'Exception', '', `Could not find checkpoint with name ${refiner}`);
  }
  if (route === 'img2img') {
    for (const image of fields.init_images as unknown[]) if (!(await decodes(image))) return failure(500, 'HTTPException', 'Invalid encoded image');
  }
  const units = ((fields.alwayson_scripts as Record<string, { args?: unknown[] }> | undefined)?.controlnet?.args ?? []) as Record<string, unknown>[];
  for (const unit of units.filter((u) => typeof u === 'object' && u !== null && u.enabled === true)) {
    const failed = await controlUnit(state, unit, record);
    if (failed !== undefined) return failed;
  }
  const width = Math.max(8, Math.floor(Number(fields.width) / 8) * 8);
  const height = Math.max(8, Math.floor(Number(fields.height) / 8) * 8);
  const count = Number(fields.batch_size) * Number(fields.n_iter);
  if (state.options.vramPixels !== undefined && width * height * count > state.options.vramPixels) {
    return failure(500, 'OutOfMemoryError', '', 'CUDA out of memory. Tried to allocate 5.00 GiB (GPU 0; 8.00 GiB total capacity; 6.10 GiB already allocated; 0 bytes free; 6.50 GiB reserved in total by PyTorch)');
  }
  generations.push(record);
  const { job } = state;
  const steps = Number(fields.steps);
  Object.assign(job, { count: 1, no: 0, step: 0, interrupted: false });
  job.steps = route === 'img2img' ? Math.floor(Math.min(Number(fields.denoising_strength), 0.999) * steps) + 1 : steps;
  record.steps = job.steps;
  state.emit({ type: 'started', generation: record });
  for (let i = 1; i <= job.steps; i++) {
    await state.nextStep();
    if (job.interrupted) break;
    job.step = i;
    record.stepsDone = i;
    state.emit({ type: 'step', step: i, steps: job.steps });
  }
  record.interrupted = job.interrupted;
  const seed = fields.seed === null || Number(fields.seed) === -1 ? 4_000_000 + generations.length : Number(fields.seed);
  record.seeds = Array.from({ length: count }, (_, i) => seed + i);
  const images = await Promise.all(record.seeds.map((s) => solidPng(width, height, s)));
  for (const unit of units) if (unit.enabled === true && unit.module !== 'none' && unit.save_detected_map !== false) images.push(await solidPng(width, height, 0));
  Object.assign(job, { count: 0, no: 0, step: 0, steps: 0, interrupted: false });
  state.emit({ type: 'finished', generation: record });
  const parameters = { ...fields, ...(route === 'img2img' && fields.include_init_images !== true ? { init_images: null, mask: null } : {}) };
  const info = {
    prompt: fields.prompt, all_prompts: record.seeds.map(() => fields.prompt), negative_prompt: fields.negative_prompt,
    seed, all_seeds: record.seeds, subseed: seed, all_subseeds: record.seeds, width, height, sampler_name: finalSampler,
    cfg_scale: fields.cfg_scale, steps, batch_size: fields.batch_size, sd_model_name: stemOf(record.checkpoint.replace(/ \[.*\]$/, '')),
    index_of_first_image: 0, styles: [], clip_skip: 1, version: 'v1.10.1',
  };
  return { status: 200, body: { images, parameters, info: JSON.stringify(info) } };
}

/** A PNG of one colour, which the seed decides, so tests can tell images apart. */
export async function solidPng(width: number, height: number, seed: number): Promise<string> {
  const background = { r: (seed * 67) % 256, g: (seed * 131) % 256, b: (seed * 29) % 256 };
  const png = await sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
  return png.toString('base64');
}
