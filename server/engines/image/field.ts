/**
 * The working picture of the image engine: an RGB float raster (0..255 per channel) at a
 * fraction of the output size, plus the few raster primitives every pass shares. Float keeps
 * the chain of tone and style passes from banding before the single rounding at upscale time.
 */
import { Rng } from '../random';
import { type RGB } from './color';

export interface Field {
  width: number;
  height: number;
  /** RGB, row-major, 0..255 (values may overshoot until the final clamp). */
  data: Float32Array;
}

export function createField(width: number, height: number): Field {
  return { width, height, data: new Float32Array(width * height * 3) };
}

export function cloneField(f: Field): Field {
  return { width: f.width, height: f.height, data: f.data.slice() };
}

/**
 * Smooth value noise in -1..1 over a w x h grid, with cellsX x cellsY random lattice points
 * interpolated with a smoothstep, so it looks like soft brush variation rather than static.
 */
export function valueNoise(w: number, h: number, cellsX: number, cellsY: number, seed: number): Float32Array {
  const rng = new Rng(seed);
  const gx = cellsX + 2;
  const gy = cellsY + 2;
  const lattice = new Float32Array(gx * gy);
  for (let i = 0; i < lattice.length; i++) lattice[i] = rng.next() * 2 - 1;
  const out = new Float32Array(w * h);
  const sx = cellsX / w;
  const sy = cellsY / h;
  // Precompute the horizontal lattice index and smoothed weight of every column once.
  const colIndex = new Int32Array(w);
  const colWeight = new Float32Array(w);
  for (let x = 0; x < w; x++) {
    const fx = x * sx;
    const ix = Math.floor(fx);
    const t = fx - ix;
    colIndex[x] = ix;
    colWeight[x] = t * t * (3 - 2 * t);
  }
  for (let y = 0; y < h; y++) {
    const fy = y * sy;
    const iy = Math.floor(fy);
    let ty = fy - iy;
    ty = ty * ty * (3 - 2 * ty);
    const r0 = iy * gx;
    const r1 = r0 + gx;
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const ix = colIndex[x]!;
      const tx = colWeight[x]!;
      const a = lattice[r0 + ix]! + (lattice[r0 + ix + 1]! - lattice[r0 + ix]!) * tx;
      const b = lattice[r1 + ix]! + (lattice[r1 + ix + 1]! - lattice[r1 + ix]!) * tx;
      out[row + x] = a + (b - a) * ty;
    }
  }
  return out;
}

/** Blends `colour` into pixel i (index of its red channel) with coverage a. */
export function blendAt(data: Float32Array, i: number, colour: RGB, a: number): void {
  data[i] = data[i]! + (colour[0] - data[i]!) * a;
  data[i + 1] = data[i + 1]! + (colour[1] - data[i + 1]!) * a;
  data[i + 2] = data[i + 2]! + (colour[2] - data[i + 2]!) * a;
}

/** Per-pixel luma of a field, for edge and tone passes. */
export function fieldLuma(f: Field): Float32Array {
  const n = f.width * f.height;
  const out = new Float32Array(n);
  const d = f.data;
  for (let p = 0, i = 0; p < n; p++, i += 3) out[p] = 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
  return out;
}

/**
 * Separable box blur of a field in place, repeated `passes` times (three passes approximate a
 * Gaussian). Radius in field pixels; a running sum keeps it O(1) per pixel whatever the radius.
 */
export function boxBlur(f: Field, radius: number, passes = 2, horizontalOnly = false): void {
  blurChannels(f.data, f.width, f.height, 3, radius, passes, horizontalOnly);
}

/** Box blur of a single-channel plane, in place. */
export function blurPlane(plane: Float32Array, w: number, h: number, radius: number, passes = 2): void {
  blurChannels(plane, w, h, 1, radius, passes, false);
}

function blurChannels(data: Float32Array, w: number, h: number, ch: number, radius: number, passes: number, horizontalOnly: boolean): void {
  const r = Math.max(0, Math.round(radius));
  if (r === 0) return;
  const line = new Float32Array(Math.max(w, h) * ch);
  for (let pass = 0; pass < passes; pass++) {
    blurLines(data, line, h, w, w * ch, ch, r, ch);
    if (!horizontalOnly) blurLines(data, line, w, h, ch, w * ch, r, ch);
  }
}

/** Blurs `count` lines of `len` pixels; `lineStep` moves to the next line, `step` along one. */
function blurLines(data: Float32Array, line: Float32Array, count: number, len: number, lineStep: number, step: number, r: number, ch: number): void {
  const norm = 1 / (2 * r + 1);
  for (let l = 0; l < count; l++) {
    const base = l * lineStep;
    for (let i = 0; i < len; i++) {
      const s = base + i * step;
      for (let c = 0; c < ch; c++) line[i * ch + c] = data[s + c]!;
    }
    for (let c = 0; c < ch; c++) {
      // Edge pixels repeat beyond the border so the frame does not darken.
      let sum = line[c]! * (r + 1);
      for (let i = 1; i <= r; i++) sum += line[Math.min(i, len - 1) * ch + c]!;
      for (let i = 0; i < len; i++) {
        data[base + i * step + c] = sum * norm;
        const add = Math.min(i + r + 1, len - 1);
        const sub = Math.max(i - r, 0);
        sum += line[add * ch + c]! - line[sub * ch + c]!;
      }
    }
  }
}
