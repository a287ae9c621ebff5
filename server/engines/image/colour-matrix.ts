/**
 * Affine colour transforms (3x3 matrix plus offset), composed first and applied in one pass:
 * brightness, warmth, saturation, contrast, hue rotation and tints are all affine, so a chain
 * of them costs one trip over the pixels instead of one each.
 */
import { type Field } from './field';
import { type RGB } from './color';

/** Row-major [m00 m01 m02 o0, m10 m11 m12 o1, m20 m21 m22 o2]. */
export type Affine = readonly number[];

export const IDENTITY: Affine = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];

/** `then` applied after `first`. */
export function compose(first: Affine, then: Affine): Affine {
  const out: number[] = new Array<number>(12).fill(0);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      out[r * 4 + c] = then[r * 4]! * first[c]! + then[r * 4 + 1]! * first[4 + c]! + then[r * 4 + 2]! * first[8 + c]!;
    }
    out[r * 4 + 3] = then[r * 4]! * first[3]! + then[r * 4 + 1]! * first[7]! + then[r * 4 + 2]! * first[11]! + then[r * 4 + 3]!;
  }
  return out;
}

/** Chains transforms left to right. */
export function chain(...steps: Affine[]): Affine {
  return steps.reduce((acc, s) => compose(acc, s), IDENTITY);
}

export function multiply(k: number): Affine {
  return [k, 0, 0, 0, 0, k, 0, 0, 0, 0, k, 0];
}

export function offset(r: number, g: number, b: number): Affine {
  return [1, 0, 0, r, 0, 1, 0, g, 0, 0, 1, b];
}

/** Mixes every pixel toward a colour by t. */
export function tint(colour: RGB, t: number): Affine {
  const k = 1 - t;
  return [k, 0, 0, colour[0] * t, 0, k, 0, colour[1] * t, 0, 0, k, colour[2] * t];
}

/** Saturation around each pixel's own luma; 0 is grey, 1 unchanged, above 1 more vivid. */
export function saturation(s: number): Affine {
  const lr = 0.299 * (1 - s);
  const lg = 0.587 * (1 - s);
  const lb = 0.114 * (1 - s);
  return [lr + s, lg, lb, 0, lr, lg + s, lb, 0, lr, lg, lb + s, 0];
}

/** Contrast around mid grey (or another pivot). */
export function contrast(c: number, pivot = 128): Affine {
  const o = pivot * (1 - c);
  return [c, 0, 0, o, 0, c, 0, o, 0, 0, c, o];
}

/** Hue rotation in degrees (the luma-preserving matrix CSS's hue-rotate uses). */
export function hueRotate(degrees: number): Affine {
  const a = (degrees * Math.PI) / 180;
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  return [
    0.213 + cos * 0.787 - sin * 0.213, 0.715 - cos * 0.715 - sin * 0.715, 0.072 - cos * 0.072 + sin * 0.928, 0,
    0.213 - cos * 0.213 + sin * 0.143, 0.715 + cos * 0.285 + sin * 0.14, 0.072 - cos * 0.072 - sin * 0.283, 0,
    0.213 - cos * 0.213 - sin * 0.787, 0.715 - cos * 0.715 + sin * 0.715, 0.072 + cos * 0.928 + sin * 0.072, 0,
  ];
}

/** Warm (positive) or cool (negative) balance shift. */
export function warmth(w: number): Affine {
  return offset(20 * w, 4 * w, -20 * w);
}

/** Applies a transform to every pixel of a field, in place. */
export function applyAffine(f: Field, m: Affine): void {
  const d = f.data;
  const [a, b, c, o0, e, g, h, o1, i, j, k, o2] = m as [number, number, number, number, number, number, number, number, number, number, number, number];
  for (let p = 0; p < d.length; p += 3) {
    const r = d[p]!;
    const gg = d[p + 1]!;
    const bb = d[p + 2]!;
    d[p] = a * r + b * gg + c * bb + o0;
    d[p + 1] = e * r + g * gg + h * bb + o1;
    d[p + 2] = i * r + j * gg + k * bb + o2;
  }
}
