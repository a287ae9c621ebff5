/**
 * The words of a prompt with their weights, from the shared weighting parser (api/prompt.ts),
 * lower-cased for lookup. Weights are clamped to ±3: beyond that a picture cannot get any more
 * of a colour, and a runaway `((((...))))` must not blow the palette up.
 */
import { parsePromptWeights } from '../../../api/prompt';

export interface WeightedWord {
  word: string;
  weight: number;
}

const WORD = /[\p{L}\p{N}'_-]+/gu;

/** Words (letters, digits, apostrophes, '-' and '_') of a prompt with their weights, in order. */
export function weightedWords(text: string): WeightedWord[] {
  const out: WeightedWord[] = [];
  for (const chunk of parsePromptWeights(text)) {
    const weight = Math.max(-3, Math.min(3, chunk.weight));
    for (const match of chunk.text.toLowerCase().matchAll(WORD)) {
      const word = match[0].replace(/^['_-]+|['_-]+$/g, '');
      if (word !== '') out.push({ word, weight });
    }
  }
  return out;
}
