/**
 * Image bytes in and out of this backend. Every base64 decode and encode goes through
 * `imageCodec`, so a test can count them: an input image is decoded once (to upload it) and
 * never re-encoded; an output image is encoded once (for the response).
 */
import { base64ToBytes, bytesToBase64, sha256HexAsync, sniffImageFormat, type ImageFormat } from '../../image-data';

export const imageCodec = {
  decode: (base64: string): Uint8Array<ArrayBuffer> => base64ToBytes(base64),
  encode: (bytes: Uint8Array): string => bytesToBase64(bytes),
};

const EXTENSION: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif', tiff: 'tiff', avif: 'avif' };
const MIME: Record<ImageFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', tiff: 'image/tiff', avif: 'image/avif' };


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
  const digest = (await sha256HexAsync(bytes)).slice(0, 32);
  return { bytes, name: `atelier-${digest}.${EXTENSION[format]}`, mime: MIME[format] };
}
