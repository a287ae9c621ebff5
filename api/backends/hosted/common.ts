/**
 * Translation steps fal and Replicate share: the prompt a model reads (prompt_2 and the style
 * preset folded in, weighting removed where the model reads it literally, a negative prompt only
 * where the model has one), the fields a model has no counterpart for, the size a request asks
 * for, and how many requests a number of images takes.
 */
import type { EngineId } from '../../catalog';
import { imageDefaults, type ImageMode, type ImageRequest } from '../../image-schema';
import type { FieldIssue } from '../../issues';
import { stripPromptWeights } from '../../prompt';
import { applyStyle, STYLES } from '../styles';
import type { TranslationNote } from '../types';

/** How a model reads prompts. */
export interface PromptTraits {
  /** The model takes a negative prompt. */
  negative: boolean;
  /** The model reads `(word:1.3)` as weighting (false: the weights are removed, the words kept). */
  weights: boolean;
  /** The model and provider, for notes: "FLUX.1 [dev] on fal". */
  who: string;
}

function plain(text: string, field: string, traits: PromptTraits, notes: TranslationNote[]): string {
  if (traits.weights) return text.trim();
  const stripped = stripPromptWeights(text);
  if (stripped !== text) {
    notes.push({ field, treatment: 'approximated', message: `has weighting like (word:1.3), which ${traits.who} reads literally: the weights are removed and the words kept` });
  }
  return stripped.trim();
}

function joined(first: string, second: string): string {
  return second === '' || second === first ? first : [first, second].filter((p) => p !== '').join(', ');
}

/** The prompt and (where the model has one) negative prompt as sent, with a note per change. */
export function composePrompts(request: ImageRequest, traits: PromptTraits, notes: TranslationNote[]): { prompt: string; negative?: string } {
  const first = plain(request.prompt, 'prompt', traits, notes);
  const second = request.prompt_2 === undefined ? '' : plain(request.prompt_2, 'prompt_2', traits, notes);
  let prompt = joined(first, second);
  if (prompt !== first) notes.push({ field: 'prompt_2', treatment: 'approximated', message: `is joined to prompt after a comma: ${traits.who} takes one prompt` });
  let negative = request.negative_prompt ?? '';
  const negative2 = request.negative_prompt_2 ?? '';
  if (traits.negative && negative2 !== '' && negative2 !== negative) {
    negative = joined(negative, negative2);
    notes.push({ field: 'negative_prompt_2', treatment: 'approximated', message: `is joined to negative_prompt after a comma: ${traits.who} takes one negative prompt` });
  }
  const preset = request.style_preset;
  if (preset !== undefined && preset !== 'base') {
    if (traits.negative) {
      ({ prompt, negative } = applyStyle(preset, prompt, negative));
      notes.push({ field: 'style_preset', treatment: 'approximated', message: `'${preset}' becomes words around the prompt and a few in the negative prompt (the table the backends share): ${traits.who} has no style presets` });
    } else {
      const { phrase } = STYLES[preset];
      prompt = prompt === '' ? phrase : `${prompt}, ${phrase}`;
      notes.push({ field: 'style_preset', treatment: 'approximated', message: `'${preset}' is added to the prompt as “${phrase}”: ${traits.who} has no style presets` });
    }
  }
  if (!traits.negative) {
    for (const field of ['negative_prompt', 'negative_prompt_2'] as const) {
      const value = request[field];
      if (value !== undefined && value.trim() !== '') notes.push({ field, treatment: 'not-sent', message: `${traits.who} takes no negative prompt; left out` });
    }
    return { prompt };
  }
  return { prompt, negative };
}

/** A note for each field in `table` the request sets (null seeds and false switches need none). */
export function leftOut(request: ImageRequest, table: Partial<Record<keyof ImageRequest, string>>, notes: TranslationNote[]): void {
  for (const [field, message] of Object.entries(table) as [keyof ImageRequest, string][]) {
    const value = request[field];
    if (value === undefined || value === null || value === false) continue;
    notes.push({ field, treatment: 'not-sent', message });
  }
}

/** The size a request asks for, the engine's default when it names none. */
export function wantedSize(engine: EngineId, request: ImageRequest): { width: number; height: number } {
  const defaults = imageDefaults(engine);
  return { width: request.width ?? defaults.width, height: request.height ?? defaults.height };
}

/** `total` images split into requests of at most `max`. */
export function splitCount(total: number, max: number): number[] {
  const counts: number[] = [];
  for (let left = total; left > 0; left -= max) counts.push(Math.min(max, left));
  return counts;
}

/** The request's mode in words, for refusals. */
export const MODE_WORDS: Record<ImageMode, string> = {
  'text-to-image': 'text to image',
  'image-to-image': 'image to image',
  inpainting: 'inpainting',
  controlnet: 'ControlNet',
  'subject-transfer': 'subject transfer',
};

/** The refusal of a mode a model cannot do, naming the field that selects the mode. */
export function modeRefusal(mode: ImageMode, who: string, hint: string): FieldIssue {
  const path = mode === 'inpainting' ? 'mask_image' : mode === 'image-to-image' ? 'init_image' : mode === 'controlnet' ? 'controlnet' : mode === 'subject-transfer' ? 'transfer_images' : 'prompt';
  return { path, message: `${who} cannot do ${MODE_WORDS[mode]}: ${hint}` };
}

/** A number kept within a model's range, with a note when it had to move. */
export function within(value: number, min: number, max: number, field: string, sentAs: string, who: string, notes: TranslationNote[]): number {
  const kept = Math.min(max, Math.max(min, value));
  if (kept !== value) notes.push({ field, treatment: 'approximated', message: `${value} becomes ${kept} (${sentAs}): ${who} takes ${min} to ${max}` });
  return kept;
}
