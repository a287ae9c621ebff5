/**
 * Reading the file's text as JSON, with an error a person can act on. The engines' own messages
 * differ between browsers and Node, and V8's quotes a slice of the file, which may hold anything;
 * so on failure the text is scanned again here to say what is wrong and at which line and column.
 */
import { loadError } from './errors';

const FILE = '(file)';

/** Parses the file's text, or throws a WorkflowLoadError that says where the JSON is broken. */
export function parseJsonText(text: string, maxChars: number): unknown {
  if (text.length > maxChars) {
    throw loadError('The workflow file is too large', FILE,
      `${formatSize(text.length)} characters, the limit is ${formatSize(maxChars)}`);
  }
  // Editors on Windows may start a file with a byte-order mark; JSON.parse refuses it.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') throw loadError('The workflow file is empty', FILE, 'there is no JSON in it');
  try {
    return JSON.parse(body) as unknown;
  } catch {
    const found = locateJsonError(body);
    const where = found ? lineAndColumn(body, found.offset) : undefined;
    const detail = found && where ? `line ${where.line}, column ${where.column}: ${found.reason}` : 'the text could not be read as JSON';
    throw loadError('The workflow file is not valid JSON', FILE, detail);
  }
}

function formatSize(chars: number): string {
  return chars >= 1024 * 1024 ? `${(chars / (1024 * 1024)).toFixed(1)} M` : String(chars);
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

interface JsonSyntaxError {
  offset: number;
  reason: string;
}

type State = 'value' | 'first-item' | 'first-key' | 'key' | 'after-value';

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The first syntax error in `text` (RFC 8259), or undefined if there is none. Iterative, so a
 * deeply nested file cannot exhaust the stack here either.
 */
export function locateJsonError(text: string): JsonSyntaxError | undefined {
  const open: number[] = [];
  let state: State = 'value';
  let i = 0;
  for (;;) {
    i = skipWhitespace(text, i);
    if (i >= text.length) {
      if (state === 'after-value' && open.length === 0) return undefined;
      const unclosed = open.length > 0 ? ` (${open.length} unclosed ${open.length === 1 ? 'bracket' : 'brackets'})` : '';
      return { offset: i, reason: `the file ends too early${unclosed}` };
    }
    const c = text.charCodeAt(i);
    if (state === 'first-item' || state === 'first-key') {
      if (c === (state === 'first-item' ? CLOSE_ARRAY : CLOSE_OBJECT)) {
        open.pop();
        i++;
        state = 'after-value';
        continue;
      }
      state = state === 'first-item' ? 'value' : 'key';
      continue;
    }
    if (state === 'key') {
      if (c !== QUOTE) return { offset: i, reason: `expected a property name in double quotes, found ${describe(c)}` };
      const end = scanString(text, i);
      if (typeof end !== 'number') return end;
      i = skipWhitespace(text, end);
      if (text.charCodeAt(i) !== 0x3a) return { offset: i, reason: `expected ':' after the property name, found ${describe(text.charCodeAt(i))}` };
      i++;
      state = 'value';
      continue;
    }
    if (state === 'after-value') {
      const top = open[open.length - 1];
      if (top === undefined) return { offset: i, reason: `unexpected ${describe(c)} after the end of the document` };
      const close = top === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
      if (c === 0x2c) state = top === OPEN_OBJECT ? 'key' : 'value';
      else if (c === close) open.pop();
      else return { offset: i, reason: `expected ',' or '${String.fromCharCode(close)}', found ${describe(c)}` };
      i++;
      continue;
    }
    // state === 'value'
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      open.push(c);
      state = c === OPEN_OBJECT ? 'first-key' : 'first-item';
      i++;
      continue;
    }
    const end = scanScalar(text, i);
    if (typeof end !== 'number') return end;
    i = end;
    state = 'after-value';
  }
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++i));
  return i;
}

function scanScalar(text: string, i: number): number | JsonSyntaxError {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return scanString(text, i);
  for (const word of ['true', 'false', 'null']) {
    if (text.startsWith(word, i)) return i + word.length;
  }
  NUMBER.lastIndex = i;
  if ((c === 0x2d || (c >= 0x30 && c <= 0x39)) && NUMBER.test(text)) return NUMBER.lastIndex;
  return { offset: i, reason: `expected a value, found ${describe(c)}` };
}

const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /^[0-9a-fA-F]{4}$/;

function scanString(text: string, start: number): number | JsonSyntaxError {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return { offset: i, reason: `${describe(c)} inside a string (write it escaped, such as \\n)` };
    if (c === 0x5c) {
      const next = text.charAt(i + 1);
      if (next === 'u') {
        if (!HEX4.test(text.slice(i + 2, i + 6))) return { offset: i, reason: 'a \\u escape needs four hex digits' };
        i += 5;
      } else if (ESCAPES.has(next)) i++;
      else return { offset: i, reason: 'an unknown escape in a string' };
    }
  }
  return { offset: start, reason: 'a string that is never closed' };
}

function describe(c: number): string {
  if (Number.isNaN(c)) return 'the end of the file';
  if (c === 0x0a) return 'a line break';
  if (c === 0x09) return 'a tab';
  if (c >= 0x21 && c <= 0x7e) return `'${String.fromCharCode(c)}'`;
  return `character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}
