/**
 * The one prompt OpenAI Images reads, made from the service's prompt fields: weighting syntax
 * removed (OpenAI reads `(word:1.3)` literally), prompt_2 joined on, the style preset said in
 * words, and for subject transfer a sentence telling which reference images show which subject.
 */
import type { ImageRequest } from '../../image-schema';
import { stripPromptWeights } from '../../prompt';
import { STYLES } from '../styles';
import type { TranslationNote } from '../types';

function plain(text: string, field: 'prompt' | 'prompt_2', notes: TranslationNote[]): string {
  const stripped = stripPromptWeights(text);
  if (stripped !== text) {
    notes.push({ field, treatment: 'approximated', message: 'has weighting like (word:1.3), which OpenAI Images does not read: the weights are removed and the words kept' });
  }
  return stripped.trim();
}

/** The subject transfer sentence: "Images 1–3 show sks dog; image 4 shows my cat." */
export function referenceSentence(transfer: Record<string, string[]>): string {
  let next = 1;
  const parts = Object.entries(transfer).map(([word, images]) => {
    const first = next;
    next += images.length;
    const which = images.length === 1 ? `image ${first} shows` : `images ${first}–${next - 1} show`;
    return `${which} “${word}”`;
  });
  const sentence = parts.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/** The prompt as sent, with a note for each approximation. */
export function buildPrompt(request: ImageRequest, notes: TranslationNote[]): string {
  const parts = [plain(request.prompt, 'prompt', notes)];
  const second = request.prompt_2 === undefined ? '' : plain(request.prompt_2, 'prompt_2', notes);
  if (second !== '' && second !== parts[0]) {
    parts.push(second);
    notes.push({ field: 'prompt_2', treatment: 'approximated', message: 'is added after prompt on a new line: OpenAI Images takes one prompt' });
  }
  let prompt = parts.filter((p) => p !== '').join('\n');
  const preset = request.style_preset;
  // The phrase rather than the template: OpenAI's models follow a described picture, not a list
  // of diffusion tags, and with no negative prompt the template's other half has nowhere to go.
  if (preset !== undefined && preset !== 'base') {
    const { phrase } = STYLES[preset];
    prompt = prompt === '' ? phrase : `${prompt}, ${phrase}`;
    notes.push({ field: 'style_preset', treatment: 'approximated', message: `'${preset}' is added to the prompt as “${phrase}”: OpenAI Images has no style presets` });
  }
  if (request.transfer_images !== undefined) prompt = `${prompt}\n${referenceSentence(request.transfer_images)}`;
  return prompt;
}
