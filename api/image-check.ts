/**
 * The check every generated image passes before anything uses it: an API that answers 200 with
 * something that is not a whole JPEG, PNG or WebP (random bytes, broken base64, a file cut short)
 * is a failure, not a picture. Only the base64 text is scanned (one regular expression); the
 * bytes are decoded where the header and the end of the file are read, a few dozen of them, never
 * the whole image: pixels are decoded only where they are anyway (the page, the local engines).
 */
import { sniffImageFormat, type ImageFormat } from './image-data';
import type { ImageResponse } from './image-schema';

/** What a sound image's header says. */
export interface ImageFacts {
  format: 'jpeg' | 'png' | 'webp';
  width: number;
  height: number;
  /** The decoded size, from the base64 length. */
  bytes: number;
}

export type ImageInspection = { ok: true; facts: ImageFacts } | { ok: false; problem: string };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Int8Array(128).fill(0);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;
/**
 * A character outside the standard alphabet. Written with `\w` (letters, digits and '_'), which
 * V8's regular expressions test from a table: on a megabyte this is about twice as fast as the
 * plain class or a loop over the characters.
 */
const NOT_BASE64 = /[^\w+/]|_/;

/**
 * Standard alphabet, whole groups of four, at most two '=' and only at the end: what every API
 * sends. One scan of the text, no bytes made.
 */
function isStrictBase64(b64: string): boolean {
  if (b64.length % 4 !== 0) return false;
  const end = b64.endsWith('==') ? b64.length - 2 : b64.endsWith('=') ? b64.length - 1 : b64.length;
  return !NOT_BASE64.test(end === b64.length ? b64 : b64.slice(0, end));
}

/** Random access to the bytes of strict base64: each read decodes only its group of four characters. */
interface Bytes {
  readonly length: number;
  at(index: number): number;
}

function base64Bytes(b64: string): Bytes {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  const length = (b64.length / 4) * 3 - padding;
  let group = -1;
  const cache = [0, 0, 0];
  return {
    length,
    at(index) {
      if (index < 0 || index >= length) return -1;
      const g = Math.floor(index / 3);
      if (g !== group) {
        const c = (k: number) => VALUE[b64.charCodeAt(4 * g + k) & 127]!;
        const n = (c(0) << 18) | (c(1) << 12) | (c(2) << 6) | c(3);
        cache[0] = (n >> 16) & 255;
        cache[1] = (n >> 8) & 255;
        cache[2] = n & 255;
        group = g;
      }
      return cache[index % 3]!;
    },
  };
}

const u16be = (b: Bytes, i: number) => (b.at(i) << 8) | b.at(i + 1);
const u16le = (b: Bytes, i: number) => b.at(i) | (b.at(i + 1) << 8);
const u32be = (b: Bytes, i: number) => u16be(b, i) * 65536 + u16be(b, i + 2);
const u32le = (b: Bytes, i: number) => u16le(b, i) + u16le(b, i + 2) * 65536;
const ascii = (b: Bytes, from: number, to: number) => {
  let out = '';
  for (let i = from; i < to; i++) out += String.fromCharCode(Math.max(0, b.at(i)));
  return out;
};

/** The header's size, or what is wrong (`what`: "truncated JPEG"; `detail`: where it shows). */
type Found = { width: number; height: number } | { what: string; detail: string };

/** Whether `b` ends with the EOI marker; some writers pad a few bytes after it, and entropy-coded data never holds FF D9. */
function jpegEnds(b: Bytes): boolean {
  for (let i = b.length - 2; i >= Math.max(2, b.length - 64); i--) if (b.at(i) === 0xff && b.at(i + 1) === 0xd9) return true;
  return false;
}

/** Walks the segments from SOI to the first frame header (SOF), jumping over each by its length. */
function jpeg(b: Bytes): Found {
  let i = 2;
  for (;;) {
    if (i + 4 > b.length) return { what: 'truncated JPEG', detail: 'it ends inside its header, before the frame header' };
    if (b.at(i) !== 0xff) return { what: 'broken JPEG', detail: `no segment marker at byte ${i.toLocaleString('en-US')}` };
    const marker = b.at(i + 1);
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    // SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (i + 9 > b.length) return { what: 'truncated JPEG', detail: 'it ends inside its frame header' };
      if (!jpegEnds(b)) return { what: 'truncated JPEG', detail: 'no end-of-image marker at its end' };
      return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    }
    if (marker === 0xda || marker === 0xd9) return { what: 'broken JPEG', detail: 'no frame header (SOF) before its image data' };
    i += 2 + u16be(b, i + 2);
  }
}

const IEND = [0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];

function png(b: Bytes): Found {
  if (b.length < 33 || ascii(b, 12, 16) !== 'IHDR') return { what: 'broken PNG', detail: 'no IHDR chunk after its signature' };
  if (!IEND.every((byte, k) => b.at(b.length - 12 + k) === byte)) return { what: 'truncated PNG', detail: 'no IEND chunk at its end' };
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function webp(b: Bytes): Found {
  const declared = u32le(b, 4) + 8;
  if (declared !== b.length) {
    return { what: declared > b.length ? 'truncated WebP' : 'broken WebP', detail: `its RIFF header says ${declared.toLocaleString('en-US')}` };
  }
  const chunk = ascii(b, 12, 16);
  if (chunk === 'VP8 ' && b.length >= 30 && b.at(23) === 0x9d && b.at(24) === 0x01 && b.at(25) === 0x2a) {
    return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  if (chunk === 'VP8L' && b.length >= 25 && b.at(20) === 0x2f) {
    const bits = u32le(b, 21);
    return { width: (bits & 0x3fff) + 1, height: (Math.floor(bits / 16384) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && b.length >= 30) return { width: u16le(b, 24) + b.at(26) * 65536 + 1, height: u16le(b, 27) + b.at(29) * 65536 + 1 };
  return { what: 'broken WebP', detail: 'no VP8, VP8L or VP8X header after RIFF' };
}

const NAME: Record<ImageFormat, string> = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP', gif: 'GIF', tiff: 'TIFF', avif: 'AVIF' };
const count = (n: number, unit: string) => `${n.toLocaleString('en-US')} ${unit}${n === 1 ? '' : 's'}`;

/** The first bytes as hex, for a message that shows what arrived instead of an image. */
function startingWith(b: Bytes): string {
  const shown = Math.min(8, b.length);
  const hex = Array.from({ length: shown }, (_, i) => b.at(i).toString(16).padStart(2, '0')).join(' ');
  return `${count(b.length, 'byte')}${shown === 0 ? '' : ` starting ${hex}${b.length > shown ? ' …' : ''}`}`;
}

/**
 * Checks one base64 image as it came from an API: strict base64, a JPEG, PNG or WebP signature,
 * a header that gives its width and height, and an end where the format puts one (JPEG's EOI,
 * PNG's IEND, WebP's RIFF length). Costs one scan of the text and a few decoded bytes.
 */
export function inspectImage(b64: string): ImageInspection {
  if (typeof b64 !== 'string' || b64 === '') return { ok: false, problem: 'is empty' };
  if (!isStrictBase64(b64)) {
    const bad = /[^A-Za-z0-9+/=]/.exec(b64);
    const why = bad !== null
      ? `a ${JSON.stringify(bad[0])} at character ${(bad.index + 1).toLocaleString('en-US')}`
      : b64.length % 4 !== 0 ? `a length of ${b64.length.toLocaleString('en-US')}, not whole groups of four` : "'=' before its end";
    return { ok: false, problem: `is not valid base64 (${why}): ${count(b64.length, 'character')} starting ${JSON.stringify(b64.slice(0, 12))}` };
  }
  const b = base64Bytes(b64);
  const head = Uint8Array.from({ length: Math.min(16, b.length) }, (_, i) => b.at(i));
  const format = sniffImageFormat(head);
  if (format !== 'jpeg' && format !== 'png' && format !== 'webp') {
    return { ok: false, problem: `is ${format === undefined ? 'not' : `a ${NAME[format]}, not`} a JPEG/PNG/WebP: ${startingWith(b)}` };
  }
  const found = format === 'jpeg' ? jpeg(b) : format === 'png' ? png(b) : webp(b);
  if ('what' in found) return { ok: false, problem: `is a ${found.what} (${count(b.length, 'byte')}: ${found.detail})` };
  if (found.width <= 0 || found.height <= 0) return { ok: false, problem: `is a broken ${NAME[format]} (its header says ${found.width}×${found.height})` };
  return { ok: true, facts: { format, width: found.width, height: found.height, bytes: b.length } };
}

/** An API's 2xx answer whose images are not images: a failure of the node that asked, never a picture. */
export class ImageResponseError extends Error {
  override readonly name = 'ImageResponseError';
  /** As NodeError.kind reads it: the answer came, and is wrong. */
  readonly kind = 'invalid-response';
}

/**
 * Every image of `response`, checked (`inspectImage`); throws an ImageResponseError naming the
 * first bad one and `who` answered ("the sdxl engine", "ComfyUI"). Returns the images' facts.
 */
export function checkImageResponse(response: ImageResponse, who: string): ImageFacts[] {
  if (!Array.isArray(response.images)) throw new ImageResponseError(`${who} answered HTTP 200 without an images list`);
  return response.images.map((image, index) => {
    const result = inspectImage((image as { image_b64?: unknown } | undefined)?.image_b64 as string);
    if (!result.ok) throw new ImageResponseError(`${who} answered HTTP 200 but image ${index + 1} ${result.problem}`);
    return result.facts;
  });
}
