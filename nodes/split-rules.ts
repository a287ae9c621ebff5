/**
 * Turning a text into a list of texts, the way people and chat models write lists: one per line
 * (bullets, numbers and quotes around an item taken off), numbered items that may run over
 * several lines, items between separators, or a JSON array of strings (inside a code fence, after
 * a sentence of preamble, or as the one array of an object, as chat models write it). Used by
 * Split text and by the Chat prompt writer's list answers. Empty items are dropped and counted.
 */
import { z } from 'zod';

export const SPLIT_MODES = ['lines', 'numbered', 'separator', 'json'] as const;
export type SplitMode = (typeof SPLIT_MODES)[number];

/** The most items one split gives: a runaway text must not become a runaway fan-out. */
export const MAX_ITEMS = 10_000;

export interface SplitResult {
  items: string[];
  /** Empty items left out (blank lines, separators side by side). */
  dropped: number;
  /** Text before the first item that was not one (a numbered list's "Here are eight prompts:"). */
  preamble?: string;
}

/** Why a text cannot be split as asked (a JSON answer that is not an array of strings). */
export class SplitError extends Error {
  override readonly name = 'SplitError';
}

/**
 * "- ", "* ", "• ", "1. ", "1) ", "(1) " at the start of an item. The space after it is required,
 * so "3.5 mm lens" and "-5 degrees" keep their numbers.
 */
const MARKER = /^(?:[-*•–—+]\s+|\d{1,4}[.)]\s+|\(\d{1,4}\)\s+)/u;
const NUMBERED = /^\s*(?:\d{1,4}[.)]|\(\d{1,4}\))\s+/u;
/** A code fence line (```, ```text): chat models put lists inside them. */
const FENCE = /^\s*```[\w-]*\s*$/u;
const QUOTES: readonly [string, string][] = [['"', '"'], ['“', '”'], ["'", "'"], ['‘', '’'], ['«', '»']];

/** The item without a list marker, Markdown emphasis wrapped round it, or quotes round it. */
function cleanItem(text: string): string {
  let item = text.trim().replace(MARKER, '').trim();
  const bold = /^(\*\*|__)(.+)\1$/u.exec(item);
  if (bold) item = bold[2]!.trim();
  for (const [open, close] of QUOTES) {
    if (item.length >= 2 && item.startsWith(open) && item.endsWith(close)) return item.slice(open.length, -close.length).trim();
  }
  return item;
}

function keep(raw: readonly string[]): SplitResult {
  const items = raw.filter((s) => s !== '');
  if (items.length > MAX_ITEMS) throw new SplitError(`gives ${items.length} items; one split gives at most ${MAX_ITEMS}`);
  return { items, dropped: raw.length - items.length };
}

/** One item per line, markers and quotes taken off; blank lines (and code fence lines) dropped. */
export function splitLines(text: string): SplitResult {
  return keep(text.split(/\r?\n/).filter((line) => !FENCE.test(line)).map(cleanItem));
}

/**
 * Items that start with a number ("1.", "2)", "(3)"); a line that does not start with one
 * continues the item above it. Text before the first number is preamble, left out and reported.
 */
export function splitNumbered(text: string): SplitResult {
  const raw: string[] = [];
  const before: string[] = [];
  let current: string[] | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (NUMBERED.test(line)) {
      if (current) raw.push(current.join(' '));
      current = [line.trim()];
    } else if (current) {
      if (line.trim() !== '' && !FENCE.test(line)) current.push(line.trim());
    } else if (line.trim() !== '' && !FENCE.test(line)) {
      before.push(line.trim());
    }
  }
  if (current) raw.push(current.join(' '));
  if (raw.length === 0) throw new SplitError('has no numbered items (lines starting "1. ", "2) " or "(3) ")');
  const result = keep(raw.map(cleanItem));
  return before.length > 0 ? { ...result, preamble: before.join(' ') } : result;
}

/**
 * The separator parameter of Split text and Join text: at most 100 characters, where `\n` and `\t`
 * typed as two characters mean a line break and a tab (unescapeSeparator).
 */
export function separatorParam(fallback: string, description: string) {
  return z.string().max(100).default(fallback).meta({ title: 'Separator', description });
}

/** `\n` and `\t` typed as two characters mean a line break and a tab. */
export function unescapeSeparator(separator: string): string {
  return separator.replace(/\\([nt\\])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : '\\'));
}

/** Items between separators, each trimmed; empty ones dropped. */
export function splitSeparator(text: string, separator: string): SplitResult {
  const sep = unescapeSeparator(separator);
  if (sep === '') throw new SplitError('cannot be split by an empty separator');
  return keep(text.split(sep).map((s) => s.trim()));
}

/** The JSON inside a code fence, or from the first "[" (or "{") to its last partner. */
function jsonPart(text: string): string {
  const fence = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/u.exec(text);
  const body = (fence ? fence[1]! : text).trim();
  if (body.startsWith('[') || body.startsWith('{')) return body;
  const start = body.search(/[[{]/u);
  if (start < 0) return body;
  const close = body[start] === '[' ? ']' : '}';
  const end = body.lastIndexOf(close);
  return end > start ? body.slice(start, end + 1) : body;
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Whether the text holds anything that could be JSON: a "[" or a "{". */
export function looksLikeJson(text: string): boolean {
  return /[[{]/u.test(text);
}

/** A JSON array of strings; numbers are taken as their text, `{ "prompt": "…" }` as its one string. */
export function splitJson(text: string): SplitResult {
  let parsed: unknown;
  if (text.trim() !== '' && !looksLikeJson(text)) {
    const start = text.trim().slice(0, 30);
    throw new SplitError(`is not a JSON array of strings: it holds no "[" (it starts ${JSON.stringify(start)}${text.trim().length > 30 ? '…' : ''})`);
  }
  const part = jsonPart(text);
  try {
    parsed = JSON.parse(part);
  } catch (error) {
    const where = part === '' ? 'it is empty' : (error as Error).message;
    throw new SplitError(`is not a JSON array of strings: ${where}`);
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    // { "prompts": [...] }: the one array of an object, as chat models in JSON mode write it.
    const arrays = Object.values(parsed).filter(Array.isArray);
    if (arrays.length === 1) parsed = arrays[0];
  }
  if (!Array.isArray(parsed)) throw new SplitError(`is ${describeJson(parsed)} in JSON, not an array of strings`);
  const raw = parsed.map((item: unknown, i) => {
    if (typeof item === 'string') return item.trim();
    if (typeof item === 'number') return String(item);
    const strings = typeof item === 'object' && item !== null && !Array.isArray(item) ? Object.values(item).filter((v) => typeof v === 'string') : [];
    if (strings.length === 1) return strings[0]!.trim();
    throw new SplitError(`item ${i + 1} of the JSON array is ${describeJson(item)}, not a string`);
  });
  return keep(raw);
}

/** Splits `text` by `mode` (`separator` for the separator mode). */
export function splitText(text: string, mode: SplitMode, separator = ','): SplitResult {
  switch (mode) {
    case 'lines':
      return splitLines(text);
    case 'numbered':
      return splitNumbered(text);
    case 'separator':
      return splitSeparator(text, separator);
    case 'json':
      return splitJson(text);
  }
}

/** "8 items", "8 items; 2 empty left out", "3 items; the preamble left out". */
export function describeSplit(result: SplitResult): string {
  const n = result.items.length;
  const notes = [
    ...(result.dropped > 0 ? [`${result.dropped} empty left out`] : []),
    ...(result.preamble !== undefined ? ['the text before the first item left out'] : []),
  ];
  return `${n} item${n === 1 ? '' : 's'}${notes.length > 0 ? `; ${notes.join(', ')}` : ''}`;
}
