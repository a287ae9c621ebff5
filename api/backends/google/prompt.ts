/**
 * The text part of a Gemini request: the service's prompt fields made into one instruction, and for
 * image to image, inpainting and subject transfer the sentence that tells the model what the image
 * parts before it are. Gemini reads plain language: weighting syntax is removed, the style preset is
 * said in words, and what the service does with numbers (strength) or pixels (the mask) is asked for
 * in words, which the model follows as it sees fit (said in the review).
 */
import type { ImageMode, ImageRequest } from '../../image-schema';
import { stripPromptWeights } from '../../prompt';
import { referenceSentence } from '../openai/prompt-text';
import { STYLES } from '../styles';
import type { TranslationNote } from '../types';
import { LABEL } from './label';

function plain(text: string, field: 'prompt' | 'prompt_2', notes: TranslationNote[]): string {
  const stripped = stripPromptWeights(text);
  if (stripped !== text) {
    notes.push({ field, treatment: 'approximated', message: `has weighting like (word:1.3), which ${LABEL} does not read: the weights are removed and the words kept` });
  }
  return stripped.trim();
}

/** How much of the input image to keep, in words, from the service's strength (0 keeps all, 1 keeps nothing). */
function keepWords(strength: number): string {
  if (strength <= 0.35) return 'Keep it very close to the original: change only what the text asks for.';
  if (strength <= 0.65) return 'Keep its composition, subject and colours; change what the text asks for.';
  return 'Use it as a starting point: you may change it freely.';
}

/** The words of the request's own prompt fields, with a note for each approximation. */
function describe(request: ImageRequest, notes: TranslationNote[]): string {
  const parts = [plain(request.prompt, 'prompt', notes)];
  const second = request.prompt_2 === undefined ? '' : plain(request.prompt_2, 'prompt_2', notes);
  if (second !== '' && second !== parts[0]) {
    parts.push(second);
    notes.push({ field: 'prompt_2', treatment: 'approximated', message: `is added after prompt on a new line: ${LABEL} takes one prompt` });
  }
  let text = parts.filter((p) => p !== '').join('\n');
  const preset = request.style_preset;
  if (preset !== undefined && preset !== 'base') {
    const { phrase } = STYLES[preset];
    text = text === '' ? phrase : `${text}, ${phrase}`;
    notes.push({ field: 'style_preset', treatment: 'approximated', message: `'${preset}' is added to the prompt as “${phrase}”: ${LABEL} has no style presets` });
  }
  return text;
}

/** The instruction sent as the request's last text part, for `mode`. */
export function buildInstruction(request: ImageRequest, mode: ImageMode, strength: number, notes: TranslationNote[]): string {
  const text = describe(request, notes);
  switch (mode) {
    case 'image-to-image':
      notes.push({ field: 'strength', treatment: 'approximated', message: `${strength} is said in words (“${keepWords(strength)}”): ${LABEL} has no strength, the model decides how much of the image changes` });
      return `Edit this image. ${keepWords(strength)}\n${text}`;
    case 'inpainting':
      notes.push({ field: 'mask_image', treatment: 'approximated', message: `is sent as a second image with an instruction to change only its white area: ${LABEL} takes no mask, so pixels outside it may change too` });
      if (request.strength !== undefined) {
        notes.push({ field: 'strength', treatment: 'not-sent', message: `${LABEL} has no strength; in inpainting the masked area is redrawn as the text asks` });
      }
      return `The first image is a picture; the second image is a mask of it. Change only the part of the picture where the mask is white, as described below, and keep everything where the mask is black exactly as it is. Answer with the whole edited picture.\n${text}`;
    case 'subject-transfer':
      notes.push({ field: 'transfer_images', treatment: 'approximated', message: `the sample images are sent as reference images with a sentence saying which show which trigger word; ${LABEL} is not trained on the subject, so the likeness is approximate` });
      return `${referenceSentence(request.transfer_images ?? {})} Make a new picture of them as described:\n${text}`;
    default:
      return text;
  }
}
