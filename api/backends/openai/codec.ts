/**
 * Every decode the OpenAI backend makes goes through `imageCodec`, so a test can count them: an
 * input image is turned from base64 into bytes once, and only a mask is ever decoded to pixels
 * (once), to be written again as the PNG with an alpha channel that OpenAI reads.
 *
 * The pixel codecs are pure JavaScript, so the same code runs in the editor's worker, in Node (CLI,
 * server) and in tests: fast-png (PNG, both ways; zlib through fflate) and jpeg-js (JPEG masks).
 * They are loaded on first use: only inpainting needs them.
 */
import type * as FastPng from 'fast-png';
import { base64ToBytes } from '../../image-data';

/** A decoded mask: how much each pixel asks to be painted, 0 (keep) to 255 (paint), row by row. */
export interface Coverage {
  width: number;
  height: number;
  values: Uint8Array;
}

type PngModule = typeof FastPng;

function lowDepthSample(data: ArrayLike<number>, width: number, depth: number, x: number, y: number): number {
  const bytesPerLine = Math.ceil((depth * width) / 8);
  const bit = x * depth;
  const byte = data[y * bytesPerLine + (bit >> 3)] ?? 0;
  const value = (byte >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
  return Math.round((value * 255) / ((1 << depth) - 1));
}

/** Luminance times alpha per pixel, from any PNG colour type and depth fast-png decodes. */
function pngCoverage(png: PngModule, bytes: Uint8Array): Coverage {
  const decoded = png.decode(bytes);
  const { width, height } = decoded;
  let data: ArrayLike<number> = decoded.data;
  let channels = decoded.channels;
  let max = decoded.depth === 16 ? 65535 : 255;
  if (decoded.palette !== undefined) {
    data = png.convertIndexedToRgb(decoded);
    channels = decoded.palette[0]?.length ?? 3;
    max = 255;
  } else if (decoded.depth < 8) {
    // Packed grey levels (1, 2 or 4 bits): one channel, rows padded to whole bytes.
    const values = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) values[y * width + x] = lowDepthSample(data, width, decoded.depth, x, y);
    }
    return { width, height, values };
  }
  const values = new Uint8Array(width * height);
  const hasAlpha = channels === 2 || channels === 4;
  const colour = channels >= 3;
  for (let p = 0, i = 0; p < values.length; p++, i += channels) {
    const lum = colour
      ? 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0)
      : (data[i] ?? 0);
    const alpha = hasAlpha ? (data[i + channels - 1] ?? 0) / max : 1;
    values[p] = Math.round((lum * alpha * 255) / max);
  }
  return { width, height, values };
}

async function jpegCoverage(bytes: Uint8Array): Promise<Coverage> {
  const jpeg = (await import('jpeg-js')).default;
  const decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false });
  const { width, height, data } = decoded;
  const values = new Uint8Array(width * height);
  for (let p = 0, i = 0; p < values.length; p++, i += 3) {
    values[p] = Math.round(0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0));
  }
  return { width, height, values };
}

export const imageCodec = {
  /** Base64 to bytes: the one decode every input image goes through. */
  bytes(b64: string): Uint8Array<ArrayBuffer> {
    return base64ToBytes(b64);
  },

  /** A PNG or JPEG mask's pixels as coverage. */
  async coverage(bytes: Uint8Array, format: 'png' | 'jpeg'): Promise<Coverage> {
    if (format === 'jpeg') return jpegCoverage(bytes);
    return pngCoverage(await import('fast-png'), bytes);
  },

  /** An 8-bit RGBA PNG. */
  async encodeRgbaPng(width: number, height: number, rgba: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
    const png = await import('fast-png');
    const out = png.encode({ width, height, data: rgba, channels: 4, depth: 8 });
    return new Uint8Array(out);
  },
};
