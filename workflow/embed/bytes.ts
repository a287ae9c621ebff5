/**
 * What the JPEG and PNG containers share: the error every reader and writer throws, the size cap
 * on embedded text, strict UTF-8 and big-endian integers. Pure (no Buffer), for the browser,
 * the worker and the CLI alike.
 */

/**
 * Embedded text is refused past this many bytes, both ways: a hostile image cannot make a reader
 * allocate more, and nothing is written that could not be read back.
 */
export const MAX_EMBEDDED_BYTES = 50 * 1024 * 1024;

/** An image whose Atelier data cannot be written or read; the message says what and where. */
export class ImageEmbedError extends Error {
  override readonly name = 'ImageEmbedError';
}

/** What Atelier keeps in an image: each part is UTF-8 text in the file. */
export type EmbedPart = 'workflow' | 'manifest';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Decodes UTF-8, refusing malformed bytes rather than replacing them with U+FFFD. */
export function fromUtf8(bytes: Uint8Array, what: string): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new ImageEmbedError(`the image's ${what} is not valid UTF-8 text`);
  }
}

export function readU16(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

export function readU32(bytes: Uint8Array, at: number): number {
  return (((bytes[at] ?? 0) << 24) | ((bytes[at + 1] ?? 0) << 16) | ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0)) >>> 0;
}

export function writeU16(out: Uint8Array, at: number, value: number): void {
  out[at] = (value >>> 8) & 0xff;
  out[at + 1] = value & 0xff;
}

export function writeU32(out: Uint8Array, at: number, value: number): void {
  out[at] = (value >>> 24) & 0xff;
  out[at + 1] = (value >>> 16) & 0xff;
  out[at + 2] = (value >>> 8) & 0xff;
  out[at + 3] = value & 0xff;
}

/** One allocation for the whole output, whatever the number of pieces. */
export function concat(pieces: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** Refuses text past the cap before it is written or assembled. */
export function checkSize(bytes: number, part: EmbedPart): void {
  if (bytes > MAX_EMBEDDED_BYTES) {
    throw new ImageEmbedError(`the ${part} is ${formatBytes(bytes)}, more than the ${formatBytes(MAX_EMBEDDED_BYTES)} an image can carry`);
  }
}
