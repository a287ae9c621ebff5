/**
 * Filter-like style operations on the working field: tone curves, blurs, posterising, outlines,
 * light effects. styles.ts combines them (with the patterns of style-patterns.ts) per preset.
 */
import { blurPlane, boxBlur, cloneField, fieldLuma, type Field } from './field';
import { sobel } from './edges';
import { type RGB } from './color';

/** Maps luma onto a two-colour ramp (ink for black, paper for white). */
export function mono(f: Field, ink: RGB, paper: RGB): void {
  const d = f.data;
  for (let i = 0; i < d.length; i += 3) {
    const t = Math.max(0, Math.min(1, (0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!) / 255));
    d[i] = ink[0] + (paper[0] - ink[0]) * t;
    d[i + 1] = ink[1] + (paper[1] - ink[1]) * t;
    d[i + 2] = ink[2] + (paper[2] - ink[2]) * t;
  }
}

/** Stretches luma so the 2nd to 98th percentile spans the full range (auto levels). */
export function levels(f: Field): void {
  const l = fieldLuma(f);
  const hist = new Uint32Array(256);
  for (const v of l) hist[Math.max(0, Math.min(255, Math.round(v)))]!++;
  const cut = l.length * 0.02;
  let lo = 0;
  let hi = 255;
  for (let acc = 0; lo < 255 && acc + hist[lo]! < cut; lo++) acc += hist[lo]!;
  for (let acc = 0; hi > 0 && acc + hist[hi]! < cut; hi--) acc += hist[hi]!;
  if (hi - lo < 8) return;
  const k = 255 / (hi - lo);
  const d = f.data;
  for (let i = 0; i < d.length; i++) d[i] = (d[i]! - lo) * k;
}

export function posterize(f: Field, levels: number): void {
  const d = f.data;
  const step = 255 / (levels - 1);
  for (let i = 0; i < d.length; i++) d[i] = Math.round(Math.max(0, Math.min(255, d[i]!)) / step) * step;
}

/** Snaps every pixel to the nearest colour of a fixed palette. */
export function quantize(f: Field, palette: readonly RGB[]): void {
  const d = f.data;
  for (let i = 0; i < d.length; i += 3) {
    let best = palette[0]!;
    let bestD = Infinity;
    for (const c of palette) {
      // Weighted distance: the eye is most sensitive to green, least to blue.
      const dist = 3 * (d[i]! - c[0]) ** 2 + 4 * (d[i + 1]! - c[1]) ** 2 + 2 * (d[i + 2]! - c[2]) ** 2;
      if (dist < bestD) { bestD = dist; best = c; }
    }
    d[i] = best[0];
    d[i + 1] = best[1];
    d[i + 2] = best[2];
  }
}

/** Averages block x block squares into flat pixels. */
export function pixelate(f: Field, block: number): void {
  const { width: w, height: h, data: d } = f;
  for (let by = 0; by < h; by += block) {
    for (let bx = 0; bx < w; bx += block) {
      const ye = Math.min(h, by + block);
      const xe = Math.min(w, bx + block);
      const sum = [0, 0, 0];
      for (let y = by; y < ye; y++) for (let x = bx; x < xe; x++) for (let c = 0; c < 3; c++) sum[c]! += d[(y * w + x) * 3 + c]!;
      const k = 1 / ((ye - by) * (xe - bx));
      for (let y = by; y < ye; y++) for (let x = bx; x < xe; x++) for (let c = 0; c < 3; c++) d[(y * w + x) * 3 + c] = sum[c]! * k;
    }
  }
}

/** Edge strength 0..1 from the luma gradient, with `threshold` the Sobel magnitude where ink starts. */
export function edgeMask(f: Field, threshold: number, width = 1): Float32Array {
  const { mag } = sobel(fieldLuma(f), f.width, f.height);
  const m = new Float32Array(mag.length);
  for (let p = 0; p < m.length; p++) m[p] = Math.max(0, Math.min(1, (mag[p]! - threshold) / threshold));
  if (width > 1) {
    blurPlane(m, f.width, f.height, width - 1, 1);
    for (let p = 0; p < m.length; p++) m[p] = Math.min(1, m[p]! * 2.2);
  }
  return m;
}

/** Inks the edges of the picture (comic, anime, stained glass leads, neon tubes). */
export function outline(f: Field, threshold: number, ink: RGB, width = 1): void {
  const m = edgeMask(f, threshold, width);
  const d = f.data;
  for (let p = 0; p < m.length; p++) {
    const a = m[p]!;
    if (a <= 0) continue;
    const i = p * 3;
    d[i] = d[i]! + (ink[0] - d[i]!) * a;
    d[i + 1] = d[i + 1]! + (ink[1] - d[i + 1]!) * a;
    d[i + 2] = d[i + 2]! + (ink[2] - d[i + 2]!) * a;
  }
}

/** Only the edges, as ink on paper. */
export function lineArt(f: Field, threshold: number, ink: RGB, paper: RGB): void {
  const m = edgeMask(f, threshold);
  const d = f.data;
  for (let p = 0; p < m.length; p++) {
    const a = m[p]!;
    const i = p * 3;
    d[i] = paper[0] + (ink[0] - paper[0]) * a;
    d[i + 1] = paper[1] + (ink[1] - paper[1]) * a;
    d[i + 2] = paper[2] + (ink[2] - paper[2]) * a;
  }
}

/** Unsharp mask of the given radius. */
export function sharpen(f: Field, amount: number, radius = 1): void {
  const b = cloneField(f);
  boxBlur(b, radius, 2);
  const d = f.data;
  for (let i = 0; i < d.length; i++) d[i] = d[i]! + (d[i]! - b.data[i]!) * amount;
}

/** Darkens (or with a negative amount, lightens) toward the corners. */
export function vignette(f: Field, amount: number): void {
  const { width: w, height: h, data: d } = f;
  for (let y = 0; y < h; y++) {
    const ny = (y / h - 0.5) * 2;
    for (let x = 0; x < w; x++) {
      const nx = (x / w - 0.5) * 2;
      const k = 1 - amount * Math.min(1, (nx * nx + ny * ny) / 2) * 1.2;
      const i = (y * w + x) * 3;
      d[i] = d[i]! * k;
      d[i + 1] = d[i + 1]! * k;
      d[i + 2] = d[i + 2]! * k;
    }
  }
}

/** Black bars above and below, as a wide film frame. */
export function letterbox(f: Field, fraction: number): void {
  const bar = Math.round(f.height * fraction);
  const d = f.data;
  const row = f.width * 3;
  d.fill(8, 0, bar * row);
  d.fill(8, (f.height - bar) * row, f.height * row);
}

/** Bright areas bleed light around them. */
export function bloom(f: Field, amount: number, radius = 4): void {
  const b = cloneField(f);
  const d = b.data;
  for (let i = 0; i < d.length; i += 3) {
    const l = 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
    const k = Math.max(0, (l - 150) / 105);
    d[i] = d[i]! * k;
    d[i + 1] = d[i + 1]! * k;
    d[i + 2] = d[i + 2]! * k;
  }
  boxBlur(b, radius, 3);
  for (let i = 0; i < d.length; i++) f.data[i] = f.data[i]! + d[i]! * amount;
}

/** Sharp band across the middle, blurred above and below: the miniature look. */
export function tiltShift(f: Field, radius: number): void {
  const b = cloneField(f);
  boxBlur(b, radius, 2);
  const { width: w, height: h, data: d } = f;
  for (let y = 0; y < h; y++) {
    const t = Math.min(1, Math.max(0, (Math.abs(y / h - 0.58) - 0.1) * 4));
    for (let i = y * w * 3; i < (y + 1) * w * 3; i++) d[i] = d[i]! + (b.data[i]! - d[i]!) * t;
  }
}

/** Horizontal motion streaks on the bright parts: lights smeared by a long exposure. */
export function streak(f: Field, radius: number): void {
  const b = cloneField(f);
  boxBlur(b, radius, 2, true);
  const d = f.data;
  for (let i = 0; i < d.length; i += 3) {
    const l = (0.299 * b.data[i]! + 0.587 * b.data[i + 1]! + 0.114 * b.data[i + 2]!) / 255;
    const k = 0.45 + 0.5 * l;
    for (let c = 0; c < 3; c++) d[i + c] = d[i + c]! + (b.data[i + c]! - d[i + c]!) * k;
  }
}

/** Shading from the luma relief, lit from the upper left: clay, plastic, folded paper. */
export function emboss(f: Field, amount: number): void {
  const { width: w, height: h } = f;
  const l = fieldLuma(f);
  blurPlane(l, w, h, 1, 1);
  const d = f.data;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const p = y * w + x;
      const k = 1 + (amount * (l[p - w - 1]! - l[p + w + 1]!)) / 90;
      const i = p * 3;
      d[i] = d[i]! * k;
      d[i + 1] = d[i + 1]! * k;
      d[i + 2] = d[i + 2]! * k;
    }
  }
}

/** Darkens every other field row: a CRT's scanlines, four output pixels tall. */
export function scanlines(f: Field, amount: number): void {
  const row = f.width * 3;
  for (let y = 1; y < f.height; y += 2) {
    for (let i = y * row; i < (y + 1) * row; i++) f.data[i] = f.data[i]! * (1 - amount);
  }
}

/** Dark shapes against a glowing sky: below the threshold luma everything becomes ink. */
export function silhouette(f: Field, ink: RGB): void {
  const l = fieldLuma(f);
  let mean = 0;
  for (const v of l) mean += v;
  mean /= l.length;
  const d = f.data;
  for (let p = 0; p < l.length; p++) {
    const i = p * 3;
    const t = Math.max(0, Math.min(1, (l[p]! - mean * 0.9) / 18));
    const sky: RGB = [Math.min(255, d[i]! * 1.15 + 40), Math.min(255, d[i + 1]! * 1.05 + 20), d[i + 2]! * 0.9 + 10];
    for (let c = 0; c < 3; c++) d[i + c] = ink[c]! + (sky[c]! - ink[c]!) * t;
  }
}
