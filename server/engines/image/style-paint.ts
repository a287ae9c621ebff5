/**
 * Painterly style operations: washes, brush strokes, paper texture and drifting hue, the
 * operations that imitate a medium rather than filter a photograph.
 */
import { boxBlur, cloneField, valueNoise, type Field } from './field';
import { hashInts } from '../random';

/** Rotates hue by an angle that waves across the frame. */
export function hueWaves(f: Field, amount: number, seed: number): void {
  const { width: w, height: h, data: d } = f;
  const n = valueNoise(w, h, 3, 3, hashInts(seed, 40));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const a = amount * Math.PI * (Math.sin((x / w) * 9 + (y / h) * 5) + 1.5 * n[p]!);
      const cos = Math.cos(a);
      const sin = Math.sin(a);
      const i = p * 3;
      const r = d[i]!;
      const g = d[i + 1]!;
      const b = d[i + 2]!;
      d[i] = r * (0.213 + cos * 0.787 - sin * 0.213) + g * (0.715 - cos * 0.715 - sin * 0.715) + b * (0.072 - cos * 0.072 + sin * 0.928);
      d[i + 1] = r * (0.213 - cos * 0.213 + sin * 0.143) + g * (0.715 + cos * 0.285 + sin * 0.14) + b * (0.072 - cos * 0.072 - sin * 0.283);
      d[i + 2] = r * (0.213 - cos * 0.213 - sin * 0.787) + g * (0.715 - cos * 0.715 + sin * 0.715) + b * (0.072 + cos * 0.928 + sin * 0.072);
    }
  }
}

/** Paper, canvas or wall texture: a fine and a coarse luminance variation. */
export function paper(f: Field, amount: number, seed: number): void {
  const { width: w, height: h, data: d } = f;
  const fine = valueNoise(w, h, Math.max(4, w >> 1), Math.max(4, h >> 1), hashInts(seed, 41));
  const coarse = valueNoise(w, h, 7, 7, hashInts(seed, 42));
  for (let p = 0; p < w * h; p++) {
    const k = 1 + amount * (0.6 * fine[p]! + 0.4 * coarse[p]!);
    const i = p * 3;
    d[i] = d[i]! * k;
    d[i + 1] = d[i + 1]! * k;
    d[i + 2] = d[i + 2]! * k;
  }
}

/** Watercolour: soft washes whose pigment pools darker at the edges of each wash. */
export function bleed(f: Field, seed: number): void {
  const orig = cloneField(f);
  boxBlur(f, 2, 3);
  const d = f.data;
  const o = orig.data;
  const blot = valueNoise(f.width, f.height, 9, 9, hashInts(seed, 43));
  for (let p = 0, i = 0; i < d.length; p++, i += 3) {
    const diff = Math.abs(o[i]! - d[i]!) + Math.abs(o[i + 1]! - d[i + 1]!) + Math.abs(o[i + 2]! - d[i + 2]!);
    const k = 1 - Math.min(0.45, diff / 160) + 0.08 * blot[p]!;
    for (let c = 0; c < 3; c++) d[i + c] = (d[i + c]! * k) * 0.85 + 255 * 0.15;
  }
}

/** Short brush strokes: each pixel averaged along a direction that drifts across the canvas. */
export function strokes(f: Field, length: number, seed: number): void {
  const { width: w, height: h } = f;
  const src = cloneField(f).data;
  const angle = valueNoise(w, h, 6, 6, hashInts(seed, 44));
  const d = f.data;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const a = angle[p]! * Math.PI * 1.5;
      const dx = Math.cos(a);
      const dy = Math.sin(a);
      let r = 0;
      let g = 0;
      let b = 0;
      for (let s = -length; s <= length; s++) {
        const sx = Math.min(w - 1, Math.max(0, Math.round(x + dx * s)));
        const sy = Math.min(h - 1, Math.max(0, Math.round(y + dy * s)));
        const q = (sy * w + sx) * 3;
        r += src[q]!;
        g += src[q + 1]!;
        b += src[q + 2]!;
      }
      const k = 1 / (2 * length + 1);
      d[p * 3] = r * k;
      d[p * 3 + 1] = g * k;
      d[p * 3 + 2] = b * k;
    }
  }
}
