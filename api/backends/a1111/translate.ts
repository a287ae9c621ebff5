/**
 * A request in the service's terms as AUTOMATIC1111's `/sdapi/v1/txt2img` or `/img2img` payload,
 * from the request alone: what is sent, what is approximated or left out (and why), what makes
 * the request impossible here, and which names the server must have.
 *
 * Every value is sent explicitly, the defaults included: AUTOMATIC1111's own (50 steps, CFG 7,
 * its last-used sampler) are not the service's. Images go as the base64 they came as (the API
 * decodes any format PIL reads), so nothing here decodes or re-encodes one.
 *
 * Source: modules/api/api.py and modules/api/models.py (the routes and their fields),
 * modules/processing.py (what each field means).
 */
import { isSdxlEngine, type EngineId } from '../../catalog';
import { imageDefaults, imageMode, SDXL_ONLY_FIELDS, type ImageRequest } from '../../image-schema';
import type { FieldIssue } from '../../issues';
import type { BackendNamesConfig } from '../config';
import { applyStyle } from '../styles';
import type { TranslationNote } from '../types';
import { assetName, withoutExtension } from './assets';
import { controlUnit } from './controlnet';
import { promptLiteral, toA1111Prompt } from './prompt';
import { A1111_SAMPLERS } from '../samplers';

/** A name the server must have, and the request field it came from. */
export interface NeededName {
  field: string;
  name: string;
  /** Taken from the backend's settings rather than the request. */
  fromSettings?: boolean;
}

export interface NameNeeds {
  checkpoint?: NeededName;
  refiner?: NeededName;
  vae?: NeededName;
  loras: NeededName[];
  embeddings: NeededName[];
  controlnet?: NeededName;
  /** Whether the checkpoint changes for this request (embeddings skipped now may then load). */
  checkpointChanges: boolean;
}

export interface Translation {
  route: 'txt2img' | 'img2img';
  payload: Record<string, unknown>;
  notes: TranslationNote[];
  refusals: FieldIssue[];
  needs: NameNeeds;
}

const joined = (a: string, b: string | undefined): string => (b === undefined || b.trim() === '' || b === a ? a : [a, b].filter((s) => s.trim() !== '').join(', '));

/** A whole-word, case-sensitive match of a trigger word. */
const wordPattern = (word: string, flags: string): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}_])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_])`, flags);

function prompts(engine: EngineId, req: ImageRequest, names: BackendNamesConfig | undefined, out: Translation): { prompt: string; negative: string } {
  const { notes, refusals, needs } = out;
  let prompt = req.prompt;
  let negative = req.negative_prompt ?? '';
  if (isSdxlEngine(engine)) {
    const both = joined(prompt, req.prompt_2);
    if (both !== prompt) {
      notes.push({ field: 'prompt_2', treatment: 'approximated', message: "joined to prompt after a comma: AUTOMATIC1111 gives SDXL's two text encoders one prompt" });
    }
    const bothNegative = joined(negative, req.negative_prompt_2);
    if (bothNegative !== negative) {
      notes.push({ field: 'negative_prompt_2', treatment: 'approximated', message: 'joined to negative_prompt after a comma: AUTOMATIC1111 has one negative prompt' });
    }
    prompt = both;
    negative = bothNegative;
  }
  prompt = toA1111Prompt(prompt);
  negative = toA1111Prompt(negative);
  if (isSdxlEngine(engine) && req.style_preset !== undefined && req.style_preset !== 'base') {
    ({ prompt, negative } = applyStyle(req.style_preset, prompt, negative));
    notes.push({
      field: 'style_preset', treatment: 'approximated',
      message: `'${req.style_preset}' becomes words around the prompt and in the negative prompt; AUTOMATIC1111's own styles are names kept on its server`,
    });
  }
  for (const [asset, trigger] of Object.entries(req.textual_inversions ?? {})) {
    const field = `textual_inversions.${asset}`;
    const embedding = withoutExtension(assetName(names, field, asset, notes));
    const found = wordPattern(trigger, 'u');
    if (!found.test(prompt) && !found.test(negative)) {
      notes.push({ field, treatment: 'not-sent', message: `its trigger word '${trigger}' is in neither prompt, so the embedding would not be used` });
      continue;
    }
    if (trigger !== embedding) {
      const literal = promptLiteral(embedding);
      prompt = prompt.replace(wordPattern(trigger, 'gu'), () => literal);
      negative = negative.replace(wordPattern(trigger, 'gu'), () => literal);
      notes.push({ field, treatment: 'approximated', message: `the trigger word '${trigger}' is replaced in the prompts by '${embedding}': AUTOMATIC1111 uses an embedding where its name is written` });
    }
    needs.embeddings.push({ field, name: embedding });
  }
  const tags: string[] = [];
  for (const [asset, weight] of Object.entries(req.loras ?? {})) {
    const field = `loras.${asset}`;
    const lora = withoutExtension(assetName(names, field, asset, notes));
    if (/[:<>]/.test(lora)) {
      refusals.push({ path: field, message: `the name '${lora}' cannot be written in AUTOMATIC1111's <lora:name:weight> (it holds ':', '<' or '>')` });
      continue;
    }
    tags.push(`<lora:${lora}:${weight}>`);
    needs.loras.push({ field, name: lora });
  }
  if (tags.length > 0) prompt = [prompt, ...tags].filter((s) => s !== '').join(' ');
  return { prompt, negative };
}

/** Width and height as AUTOMATIC1111 makes them: its latents are an eighth of the size, rounded down. */
function size(field: 'width' | 'height', value: number, notes: TranslationNote[]): number {
  const made = Math.max(8, Math.floor(value / 8) * 8);
  if (made !== value) notes.push({ field, treatment: 'approximated', message: `${value} becomes ${made}: AUTOMATIC1111 makes sizes in multiples of 8` });
  return made;
}

/**
 * `image` is applied to each image as it goes into the payload: the record's description in
 * `review`, so that a large image is never scanned there.
 */
export function translate(engine: EngineId, req: ImageRequest, names: BackendNamesConfig | undefined, image: (b64: string) => string = (b64) => b64): Translation {
  const d = imageDefaults(engine);
  const mode = imageMode(req);
  const out: Translation = { route: 'txt2img', payload: {}, notes: [], refusals: [], needs: { loras: [], embeddings: [], checkpointChanges: false } };
  const { notes, refusals, needs } = out;
  if (mode === 'subject-transfer') {
    refusals.push({
      path: 'transfer_images',
      message: 'AUTOMATIC1111 cannot do subject transfer: its API has no way to carry a subject from sample images into a new picture',
    });
  }
  if (!isSdxlEngine(engine)) {
    for (const field of SDXL_ONLY_FIELDS) {
      if (req[field] !== undefined) notes.push({ field, treatment: 'not-sent', message: `applies to SDXL engines only, not to ${engine}` });
    }
  }
  const { prompt, negative } = prompts(engine, req, names, out);
  const sampler = A1111_SAMPLERS[req.sampler ?? d.sampler];
  if (sampler.approximation !== undefined) notes.push({ field: 'sampler', treatment: 'approximated', message: sampler.approximation });
  const override: Record<string, string> = {};
  const checkpoint = req.checkpoint === undefined ? names?.checkpoint : assetName(names, 'checkpoint', req.checkpoint, notes);
  if (checkpoint === undefined) {
    notes.push({
      field: 'checkpoint', treatment: 'approximated',
      message: `uses whatever checkpoint AUTOMATIC1111 has loaded: no checkpoint is set for the ${engine} engine in the backend's settings, so a model of another family would go unnoticed`,
    });
  } else {
    override.sd_model_checkpoint = checkpoint;
    needs.checkpoint = { field: 'checkpoint', name: checkpoint, ...(req.checkpoint === undefined ? { fromSettings: true } : {}) };
    needs.checkpointChanges = true;
  }
  if (req.vae !== undefined) {
    override.sd_vae = assetName(names, 'vae', req.vae, notes);
    needs.vae = { field: 'vae', name: override.sd_vae };
  }
  const payload: Record<string, unknown> = {
    prompt, negative_prompt: negative,
    seed: req.seed ?? -1,
    sampler_name: sampler.sampler_name, scheduler: sampler.scheduler,
    batch_size: req.num_images ?? d.num_images, n_iter: 1,
    steps: req.steps ?? d.steps,
    cfg_scale: req.cfg_scale ?? d.cfg_scale,
    width: size('width', req.width ?? d.width, notes),
    height: size('height', req.height ?? d.height, notes),
    override_settings: override,
    override_settings_restore_afterwards: true,
    send_images: true, save_images: false,
  };
  if (isSdxlEngine(engine) && req.use_refiner === true) {
    if (names?.refiner === undefined) {
      notes.push({ field: 'use_refiner', treatment: 'not-sent', message: "no refiner checkpoint is set in the backend's settings, so the base model does every step" });
    } else {
      payload.refiner_checkpoint = names.refiner;
      payload.refiner_switch_at = req.high_noise_frac ?? d.high_noise_frac;
      needs.refiner = { field: 'use_refiner', name: names.refiner };
    }
  }
  if (req.init_image !== undefined) {
    out.route = 'img2img';
    Object.assign(payload, { init_images: [image(req.init_image)], resize_mode: 0, denoising_strength: req.strength ?? d.strength });
    if (req.mask_image !== undefined) {
      // The whole picture at the asked size, the mask as given (white is painted), unblurred,
      // starting from the original pixels: what an inpainting pipeline with a strength does.
      Object.assign(payload, {
        mask: image(req.mask_image), inpainting_mask_invert: 0, inpainting_fill: 1, inpaint_full_res: false,
        mask_blur_x: 0, mask_blur_y: 0,
      });
    }
  }
  if (req.controlnet !== undefined) {
    const unit = controlUnit(req, names, notes, refusals, image);
    if (unit !== undefined) {
      payload.alwayson_scripts = { controlnet: { args: [unit.args] } };
      needs.controlnet = { field: 'controlnet', name: unit.model };
    }
  }
  out.payload = payload;
  return out;
}
