/**
 * The service's prompt syntax (2.3) in AUTOMATIC1111's. Both read `(text)` as 1.1, nest by
 * multiplying and take `(text: w)`; AUTOMATIC1111 reads more: `[text]` lowers a weight and
 * `[a:b:0.5]` edits the prompt mid-run, `AND` composes prompts, `BREAK` starts a new chunk, and a
 * `(` never closed weights the rest of the prompt, where the service reads them all as text.
 * Such a prompt is rewritten from its weighted pieces with those characters escaped (and the two
 * words in lower case, which CLIP does to every word anyway); any other prompt goes as written.
 *
 * Source: modules/prompt_parser.py (`parse_prompt_attention`, `re_AND`, `re_break`).
 */
import { parsePromptWeights } from '../../prompt';

const CARE = /[[\]]|\bAND\b|\bBREAK\b/;

/** Whether every unescaped `(` has its `)`, and no `)` comes first. */
function balanced(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

const escapeText = (text: string): string => text
  .replace(/[\\()[\]]/g, (ch) => `\\${ch}`)
  .replace(/\b(AND|BREAK)\b/g, (word) => word.toLowerCase());

const formatWeight = (weight: number): string => String(Math.round(weight * 10_000) / 10_000);

/** `text` as AUTOMATIC1111 must be sent it to mean what the service would make of it. */
export function toA1111Prompt(text: string): string {
  if (!CARE.test(text) && balanced(text)) return text;
  return parsePromptWeights(text)
    .map(({ text: piece, weight }) => (weight === 1 ? escapeText(piece) : `(${escapeText(piece)}:${formatWeight(weight)})`))
    .join('');
}

/** A name (an embedding's) written into a prompt as text. */
export const promptLiteral = escapeText;
