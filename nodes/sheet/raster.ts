/**
 * Pixels for the contact sheet, in pure JavaScript so the same bytes come out of the editor's
 * worker, the CLI and the tests: PNG and JPEG decoded (fast-png, jpeg-js, loaded on first use) to
 * 8-bit RGB over the sheet's background, scaled into a box by averaging (or, to grow, by nearest
 * pixel), bitmap text, and the sheet encoded as a PNG.
 */
import { sniffImageFormat } from '../../api/image-data';
import { ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH, LINE_HEIGHT, glyphPixel } from './font';

export type Rgb = readonly [number, number, number];

/** 8-bit RGB, row by row. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

export function createRaster(width: number, height: number, fill: Rgb): Raster {
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < data.length; i += 3) {
    data[i] = fill[0];
    data[i + 1] = fill[1];
    data[i + 2] = fill[2];
  }
  return { width, height, data };
}

/** Why an image cannot go on the sheet (a format it does not read). */
export class RasterError extends Error {
  override readonly name = 'RasterError';
}

/** One sample of a decoded PNG, scaled to 0–255. */
function sampleOf(data: ArrayLike<number>, i: number, depth: number): number {
  const v = data[i] ?? 0;
  return depth === 16 ? v >> 8 : v;
}

async function decodePng(bytes: Uint8Array, background: Rgb): Promise<Raster> {
  const png = await import('fast-png');
  const decoded = png.decode(bytes);
  const { width, height } = decoded;
  let data: ArrayLike<number> = decoded.data;
  let channels: number = decoded.channels;
  let depth: number = decoded.depth;
  if (decoded.palette !== undefined) {
    data = png.convertIndexedToRgb(decoded);
    channels = decoded.palette[0]?.length ?? 3;
    depth = 8;
  } else if (depth < 8) {
    throw new RasterError(`is a ${depth}-bit greyscale PNG; the contact sheet reads 8- and 16-bit PNGs and JPEGs`);
  }
  const out = createRaster(width, height, background);
  const hasAlpha = channels === 2 || channels === 4;
  for (let p = 0, i = 0; p < width * height; p++, i += channels) {
    const grey = channels < 3;
    const r = sampleOf(data, i, depth);
    const g = grey ? r : sampleOf(data, i + 1, depth);
    const b = grey ? r : sampleOf(data, i + 2, depth);
    const a = hasAlpha ? sampleOf(data, i + channels - 1, depth) / 255 : 1;
    out.data[p * 3] = Math.round(r * a + background[0] * (1 - a));
    out.data[p * 3 + 1] = Math.round(g * a + background[1] * (1 - a));
    out.data[p * 3 + 2] = Math.round(b * a + background[2] * (1 - a));
  }
  return out;
}

async function decodeJpeg(bytes: Uint8Array): Promise<Raster> {
  const jpeg = (await import('jpeg-js')).default;
  const decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false, maxResolutionInMP: 64 });
  return { width: decoded.width, height: decoded.height, data: decoded.data };
}

/** An image's pixels (transparent ones over `background`); a RasterError for formats it does not read. */
export async function decodeImage(bytes: Uint8Array, background: Rgb): Promise<Raster> {
  const format = sniffImageFormat(bytes);
  if (format === 'png') return decodePng(bytes, background);
  if (format === 'jpeg') return decodeJpeg(bytes);
  throw new RasterError(`is ${format === undefined ? 'not an image format it knows' : `a ${format.toUpperCase()} image`}; the contact sheet reads PNG and JPEG`);
}

/**
 * Draws `src` into the box at (`x`, `y`) of `boxWidth` × `boxHeight`, as large as fits without
 * changing its shape, centred. Shrinking averages the source pixels under each one; growing
 * repeats the nearest.
 */
export function drawFitted(dst: Raster, src: Raster, x: number, y: number, boxWidth: number, boxHeight: number): void {
  const scale = Math.min(boxWidth / src.width, boxHeight / src.height);
  const w = Math.max(1, Math.round(src.width * scale));
  const h = Math.max(1, Math.round(src.height * scale));
  const left = x + Math.floor((boxWidth - w) / 2);
  const top = y + Math.floor((boxHeight - h) / 2);
  const xs = spans(src.width, w);
  const ys = spans(src.height, h);
  for (let dy = 0; dy < h; dy++) {
    const [y0, y1] = ys[dy]!;
    const row = top + dy;
    if (row < 0 || row >= dst.height) continue;
    for (let dx = 0; dx < w; dx++) {
      const [x0, x1] = xs[dx]!;
      const col = left + dx;
      if (col < 0 || col >= dst.width) continue;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0, i = (sy * src.width + x0) * 3; sx < x1; sx++, i += 3) {
          r += src.data[i]!;
          g += src.data[i + 1]!;
          b += src.data[i + 2]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (row * dst.width + col) * 3;
      dst.data[o] = Math.round(r / n);
      dst.data[o + 1] = Math.round(g / n);
      dst.data[o + 2] = Math.round(b / n);
    }
  }
}

/** For each of `to` pixels, the source pixels [from, end) it covers: at least one. */
function spans(from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < to; i++) {
    const start = Math.min(from - 1, Math.floor((i * from) / to));
    out.push([start, Math.max(start + 1, Math.min(from, Math.floor(((i + 1) * from) / to)))]);
  }
  return out;
}

/** Draws one line of printable ASCII with its top left at (`x`, `y`), each font pixel `scale` pixels square. */
export function drawText(dst: Raster, text: string, x: number, y: number, scale: number, colour: Rgb): void {
  for (let c = 0; c < text.length; c++) {
    const ch = text[c]!;
    const cx = x + c * ADVANCE * scale;
    for (let gx = 0; gx < GLYPH_WIDTH; gx++) {
      for (let gy = 0; gy < GLYPH_HEIGHT; gy++) {
        if (!glyphPixel(ch, gx, gy)) continue;
        fillRect(dst, cx + gx * scale, y + gy * scale, scale, scale, colour);
      }
    }
  }
}

/** How many pixels a line of `chars` characters takes across, and how tall `lines` lines are. */
export function textWidth(chars: number, scale: number): number {
  return chars <= 0 ? 0 : (chars * ADVANCE - 1) * scale;
}

export function textHeight(lines: number, scale: number): number {
  return lines <= 0 ? 0 : ((lines - 1) * LINE_HEIGHT + GLYPH_HEIGHT) * scale;
}

function fillRect(dst: Raster, x: number, y: number, w: number, h: number, colour: Rgb): void {
  for (let row = Math.max(0, y); row < Math.min(dst.height, y + h); row++) {
    for (let col = Math.max(0, x); col < Math.min(dst.width, x + w); col++) {
      const o = (row * dst.width + col) * 3;
      dst.data[o] = colour[0];
      dst.data[o + 1] = colour[1];
      dst.data[o + 2] = colour[2];
    }
  }
}

/** The raster as an 8-bit RGB PNG. */
export async function encodePng(raster: Raster): Promise<Uint8Array> {
  const png = await import('fast-png');
  return png.encode({ width: raster.width, height: raster.height, data: raster.data, channels: 3, depth: 8 });
}
