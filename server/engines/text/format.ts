/** Small text helpers shared by the composers, and the last pass that enforces the answer's form. */
import { type Format } from './constraints';

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a wide shot", "an aerial view"; leaves phrases that already start with a determiner alone. */
export function withArticle(phrase: string): string {
  if (/^(?:a|an|the|some|its|his|her|their)\s/i.test(phrase)) return phrase;
  const vowel = /^[aeio]/i.test(phrase) || (/^u/i.test(phrase) && !/^u(?:ni|s[aeiu]|ti|ro|ku|ka)/i.test(phrase));
  const anSound = (vowel && !/^(?:one|once|eu)/i.test(phrase)) || /^(?:8|1[18](?!\d))/.test(phrase);
  return `${anSound || /^(?:hour|honest|heir)/i.test(phrase) ? 'an' : 'a'} ${phrase}`;
}

/** "a", "a and b", "a, b and c". */
export function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

const DANGLING = /[\s,;:–—-]+(?:and|or|with|of|in|on|at|the|a|an|to|by|from|for|its|their|like)?[\s,;:–—-]*$/i;

/** The first `limit` words of a text, without a dangling comma or conjunction at the cut. */
export function clipWords(text: string, limit: number): string {
  if (countWords(text) <= limit) return text;
  const parts = text.split(/(\s+)/);
  let words = 0;
  let out = '';
  for (const part of parts) {
    if (/[\p{L}\p{N}]/u.test(part)) {
      if (words === limit) break;
      words += 1;
    }
    out += part;
  }
  let clipped = out;
  for (let i = 0; i < 3; i++) clipped = clipped.replace(DANGLING, '');
  return clipped || out.trim();
}

/** Enforces the form instructions that apply to any answer: one line, word limit, letter case. */
export function finalize(text: string, format: Format): string {
  let out = text.trim();
  if (format.oneLine) out = out.replace(/\s*\n+\s*/g, ' ');
  if (format.wordLimit !== undefined && countWords(out) > format.wordLimit) {
    const clipped = clipWords(out, format.wordLimit);
    out = /[.!?]$/.test(out) && !/[.!?]$/.test(clipped) && !format.keywords ? `${clipped}.` : clipped;
  }
  if (format.lowercase) out = out.toLowerCase();
  if (format.uppercase) out = out.toUpperCase();
  return out;
}
