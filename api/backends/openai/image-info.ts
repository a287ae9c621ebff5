/**
 * What can be known about an image without decoding its pixels: the format from its first bytes,
 * its size in bytes from the base64 length, and its width and height from the file's header.
 * `review` uses the cheap ones (a few dozen base64 characters); `generate` reads the header of
 * bytes it has decoded anyway, to make the mask the image's own size.
 */
import { sniffImageFormat, type ImageFormat } from '../../image-data';

function headBytes(b64: string, chars: number): Uint8Array {
  const head = b64.slice(0, chars - (chars % 4));
  try {
    return Uint8Array.from(atob(head), (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array(0);
  }
}

/** The format a base64 image announces in its first bytes. */
export function base64Format(b64: string): ImageFormat | undefined {
  return sniffImageFormat(headBytes(b64, 16));
}

/** The number of bytes a base64 string decodes to. */
export function base64ByteLength(b64: string): number {
  let padding = 0;
  if (b64.endsWith('==')) padding = 2;
  else if (b64.endsWith('=')) padding = 1;
  return Math.floor(((b64.length - padding) * 3) / 4);
}

export interface Dimensions {
  width: number;
  height: number;
}

const u16be = (b: Uint8Array, i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
const u16le = (b: Uint8Array, i: number) => (b[i] ?? 0) | ((b[i + 1] ?? 0) << 8);
const u24le = (b: Uint8Array, i: number) => u16le(b, i) | ((b[i + 2] ?? 0) << 16);
const u32be = (b: Uint8Array, i: number) => ((u16be(b, i) << 16) >>> 0) + u16be(b, i + 2);

function pngDimensions(b: Uint8Array): Dimensions | undefined {
  // The IHDR chunk always comes first: width and height at bytes 16 to 24.
  if (b.length < 24) return undefined;
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

function jpegDimensions(b: Uint8Array): Dimensions | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1] ?? 0;
    if (marker === 0xff) {
      i++;
      continue;
    }
    // SOF0..SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    i += 2 + u16be(b, i + 2);
  }
  return undefined;
}

function webpDimensions(b: Uint8Array): Dimensions | undefined {
  const chunk = String.fromCharCode(...b.subarray(12, 16));
  if (chunk === 'VP8 ' && b.length >= 30) return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = ((b[21] ?? 0) | ((b[22] ?? 0) << 8) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24)) >>> 0;
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && b.length >= 30) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return undefined;
}

/** Width and height from a PNG, JPEG or WebP header; undefined for other formats or a broken header. */
export function imageDimensions(bytes: Uint8Array, format: ImageFormat | undefined): Dimensions | undefined {
  const found = format === 'png' ? pngDimensions(bytes)
    : format === 'jpeg' ? jpegDimensions(bytes)
      : format === 'webp' ? webpDimensions(bytes)
        : undefined;
  return found !== undefined && found.width > 0 && found.height > 0 ? found : undefined;
}

/** A PNG's size from the first 32 base64 characters (its IHDR chunk), for checks before sending. */
export function base64PngDimensions(b64: string): Dimensions | undefined {
  return imageDimensions(headBytes(b64, 32), 'png');
}

export const FORMAT_MIME: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', tiff: 'image/tiff', avif: 'image/avif',
};

export const FORMAT_NAME: Record<ImageFormat, string> = {
  jpeg: 'JPEG', png: 'PNG', webp: 'WebP', gif: 'GIF', tiff: 'TIFF', avif: 'AVIF',
};
