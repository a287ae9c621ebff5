/**
 * Measurements on decoded pixels, for checking what the local image engine's answers mean.
 */
import sharp from 'sharp';

export interface Grey {
  width: number;
  height: number;
  /** One luminance byte per pixel, row by row. */
  data: Uint8Array;
}

/** Decodes an image (base64 or bytes) to greyscale pixels. */
export async function grey(image: string | Buffer): Promise<Grey> {
  const bytes = typeof image === 'string' ? Buffer.from(image, 'base64') : image;
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

/** Mean absolute difference of two same-sized images over the pixels `where` selects. */
export function meanAbsDiff(a: Grey, b: Grey, where: (x: number, y: number) => boolean = () => true): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`sizes differ: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  let sum = 0;
  let count = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (!where(x, y)) continue;
      const i = y * a.width + x;
      sum += Math.abs(a.data[i]! - b.data[i]!);
      count++;
    }
  }
  return sum / count;
}

/** Sobel gradient magnitude at every pixel (borders left at 0). */
export function edges(img: Grey): Float64Array {
  const { width: w, height: h, data: d } = img;
  const out = new Float64Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const p = (dx: number, dy: number) => d[(y + dy) * w + x + dx]!;
      const gx = p(1, -1) + 2 * p(1, 0) + p(1, 1) - p(-1, -1) - 2 * p(-1, 0) - p(-1, 1);
      const gy = p(-1, 1) + 2 * p(0, 1) + p(1, 1) - p(-1, -1) - 2 * p(0, -1) - p(1, -1);
      out[y * w + x] = Math.hypot(gx, gy);
    }
  }
  return out;
}

/**
 * Averages a per-pixel map over square blocks, so a comparison tolerates edges a few pixels off
 * and ignores fine texture.
 */
export function blockMeans(map: ArrayLike<number>, width: number, height: number, block: number): Float64Array {
  const bw = Math.floor(width / block);
  const bh = Math.floor(height / block);
  const out = new Float64Array(bw * bh);
  for (let y = 0; y < bh * block; y++) {
    for (let x = 0; x < bw * block; x++) {
      out[Math.floor(y / block) * bw + Math.floor(x / block)]! += map[y * width + x]! / (block * block);
    }
  }
  return out;
}

/** Pearson correlation of two equally long series. */
export function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let cov = 0;
  let va = 0;
  let vb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  return cov / Math.sqrt(va * vb);
}

/** A JPEG of simple shapes, as base64, for use as an input image. */
export async function shapesJpeg(width: number, height: number, svgBody: string, background = '#203040'): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/>${svgBody}</svg>`;
  return (await sharp(Buffer.from(svg)).jpeg({ quality: 95 }).toBuffer()).toString('base64');
}

/** A PNG mask, white where the engine may paint, as base64. */
export async function maskPng(width: number, height: number, white: { left: number; top: number; width: number; height: number }): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#000"/><rect x="${white.left}" y="${white.top}" width="${white.width}" height="${white.height}" fill="#fff"/></svg>`;
  return (await sharp(Buffer.from(svg)).png().toBuffer()).toString('base64');
}
