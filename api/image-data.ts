/**
 * Base64 image fields (init_image, mask_image, controlnet_image, transfer_images): checked for
 * well-formed standard base64 and for the signature of an image format the engines decode, from
 * the first bytes only, so a 20 MB image costs one linear scan and no decode. Whether the pixels
 * really decode is for whoever decodes them (the local engines do, with sharp). Also the one
 * base64-to-bytes decoder, for the worker's trip to the page and for backends that upload bytes,
 * and the one SHA-256 (hashing bytes and texts: image references, cache keys, manifests).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { z } from 'zod';

export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'gif', 'tiff', 'avif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

const BASE64_BODY = /^[A-Za-z0-9+/]*$/;
const URL_SAFE_BODY = /^[A-Za-z0-9_-]*$/;

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** The image format a file's first bytes announce, if it is one the engines decode. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes[0] === 0x89 && ascii(bytes, 1, 4) === 'PNG') return 'png';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (ascii(bytes, 0, 4) === 'GIF8') return 'gif';
  const tiff = ascii(bytes, 0, 4);
  if (tiff === 'II*\0' || tiff === 'MM\0*') return 'tiff';
  if (ascii(bytes, 4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(bytes, 8, 12))) return 'avif';
  return undefined;
}

function leadingBytes(body: string): Uint8Array {
  const head = body.slice(0, 16);
  const binary = atob(head.slice(0, head.length - (head.length % 4)));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** What is wrong with a base64 string as such (prefix, alphabet, length), or undefined. */
export function base64Problem(value: string): string | undefined {
  if (value.length === 0) return 'must be a base64 image, not an empty string';
  if (value.startsWith('data:')) return 'must be bare base64, not a data: URL (drop the "data:image/...;base64," prefix)';
  const body = bodyOf(value);
  if (!BASE64_BODY.test(body)) {
    if (URL_SAFE_BODY.test(body)) return "uses the URL-safe base64 alphabet ('-' and '_'); send standard base64 ('+' and '/')";
    if (BASE64_BODY.test(body.replace(/\s/g, ''))) return 'contains spaces or line breaks; send the base64 text on one line';
    return "is not valid base64 (it has characters other than A-Z, a-z, 0-9, '+', '/' and '=' padding)";
  }
  if ((body.length < value.length && value.length % 4 !== 0) || body.length % 4 === 1) {
    return 'is not valid base64 (its length does not make whole bytes; was it cut short?)';
  }
  return undefined;
}

/** The base64 text without its '=' padding (at most two). */
function bodyOf(value: string): string {
  let end = value.length;
  while (end > 0 && value.length - end < 2 && value[end - 1] === '=') end--;
  return value.slice(0, end);
}

/** What is wrong with a base64 image field, or undefined when it holds an image the engines decode. */
export function base64ImageProblem(value: string): string | undefined {
  const problem = base64Problem(value);
  if (problem !== undefined) return problem;
  const body = bodyOf(value);
  if (body.length < 8 || sniffImageFormat(leadingBytes(body)) === undefined) {
    return 'is base64 but not a JPEG, PNG, WebP, GIF, TIFF or AVIF image';
  }
  return undefined;
}

const refineWith = (check: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const problem = check(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * Well-formed bare base64 (no data: URL). What the bytes are is checked apart, with
 * {@link base64ImageProblem}, so that a request's other problems are reported with it.
 */
export const Base64ImageSchema = refineWith(base64Problem);

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;
// The URL-safe alphabet decodes to the same bytes.
DECODE['-'.charCodeAt(0)] = 62;
DECODE['_'.charCodeAt(0)] = 63;

/**
 * Decodes base64 (standard or URL-safe, padding optional) straight into bytes, in one pass
 * without building an intermediate binary string as `atob` would.
 */
export function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  let end = b64.length;
  while (end > 0 && b64.charCodeAt(end - 1) === 61 /* = */) end--;
  if (end % 4 === 1) throw new Error(`not valid base64: ${end} characters cannot encode whole bytes`);
  const out = new Uint8Array((end * 3) >> 2);
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const c = b64.charCodeAt(i);
    const v = c < 128 ? DECODE[c]! : -1;
    if (v < 0) throw new Error(`not valid base64: unexpected character at position ${i}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** Encodes bytes as standard base64 with padding, in chunks, without a binary string the size of the image. */
export function bytesToBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 3 * 4096;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(bytes.length, start + CHUNK);
    let out = '';
    for (let i = start; i < end; i += 3) {
      const a = bytes[i]!;
      const b = i + 1 < end ? bytes[i + 1]! : 0;
      const c = i + 2 < end ? bytes[i + 2]! : 0;
      out += ALPHABET[a >> 2]! + ALPHABET[((a & 3) << 4) | (b >> 4)]!;
      out += i + 1 < end ? ALPHABET[((b & 15) << 2) | (c >> 6)]! : '=';
      out += i + 2 < end ? ALPHABET[c & 63]! : '=';
    }
    parts.push(out);
  }
  return parts.join('');
}

/**
 * The bytes of base64 that {@link bytesToBase64} would write back exactly (standard alphabet,
 * padded, no stray bits in the last character), or undefined for any other text.
 */
export function canonicalBase64Bytes(b64: string): Uint8Array<ArrayBuffer> | undefined {
  if (b64.length % 4 !== 0 || !BASE64_BODY.test(bodyOf(b64))) return undefined;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = base64ToBytes(b64);
  } catch {
    return undefined;
  }
  if (b64.length !== 4 * Math.ceil(bytes.length / 3)) return undefined;
  const tail = bytes.length % 3;
  if (tail === 0) return bytes;
  const last = ALPHABET.indexOf(b64[b64.length - (tail === 1 ? 3 : 2)]!);
  return (last & (tail === 1 ? 0b1111 : 0b11)) === 0 ? bytes : undefined;
}

const utf8 = new TextEncoder();
const bytesOf = (data: Uint8Array | string): Uint8Array => (typeof data === 'string' ? utf8.encode(data) : data);

/**
 * The SHA-256 of `data` (bytes, or a text's UTF-8), as 64 lower-case hex digits, at once: for
 * what must be synchronous (a manifest, an image's reference), in the page, a worker or Node.
 */
export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(bytesOf(data)));
}

/**
 * The same digest through WebCrypto where the platform has it (faster on megabytes; absent on
 * a page served over plain http from another host), else as `sha256Hex` does.
 */
export async function sha256HexAsync(data: Uint8Array | string): Promise<string> {
  const subtle: Pick<typeof globalThis.crypto.subtle, 'digest'> | undefined = globalThis.crypto?.subtle;
  if (subtle === undefined) return sha256Hex(data);
  return bytesToHex(new Uint8Array(await subtle.digest('SHA-256', bytesOf(data) as Uint8Array<ArrayBuffer>)));
}
