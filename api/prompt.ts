/**
 * Prompt weighting (docs/service-interface.md 2.3) and the prompt token count used for the 77 (SDXL)
 * and 231 (SD 1.5) limits.
 *
 * Syntax, as the service describes it and as the A1111-style parsers it follows read it:
 * - `(text)` multiplies the weight of what is inside by 1.1; nesting multiplies, so `((text))` is
 *   1.21 and `(((text)))` 1.331;
 * - `(text: w)` gives what is inside the weight w instead of 1.1 (spaces around the colon and the
 *   number are allowed); w is a decimal number (`1.5`, `.5`, `2`, `-0.5`), with no exponent;
 * - a token's weight is the product of the weights of all the groups it is in: `((a): 1.5)` gives
 *   `a` 1.65 and `(a (b): 2)` gives `a` 2 and `b` 2.2.
 *
 * Where the interface is silent, the choices here are the ones a user expects and the service most
 * plausibly makes:
 * - a `(` or `)` without a partner is literal text (and counts as text), as is any bracket written
 *   `\(` or `\)`; `\\` is a literal backslash;
 * - a colon not followed by a number and the closing bracket is text: `(photo: portrait)` is
 *   "photo: portrait" at 1.1; in `(a:1.2:1.3)` only the last `:1.3` is a weight;
 * - square brackets and braces have no meaning here (the interface defines none) and are text;
 * - weights are products as written, negative ones included, but clamped to
 *   ±{@link MAX_PROMPT_WEIGHT} so that deep nesting or absurd numbers never give Infinity or NaN;
 *   {@link analyzePrompt} reports these cases as warnings for the editor.
 *
 * Token counting follows how A1111-style encoders feed a weighted prompt to CLIP: each piece of
 * text between weighting marks is tokenized on its own, so `photo(graph)` is two words, and the
 * brackets, colons and weight numbers count nothing (rule 5).
 */
import { clipPretokenize, estimateClipTokens } from './clip-tokens';

/** The weight `(text)` gives: 1.1 per level of parentheses. */
export const EMPHASIS = 1.1;
/** Explicit weights above this are legal but usually a mistake, and reported as a warning. */
export const STRONG_WEIGHT = 3;
/** Largest weight magnitude a token can reach; products beyond it are clamped. */
export const MAX_PROMPT_WEIGHT = 1e6;

/** A piece of prompt text and its weight. Adjacent pieces of equal weight are merged. */
export interface WeightedChunk {
  text: string;
  weight: number;
}

/** Something in a prompt that parses but probably is not what its author meant. */
export interface PromptWarning {
  /** Offset in the prompt, in UTF-16 code units, of the character concerned. */
  index: number;
  message: string;
}

export interface PromptAnalysis {
  chunks: WeightedChunk[];
  warnings: PromptWarning[];
}

const TEXT = 0;
const OPEN = 1;
const CLOSE = 2;

/** Bracket events as parallel arrays: no object per bracket, so 20,000 brackets stay cheap. */
interface Events {
  kinds: number[];
  /** The text of a TEXT event; '' for the others. */
  texts: string[];
  /** An OPEN event's group weight; NaN while it has no closing bracket (and for good if none comes). */
  weights: number[];
  /** Where an OPEN event's bracket is in the prompt. */
  offsets: number[];
}

const WEIGHT_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v';
}

/**
 * `text: 1.5` at the end of a group's last piece of text: the text before the colon and the weight.
 * Scans back from the end only over the number and spaces, so the whole parse stays linear.
 */
function trailingWeight(text: string): { text: string; weight: number; written: string } | undefined {
  let end = text.length;
  while (end > 0 && isSpace(text[end - 1])) end--;
  let start = end;
  while (start > 0 && /[0-9.]/.test(text[start - 1] ?? '')) start--;
  if (start > 0 && (text[start - 1] === '+' || text[start - 1] === '-')) start--;
  const number = text.slice(start, end);
  if (!WEIGHT_NUMBER.test(number)) return undefined;
  let colon = start;
  while (colon > 0 && isSpace(text[colon - 1])) colon--;
  if (text[colon - 1] !== ':') return undefined;
  return { text: text.slice(0, colon - 1), weight: Number(number), written: number };
}

/** Products like 1.1 * 1.1 * 1.1 come out as 1.3310000000000004; weights are kept to 12 digits. */
function normalizeWeight(weight: number): number {
  const clamped = Math.max(-MAX_PROMPT_WEIGHT, Math.min(MAX_PROMPT_WEIGHT, weight));
  return Number(clamped.toPrecision(12)) || 0;
}

/** One warning for the first of a kind of unmatched bracket, however many there are. */
function warnUnmatched(warnings: PromptWarning[], at: readonly number[], what: string, escape: string): void {
  const first = at[0];
  if (first === undefined) return;
  const more = at.length > 1 ? ` (and ${at.length - 1} more)` : '';
  warnings.push({ index: first, message: `${what}${more}; kept as text. Write ${escape} for a literal bracket` });
}

/** Splits a prompt into bracket events, resolving escapes and explicit weights. Linear time. */
function scan(prompt: string, warnings: PromptWarning[]): Events {
  const events: Events = { kinds: [], texts: [], weights: [], offsets: [] };
  const push = (kind: number, text: string, offset: number) => {
    events.kinds.push(kind);
    events.texts.push(text);
    events.weights.push(NaN);
    events.offsets.push(offset);
  };
  const open: number[] = [];
  const strayClosers: number[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer !== '') push(TEXT, buffer, -1);
    buffer = '';
  };
  for (let i = 0; i < prompt.length; i++) {
    const ch = prompt[i];
    const next = prompt[i + 1];
    if (ch === '\\' && (next === '(' || next === ')' || next === '\\')) {
      buffer += next;
      i++;
    } else if (ch === '(') {
      flush();
      open.push(events.kinds.length);
      push(OPEN, '', i);
    } else if (ch === ')') {
      const opener = open.pop();
      if (opener === undefined) {
        strayClosers.push(i);
        buffer += ch;
        continue;
      }
      // A weight belongs to the group whose text it ends: in "((a): 2)" the outer group weighs 2,
      // in "((a: 2))" the inner one does and the outer one keeps 1.1.
      const explicit = trailingWeight(buffer);
      events.weights[opener] = explicit === undefined ? EMPHASIS : normalizeWeight(explicit.weight);
      if (explicit !== undefined) {
        buffer = explicit.text;
        const warning = weightWarning(explicit.weight, explicit.written);
        if (warning !== undefined) warnings.push({ index: i, message: warning });
      }
      flush();
      push(CLOSE, '', i);
    } else {
      buffer += ch;
    }
  }
  flush();
  warnUnmatched(warnings, open.map((opener) => events.offsets[opener] ?? 0), "'(' is never closed", '\\(');
  warnUnmatched(warnings, strayClosers, "')' has no matching '('", '\\)');
  return events;
}

function weightWarning(weight: number, number: string): string | undefined {
  const written = number.length > 12 ? `${number.slice(0, 12)}…` : number;
  if (Math.abs(weight) > MAX_PROMPT_WEIGHT) return `weight ${written} is beyond ±${MAX_PROMPT_WEIGHT} and is clamped`;
  if (weight < 0) return `weight ${written} is negative: it inverts the meaning of the words it covers`;
  // "(aspect 16:9)" reads as weight 9; say so, since the author probably meant text.
  if (weight > STRONG_WEIGHT) return `weight ${written} is far above the usual 0.5 to 1.5; if ':${written}' is meant as text, put a word after it`;
  return undefined;
}

/**
 * Parses a prompt's weighting syntax into text pieces with their weights, and lists what looks
 * like a mistake (unbalanced brackets, negative, clamped or implausibly strong weights).
 */
export function analyzePrompt(prompt: string): PromptAnalysis {
  const warnings: PromptWarning[] = [];
  const { kinds, texts, weights, offsets } = scan(prompt, warnings);
  const chunks: WeightedChunk[] = [];
  const stack: number[] = [1];
  let clampReported = false;
  const emit = (text: string, weight: number) => {
    if (text === '') return;
    const last = chunks[chunks.length - 1];
    if (last !== undefined && last.weight === weight) last.text += text;
    else chunks.push({ text, weight });
  };
  for (let k = 0; k < kinds.length; k++) {
    const current = stack[stack.length - 1] ?? 1;
    const groupWeight = weights[k] ?? NaN;
    if (kinds[k] === TEXT) {
      emit(texts[k] ?? '', current);
    } else if (kinds[k] === CLOSE) {
      stack.pop();
    } else if (Number.isNaN(groupWeight)) {
      emit('(', current);
    } else {
      const product = current * groupWeight;
      if (Math.abs(product) > MAX_PROMPT_WEIGHT && !clampReported) {
        clampReported = true;
        warnings.push({ index: offsets[k] ?? 0, message: `nesting makes a weight of ${product.toPrecision(3)}, beyond ±${MAX_PROMPT_WEIGHT}; it is clamped` });
      }
      stack.push(normalizeWeight(product));
    }
  }
  warnings.sort((x, y) => x.index - y.index);
  return { chunks, warnings };
}

/** The prompt's text pieces with their weights (2.3), adjacent equal weights merged. */
export function parsePromptWeights(prompt: string): WeightedChunk[] {
  return analyzePrompt(prompt).chunks;
}

/** The prompt's text with the weighting syntax removed. */
export function stripPromptWeights(prompt: string): string {
  return parsePromptWeights(prompt).map((chunk) => chunk.text).join('');
}

/** One CLIP word piece (a word, a digit or a punctuation run) and its weight. */
export interface WeightedToken {
  text: string;
  weight: number;
}

/** The prompt as CLIP's pre-tokenizer splits it, lowercased, each piece with its weight. */
export function weightedPromptTokens(prompt: string): WeightedToken[] {
  return parsePromptWeights(prompt).flatMap((chunk) =>
    clipPretokenize(chunk.text).map((text) => ({ text, weight: chunk.weight })));
}

/** The prompt as CLIP's pre-tokenizer splits it (words, digits, punctuation runs), syntax removed. */
export function tokenizePrompt(prompt: string): string[] {
  return weightedPromptTokens(prompt).map((token) => token.text);
}

/**
 * Estimated CLIP token count of a prompt, as checked against the 77 / 231 limits: weighting
 * syntax does not count, start and end tokens are not included. See clip-tokens.ts for how close
 * the estimate is.
 */
export function countPromptTokens(prompt: string): number {
  let total = 0;
  for (const chunk of parsePromptWeights(prompt)) total += estimateClipTokens(chunk.text);
  return Math.round(total);
}
