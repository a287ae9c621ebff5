/**
 * Field to output pixels: upscales the working field to the requested size (bilinear, or
 * nearest for pixel styles) and adds the residual grain of the sampling in the same pass, so
 * the full-size image is touched once. Also the reverse (box downscale) for input images.
 */
import { Rng } from '../random';
import { type Field } from './field';

const NOISE_LEN = 1 << 14;

/** A table of roughly normal values scaled to `sigma`, read at a random offset per row. */
function noiseTable(seed: number, sigma: number): Float32Array {
  const rng = new Rng(seed);
  const t = new Float32Array(NOISE_LEN);
  for (let i = 0; i < NOISE_LEN; i++) t[i] = rng.gauss() * sigma;
  return t;
}

export interface UpscaleOptions {
  kernel: 'bilinear' | 'nearest';
  /** Deviation of the added grain in 0..255 units; 0 adds none. */
  grain: number;
  /** Grain in luminance only (the same value on all three channels), for colourless styles. */
  monoGrain?: boolean;
  seed: number;
}

/** Upscales a field to width x height RGB bytes, adding grain. */
export function upscaleWithGrain(f: Field, width: number, height: number, opts: UpscaleOptions): Buffer {
  const { width: fw, height: fh, data } = f;
  const nearest = opts.kernel === 'nearest';
  const rowLen = width * 3;
  // Horizontal pass once per field row; the vertical pass then mixes two of these per output row.
  const rows = new Float32Array(fh * rowLen);
  const sx = fw / width;
  const colA = new Int32Array(width);
  const colB = new Int32Array(width);
  const colW = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const fx = nearest ? Math.floor((x + 0.5) * sx) : (x + 0.5) * sx - 0.5;
    const i0 = Math.floor(fx);
    colA[x] = Math.max(0, Math.min(fw - 1, i0)) * 3;
    colB[x] = Math.max(0, Math.min(fw - 1, i0 + 1)) * 3;
    colW[x] = nearest ? 0 : fx - i0;
  }
  for (let y = 0; y < fh; y++) {
    const src = y * fw * 3;
    const dst = y * rowLen;
    for (let x = 0; x < width; x++) {
      const a = src + colA[x]!;
      const b = src + colB[x]!;
      const t = colW[x]!;
      const o = dst + x * 3;
      rows[o] = data[a]! + (data[b]! - data[a]!) * t;
      rows[o + 1] = data[a + 1]! + (data[b + 1]! - data[a + 1]!) * t;
      rows[o + 2] = data[a + 2]! + (data[b + 2]! - data[a + 2]!) * t;
    }
  }
  // Writing through a clamped view rounds and clamps each value with no branch in the loop.
  const clamped = new Uint8ClampedArray(height * rowLen);
  const noise = opts.grain > 0 ? noiseTable(opts.seed, opts.grain) : undefined;
  const rng = new Rng(opts.seed ^ 0x5bd1e995);
  const sy = fh / height;
  for (let y = 0; y < height; y++) {
    const fy = nearest ? Math.floor((y + 0.5) * sy) : (y + 0.5) * sy - 0.5;
    const i0 = Math.floor(fy);
    const a = Math.max(0, Math.min(fh - 1, i0)) * rowLen;
    const b = Math.max(0, Math.min(fh - 1, i0 + 1)) * rowLen;
    const t = nearest ? 0 : fy - i0;
    const u = 1 - t;
    const top = rows.subarray(a, a + rowLen);
    const bottom = rows.subarray(b, b + rowLen);
    const dst = clamped.subarray(y * rowLen, (y + 1) * rowLen);
    if (noise) {
      // Each row reads the noise table from its own random offset, so rows do not repeat.
      const off = rng.int(NOISE_LEN - rowLen);
      const n = noise.subarray(off, off + rowLen);
      if (opts.monoGrain) {
        for (let i = 0, x = 0; i < rowLen; i += 3, x++) {
          const g = n[x]!;
          dst[i] = top[i]! * u + bottom[i]! * t + g;
          dst[i + 1] = top[i + 1]! * u + bottom[i + 1]! * t + g;
          dst[i + 2] = top[i + 2]! * u + bottom[i + 2]! * t + g;
        }
      } else {
        for (let i = 0; i < rowLen; i++) dst[i] = top[i]! * u + bottom[i]! * t + n[i]!;
      }
    } else {
      for (let i = 0; i < rowLen; i++) dst[i] = top[i]! * u + bottom[i]! * t;
    }
  }
  const out = Buffer.from(clamped.buffer, clamped.byteOffset, clamped.byteLength);
  return out;
}

/**
 * Box-averages RGB bytes (width x height) down to a field of fw x fh, for mixing input images
 * into the working field. Exact when the sizes divide, as the engine's always do.
 */
export function downscaleToField(pixels: Uint8Array, width: number, height: number, fw: number, fh: number): Field {
  const data = new Float32Array(fw * fh * 3);
  const counts = new Float32Array(fw * fh);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(fh - 1, Math.floor((y * fh) / height));
    for (let x = 0; x < width; x++) {
      const fx = Math.min(fw - 1, Math.floor((x * fw) / width));
      const p = fy * fw + fx;
      const i = (y * width + x) * 3;
      data[p * 3] = data[p * 3]! + pixels[i]!;
      data[p * 3 + 1] = data[p * 3 + 1]! + pixels[i + 1]!;
      data[p * 3 + 2] = data[p * 3 + 2]! + pixels[i + 2]!;
      counts[p] = counts[p]! + 1;
    }
  }
  for (let p = 0; p < fw * fh; p++) {
    const k = 1 / Math.max(1, counts[p]!);
    data[p * 3] = data[p * 3]! * k;
    data[p * 3 + 1] = data[p * 3 + 1]! * k;
    data[p * 3 + 2] = data[p * 3 + 2]! * k;
  }
  return { width: fw, height: fh, data };
}
