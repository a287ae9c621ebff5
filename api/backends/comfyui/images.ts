/**
 * Image bytes in and out of this backend. Every base64 decode and encode goes through
 * `imageCodec`, so a test can count them: an input image is decoded once (to upload it) and
 * never re-encoded; an output image is encoded once (for the response).
 */
import { base64ToBytes, bytesToBase64, sniffImageFormat, type ImageFormat } from '../../image-data';

export const imageCodec = {
  decode: (base64: string): Uint8Array<ArrayBuffer> => base64ToBytes(base64),
  encode: (bytes: Uint8Array): string => bytesToBase64(bytes),
};

const EXTENSION: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif', tiff: 'tiff', avif: 'avif' };
const MIME: Record<ImageFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', tiff: 'image/tiff', avif: 'image/avif' };

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Two 32-bit FNV-style hashes, for pages outside a secure context, where crypto.subtle is missing. */
function fallbackHash(bytes: Uint8Array): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ bytes.length;
  for (const b of bytes) {
    h1 = Math.imul(h1 ^ b, 0x01000193);
    h2 = Math.imul(h2 ^ b, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

export interface InputFile {
  bytes: Uint8Array<ArrayBuffer>;
  /** `atelier-<content hash>.<ext>`: the same image always has the same name, so a re-run finds it uploaded. */
  name: string;
  mime: string;
}

/** Decodes an input image once and names it by its content. */
export async function inputFile(base64: string): Promise<InputFile> {
  const bytes = imageCodec.decode(base64);
  const format = sniffImageFormat(bytes) ?? 'png';
  // Absent on a page served over plain http from another host (no secure context).
  const subtle: Pick<typeof globalThis.crypto.subtle, 'digest'> | undefined = globalThis.crypto?.subtle;
  const digest = subtle === undefined ? fallbackHash(bytes) : hex(new Uint8Array(await subtle.digest('SHA-256', bytes))).slice(0, 32);
  return { bytes, name: `atelier-${digest}.${EXTENSION[format]}`, mime: MIME[format] };
}
