/**
 * The one module that owns values on wires and their conversion. Images stay
 * base64 throughout: nothing here decodes or re-encodes pixels; the mime type is read from the
 * first bytes of the base64 text itself.
 */
import type { ImageData, PortKind, PortSpec, Value } from './types';

export function textValue(value: string): Value {
  return { kind: 'text', value };
}

export function numberValue(value: number): Value {
  return { kind: 'number', value };
}

export function imageValue(value: ImageData): Value {
  return { kind: 'image', value };
}

export function imagesValue(value: ImageData[]): Value {
  return { kind: 'images', value };
}

export function textsValue(value: string[]): Value {
  return { kind: 'texts', value };
}

/** The kinds that are lists, and the kind of their items. */
export type ListKind = 'texts' | 'images';
export type ListValue = Extract<Value, { kind: ListKind }>;
const ITEM_KIND: Readonly<Record<ListKind, 'text' | 'image'>> = { texts: 'text', images: 'image' };

export function isListKind(kind: PortKind): kind is ListKind {
  return kind === 'texts' || kind === 'images';
}

export function isListValue(value: Value): value is ListValue {
  return isListKind(value.kind);
}

/** The kind of a list's items: text for a text list, image for an image list. */
export function itemKindOf(kind: ListKind): 'text' | 'image' {
  return ITEM_KIND[kind];
}

/** The list kind of items of `kind`, for the kinds that have one (numbers have none). */
export function listKindOf(kind: PortKind): ListKind | undefined {
  if (isListKind(kind)) return kind;
  return kind === 'text' ? 'texts' : kind === 'image' ? 'images' : undefined;
}

/** Item `index` of a list, as a value of the item kind. */
export function itemOf(list: ListValue, index: number): Value {
  return list.kind === 'texts' ? textValue(list.value[index]!) : imageValue(list.value[index]!);
}

/** A conversion that cannot be made, naming both kinds and why. */
export class ValueConversionError extends Error {
  constructor(
    readonly from: PortKind,
    readonly to: PortKind,
    reason: string,
  ) {
    super(`cannot convert ${from} to ${to}: ${reason}`);
    this.name = 'ValueConversionError';
  }
}

/** Conversions allowed between different kinds; the same kind always passes unchanged. */
const CONVERSIONS: Readonly<Record<PortKind, readonly PortKind[]>> = {
  // Text to number only succeeds where the text parses; the wire is allowed, the value is checked.
  text: ['number', 'texts'],
  number: ['text'],
  image: ['images'],
  // A list becomes its item only when it holds exactly one; a longer list reaching an input that
  // takes one value runs the node once per item instead (workers/fan-out.ts).
  images: ['image'],
  texts: ['text'],
};

/**
 * Whether a wire from a `from` output to a `to` input is allowed. True does not promise every
 * value converts: text becomes a number only when it parses, and an empty list has no first image.
 */
export function canConvert(from: PortKind, to: PortKind): boolean {
  return from === to || CONVERSIONS[from].includes(to);
}

/** Parses text as a number the way a person would type one: surrounding spaces allowed, nothing else. */
function parseNumber(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : undefined;
}

function excerpt(text: string): string {
  return text.length > 40 ? `${JSON.stringify(text.slice(0, 40))}…` : JSON.stringify(text);
}

/** Converts a value to another kind, or throws a ValueConversionError that says why not. */
export function convert(value: Value, to: PortKind): Value {
  if (value.kind === to) return value;
  if (!canConvert(value.kind, to)) {
    throw new ValueConversionError(value.kind, to, `there is no conversion from ${value.kind} to ${to}`);
  }
  switch (value.kind) {
    case 'text': {
      if (to === 'texts') return textsValue([value.value]);
      const n = parseNumber(value.value);
      if (n === undefined) throw new ValueConversionError('text', to, `${excerpt(value.value)} is not a number`);
      return numberValue(n);
    }
    case 'number':
      return textValue(String(value.value));
    case 'image':
      return imagesValue([value.value]);
    case 'images':
    case 'texts': {
      const n = value.value.length;
      if (n !== 1) {
        throw new ValueConversionError(value.kind, to, n === 0 ? 'the list is empty' : `the list holds ${n} items, not one`);
      }
      return itemOf(value, 0);
    }
  }
}

/** The kinds an input takes: its own kind, plus any it takes unchanged (`accepts`). */
export function acceptedKinds(port: PortSpec): readonly PortKind[] {
  return port.accepts ?? [port.kind];
}

/**
 * Whether an output of kind `from` may be wired to this input: as it is, converted, or (a list)
 * item by item, each item converted (a text list into a seed).
 */
export function portAccepts(port: PortSpec, from: PortKind): boolean {
  if (acceptedKinds(port).includes(from) || canConvert(from, port.kind)) return true;
  return isListKind(from) && canConvert(itemKindOf(from), port.kind);
}

/**
 * Whether a list of kind `kind` arriving at this input is taken one item per run (the node fans
 * out) rather than whole: the input does not take that list kind as it is.
 */
export function splitsList(port: PortSpec, kind: PortKind): boolean {
  return isListKind(kind) && !acceptedKinds(port).includes(kind);
}

/**
 * The value as the input wants it: unchanged when the port takes its kind, otherwise converted
 * to the port's kind, a list of one through its item (throws ValueConversionError when that
 * cannot be done).
 */
export function coerceToPort(value: Value, port: PortSpec): Value {
  if (acceptedKinds(port).includes(value.kind)) return value;
  if (isListValue(value) && !canConvert(value.kind, port.kind)) return convert(convert(value, itemKindOf(value.kind)), port.kind);
  return convert(value, port.kind);
}

/** The text of a connected text input, or '' when the input is absent or not text. */
export function textOf(value: Value | undefined): string {
  return value?.kind === 'text' ? value.value : '';
}

/** All texts a value holds: one for `text`, the list for `texts`, none otherwise. */
export function textsOf(value: Value | undefined): string[] {
  if (value?.kind === 'text') return [value.value];
  if (value?.kind === 'texts') return value.value;
  return [];
}

/** All images a value holds: one for `image`, the list for `images`, none otherwise. */
export function imagesOf(value: Value | undefined): ImageData[] {
  if (value?.kind === 'image') return [value.value];
  if (value?.kind === 'images') return value.value;
  return [];
}

/** Base64 signatures of the image formats the API and browsers handle, standard and URL-safe. */
const SIGNATURES: readonly { prefixes: readonly string[]; mime: string }[] = [
  { prefixes: ['/9j/', '_9j_'], mime: 'image/jpeg' },
  { prefixes: ['iVBOR'], mime: 'image/png' },
  { prefixes: ['UklGR'], mime: 'image/webp' },
  { prefixes: ['R0lGOD'], mime: 'image/gif' },
];

/** The image mime type read from the magic bytes of base64 data, or undefined if unknown. */
export function imageMime(b64: string): string | undefined {
  return SIGNATURES.find((s) => s.prefixes.some((p) => b64.startsWith(p)))?.mime;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** File extension (no dot) to save an image of this mime type with; 'bin' when unknown. */
export function mimeExtension(mime: string): string {
  return EXTENSIONS[mime] ?? 'bin';
}

/** Number of bytes the base64 text decodes to, without decoding it. */
export function base64ByteSize(b64: string): number {
  let end = b64.length;
  while (end > 0 && b64.charCodeAt(end - 1) === 61 /* '=' */) end--;
  return Math.floor((end * 3) / 4);
}

/** A short human description of a value for logs and events: never the base64 itself. */
export function describeValue(value: Value): string {
  switch (value.kind) {
    case 'text':
      return `text (${value.value.length} characters)`;
    case 'number':
      return `number ${value.value}`;
    case 'image':
      return `image (${describeImage(value.value)})`;
    case 'images':
      return `${value.value.length} image${value.value.length === 1 ? '' : 's'}`;
    case 'texts':
      return `${value.value.length} text${value.value.length === 1 ? '' : 's'}`;
  }
}

function describeImage(image: ImageData): string {
  const size = image.width !== undefined && image.height !== undefined ? `${image.width}x${image.height}, ` : '';
  return `${size}${image.mime}, ${base64ByteSize(image.b64)} bytes`;
}
