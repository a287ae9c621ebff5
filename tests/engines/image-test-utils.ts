/** Shared helpers of the local image engine's tests: requests, decoding, pixel measures. */
import sharp from 'sharp';
import { validateImageRequest, type ResolvedImageRequest } from '../../api/image';

/** A validated request with defaults filled, or a thrown error listing what is wrong. */
export function resolved(engine: string, body: Record<string, unknown>): ResolvedImageRequest {
  const v = validateImageRequest(engine, body);
  if (!v.ok) throw new Error(`test request is invalid: ${JSON.stringify(v.issues)}`);
  return v.value;
}

export interface Pixels {
  width: number;
  height: number;
  /** RGB bytes. */
  data: Uint8Array;
}

export async function decode(b64: string): Promise<Pixels> {
  const { data, info } = await sharp(Buffer.from(b64, 'base64')).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** Encodes RGB pixels painted by `paint(x, y)` as a base64 PNG (lossless) or JPEG. */
export async function makeImage(width: number, height: number, paint: (x: number, y: number) => readonly [number, number, number], format: 'png' | 'jpeg' = 'png'): Promise<string> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      const i = (y * width + x) * 3;
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
    }
  }
  const img = sharp(data, { raw: { width, height, channels: 3 } });
  return (await (format === 'png' ? img.png() : img.jpeg({ quality: 95 })).toBuffer()).toString('base64');
}

/** A busy test picture: gradients, a disc, stripes and a bar, so resizing and edges have something to bite. */
export function photoLike(seed: number): (x: number, y: number) => readonly [number, number, number] {
  return (x, y) => {
    const disc = (x - 180 - seed * 20) ** 2 + (y - 200) ** 2 < 90 ** 2;
    const bar = x > 300 && x < 360 && y > 60 && y < 420;
    if (disc) return [230, 60 + seed * 30, 40];
    if (bar) return [30, 40, 200 - seed * 40];
    const stripe = Math.floor(y / 40) % 2 === 0 ? 20 : 0;
    return [(x * 0.4 + stripe) & 255, (y * 0.45) & 255, (140 + seed * 37) & 255];
  };
}

export function meanColour(p: Pixels): [number, number, number] {
  const s = [0, 0, 0];
  for (let i = 0; i < p.data.length; i += 3) for (let c = 0; c < 3; c++) s[c]! += p.data[i + c]!;
  const n = p.data.length / 3;
  return [s[0]! / n, s[1]! / n, s[2]! / n];
}

/** Mean absolute difference per channel between two same-sized images, 0..255. */
export function meanAbsDiff(a: Pixels, b: Pixels, region?: (x: number, y: number) => boolean): number {
  let s = 0;
  let n = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (region && !region(x, y)) continue;
      const i = (y * a.width + x) * 3;
      for (let c = 0; c < 3; c++) s += Math.abs(a.data[i + c]! - b.data[i + c]!);
      n += 3;
    }
  }
  return s / Math.max(1, n);
}

export function luma(p: Pixels): Float32Array {
  const out = new Float32Array(p.width * p.height);
  for (let q = 0; q < out.length; q++) out[q] = 0.299 * p.data[q * 3]! + 0.587 * p.data[q * 3 + 1]! + 0.114 * p.data[q * 3 + 2]!;
  return out;
}

/** Mean absolute 4-neighbour Laplacian of luma: the image's high-frequency energy. */
export function highFrequency(p: Pixels): number {
  const l = luma(p);
  const w = p.width;
  let s = 0;
  let n = 0;
  for (let y = 1; y < p.height - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const q = y * w + x;
      s += Math.abs(4 * l[q]! - l[q - 1]! - l[q + 1]! - l[q - w]! - l[q + w]!);
      n++;
    }
  }
  return s / n;
}

/** Mean HSV-style saturation (max - min) / max, 0..1. */
export function meanSaturation(p: Pixels): number {
  let s = 0;
  for (let i = 0; i < p.data.length; i += 3) {
    const r = p.data[i]!;
    const g = p.data[i + 1]!;
    const b = p.data[i + 2]!;
    const max = Math.max(r, g, b);
    s += max === 0 ? 0 : (max - Math.min(r, g, b)) / max;
  }
  return s / (p.data.length / 3);
}

/** Sobel gradient magnitude of a luma plane. */
export function sobelMagnitude(l: ArrayLike<number>, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const q = y * w + x;
      const gx = l[q - w + 1]! + 2 * l[q + 1]! + l[q + w + 1]! - l[q - w - 1]! - 2 * l[q - 1]! - l[q + w - 1]!;
      const gy = l[q + w - 1]! + 2 * l[q + w]! + l[q + w + 1]! - l[q - w - 1]! - 2 * l[q - w]! - l[q - w + 1]!;
      out[q] = Math.hypot(gx, gy);
    }
  }
  return out;
}

/** Pearson correlation of two equal-length series. */
export function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) { ma += a[i]!; mb += b[i]!; }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    sab += da * db;
    saa += da * da;
    sbb += db * db;
  }
  return sab / Math.sqrt(saa * sbb || 1);
}

/** Box blur of a plane (radius r), to compare edge maps without demanding pixel-exact alignment. */
export function blurPlane(src: ArrayLike<number>, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      let n = 0;
      for (let k = Math.max(0, x - r); k <= Math.min(w - 1, x + r); k++) { s += src[y * w + k]!; n++; }
      tmp[y * w + x] = s / n;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      let n = 0;
      for (let k = Math.max(0, y - r); k <= Math.min(h - 1, y + r); k++) { s += tmp[k * w + x]!; n++; }
      out[y * w + x] = s / n;
    }
  }
  return out;
}
