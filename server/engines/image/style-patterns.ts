/**
 * Structural style operations: the picture rebuilt from cells, dots, layers, patterns or
 * pieces (stained glass, cubism, low-poly, pointillism, halftone, papercut, collage, tiles).
 */
import { cloneField, fieldLuma, type Field } from './field';
import { ellipse, glow } from './shapes';
import { hashInts, Rng } from '../random';
import { hsl, type RGB } from './color';

/**
 * Flat-coloured cells, each the mean colour of the pixels it covers: Voronoi cells around
 * jittered grid points, or triangles (each grid square split on a random diagonal).
 * `leads` draws the cell borders in that colour.
 */
export function cells(f: Field, size: number, shape: 'voronoi' | 'triangles', seed: number, leads?: RGB): void {
  const { width: w, height: h, data: d } = f;
  const gw = Math.ceil(w / size) + 1;
  const gh = Math.ceil(h / size) + 1;
  const rng = new Rng(hashInts(seed, 50));
  const px = new Float32Array(gw * gh);
  const py = new Float32Array(gw * gh);
  for (let k = 0; k < gw * gh; k++) {
    px[k] = ((k % gw) + rng.range(0.1, 0.9)) * size;
    py[k] = (Math.floor(k / gw) + rng.range(0.1, 0.9)) * size;
  }
  const label = new Int32Array(w * h);
  const border = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const cx = Math.floor(x / size);
      const cy = Math.floor(y / size);
      if (shape === 'triangles') {
        const k = cy * gw + cx;
        const fx = x / size - cx;
        const fy = y / size - cy;
        const flip = (hashInts(seed, k) & 1) === 1;
        const upper = flip ? fx + fy < 1 : fx > fy;
        label[p] = k * 2 + (upper ? 1 : 0);
        const dist = flip ? Math.abs(fx + fy - 1) : Math.abs(fx - fy);
        border[p] = dist * size < 0.6 || fx * size < 0.6 || fy * size < 0.6 ? 1 : 0;
        continue;
      }
      let best = 0;
      let bestD = Infinity;
      let second = Infinity;
      for (let j = Math.max(0, cy - 1); j <= Math.min(gh - 1, cy + 1); j++) {
        for (let i = Math.max(0, cx - 1); i <= Math.min(gw - 1, cx + 1); i++) {
          const k = j * gw + i;
          const dd = (x - px[k]!) ** 2 + (y - py[k]!) ** 2;
          if (dd < bestD) { second = bestD; bestD = dd; best = k; } else if (dd < second) second = dd;
        }
      }
      label[p] = best;
      border[p] = Math.sqrt(second) - Math.sqrt(bestD) < 1.1 ? 1 : 0;
    }
  }
  const labels = shape === 'triangles' ? gw * gh * 2 : gw * gh;
  const sum = new Float32Array(labels * 4);
  for (let p = 0; p < w * h; p++) {
    const l = label[p]! * 4;
    sum[l] = sum[l]! + d[p * 3]!;
    sum[l + 1] = sum[l + 1]! + d[p * 3 + 1]!;
    sum[l + 2] = sum[l + 2]! + d[p * 3 + 2]!;
    sum[l + 3] = sum[l + 3]! + 1;
  }
  for (let p = 0; p < w * h; p++) {
    const l = label[p]! * 4;
    const k = 1 / sum[l + 3]!;
    const edge = leads !== undefined && border[p] === 1;
    for (let c = 0; c < 3; c++) d[p * 3 + c] = edge ? leads[c]! : sum[l + c]! * k;
  }
}

/**
 * Dots on paper. 'pointillism': equal dots in the local colour on a jittered grid;
 * 'halftone': a regular grid of ink-coloured dots sized by darkness, over the picture.
 */
export function dots(f: Field, size: number, mode: 'pointillism' | 'halftone', seed: number, paperColour: RGB): void {
  const src = cloneField(f);
  const { width: w, height: h, data: d } = f;
  const rng = new Rng(hashInts(seed, 51));
  if (mode === 'pointillism') {
    for (let i = 0; i < d.length; i += 3) { d[i] = paperColour[0]; d[i + 1] = paperColour[1]; d[i + 2] = paperColour[2]; }
  }
  const l = mode === 'halftone' ? fieldLuma(src) : undefined;
  const step = mode === 'pointillism' ? size * 1.5 : size * 2;
  for (let y = step / 2; y < h; y += step) {
    for (let x = step / 2; x < w; x += step) {
      const jx = mode === 'pointillism' ? x + rng.range(-0.4, 0.4) * step : x;
      const jy = mode === 'pointillism' ? y + rng.range(-0.4, 0.4) * step : y;
      const sx = Math.min(w - 1, Math.max(0, Math.round(jx)));
      const sy = Math.min(h - 1, Math.max(0, Math.round(jy)));
      const q = (sy * w + sx) * 3;
      if (l) {
        const dark = Math.pow(1 - l[sy * w + sx]! / 255, 1.5);
        ellipse(f, jx, jy, size * dark, size * dark, [25, 20, 30], 0.4, 0);
      } else {
        ellipse(f, jx, jy, size, size, [src.data[q]!, src.data[q + 1]!, src.data[q + 2]!], 1, 0.1);
      }
    }
  }
}

/** Paper layers: luma quantised into levels, each higher layer casting a shadow down-right. */
export function layers(f: Field, levels: number, shadow: number): void {
  const { width: w, height: h, data: d } = f;
  const l = fieldLuma(f);
  const level = new Uint8Array(w * h);
  for (let p = 0; p < w * h; p++) level[p] = Math.min(levels - 1, Math.floor((l[p]! / 256) * levels));
  const means = new Float32Array(levels * 4);
  for (let p = 0; p < w * h; p++) {
    const k = level[p]! * 4;
    for (let c = 0; c < 3; c++) means[k + c] = means[k + c]! + d[p * 3 + c]!;
    means[k + 3] = means[k + 3]! + 1;
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const k = level[p]! * 4;
      const n = Math.max(1, means[k + 3]!);
      // A layer above (brighter level) up-left of this pixel throws its shadow here.
      const sx = Math.max(0, x - shadow);
      const sy = Math.max(0, y - shadow);
      const shaded = level[sy * w + sx]! > level[p]! ? 0.62 : 1;
      for (let c = 0; c < 3; c++) d[p * 3 + c] = (0.7 * (means[k + c]! / n) + 0.3 * d[p * 3 + c]!) * shaded;
    }
  }
}

/** Zentangle fills: each luma band gets its own ink pattern on white. */
export function hatch(f: Field, ink: RGB): void {
  const { width: w, height: h, data: d } = f;
  const l = fieldLuma(f);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const v = l[p]!;
      let on = false;
      if (v < 60) on = (x + y) % 4 === 0 || (x - y + 1000) % 4 === 0;
      else if (v < 110) on = (x + y) % 4 === 0;
      else if (v < 160) on = ((x % 8) - 4) ** 2 + ((y % 8) - 4) ** 2 < 3;
      else if (v < 200) on = y % 6 === 0 && x % 2 === 0;
      const i = p * 3;
      const t = on ? 1 : 0;
      for (let c = 0; c < 3; c++) d[i + c] = 250 + (ink[c]! - 250) * t;
    }
  }
}

/** Rows of letter-like blocks over the upper and lower thirds: a poster's type. */
export function glyphs(f: Field, ink: RGB, seed: number): void {
  const rng = new Rng(hashInts(seed, 52));
  const { width: w, height: h } = f;
  const size = Math.max(4, Math.round(h / 18));
  for (const band of [[0.06, 0.3], [0.78, 0.94]] as const) {
    for (let y = band[0] * h; y < band[1] * h - size; y += size * 1.6) {
      let x = w * 0.08;
      while (x < w * 0.92) {
        const letters = 2 + rng.int(6);
        for (let k = 0; k < letters && x < w * 0.92; k++) {
          const lw = size * rng.range(0.45, 0.8);
          for (let yy = 0; yy < size; yy++) {
            for (let xx = 0; xx < lw; xx++) {
              const on = xx < 1.5 || yy < 1.5 || (rng.next() < 0.35);
              if (!on) continue;
              const p = (Math.floor(y + yy) * w + Math.floor(x + xx)) * 3;
              if (p >= 0 && p < f.data.length - 2) { f.data[p] = ink[0]; f.data[p + 1] = ink[1]; f.data[p + 2] = ink[2]; }
            }
          }
          x += lw + size * 0.2;
        }
        x += size * 0.8;
      }
    }
  }
}

/** Pieces of the picture cut out, shifted and pasted back with a paper border. */
export function collage(f: Field, seed: number): void {
  const rng = new Rng(hashInts(seed, 53));
  const src = cloneField(f).data;
  const { width: w, height: h, data: d } = f;
  for (let k = 0; k < 7; k++) {
    const pw = Math.round(w * rng.range(0.2, 0.4));
    const ph = Math.round(h * rng.range(0.2, 0.4));
    const x0 = rng.int(w - pw);
    const y0 = rng.int(h - ph);
    const sx = rng.int(w - pw);
    const sy = rng.int(h - ph);
    const tone = rng.range(0.85, 1.15);
    for (let y = 0; y < ph; y++) {
      for (let x = 0; x < pw; x++) {
        const i = ((y0 + y) * w + x0 + x) * 3;
        const edge = x < 2 || y < 2 || x >= pw - 2 || y >= ph - 2;
        const s = ((sy + y) * w + sx + x) * 3;
        for (let c = 0; c < 3; c++) d[i + c] = edge ? 246 : src[s + c]! * tone;
      }
    }
  }
}

/** A 2:1 isometric diamond grid drawn over the picture. */
export function isoGrid(f: Field, spacing: number, alpha: number, ink: RGB): void {
  const { width: w, height: h, data: d } = f;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = (((x / 2 + y) % spacing) + spacing) % spacing;
      const b = (((x / 2 - y) % spacing) + spacing) % spacing;
      if (a >= 1 && b >= 1) continue;
      const i = (y * w + x) * 3;
      for (let c = 0; c < 3; c++) d[i + c] = d[i + c]! * (1 - alpha) + ink[c]! * alpha;
    }
  }
}

/** The picture shrunk into a mirrored 2 x 2 repeat, seamless at every edge: a tileable texture. */
export function mirrorTile(f: Field): void {
  const src = cloneField(f).data;
  const { width: w, height: h, data: d } = f;
  for (let y = 0; y < h; y++) {
    const sy = y < h / 2 ? 2 * y : 2 * (h - 1 - y);
    for (let x = 0; x < w; x++) {
      const sx = x < w / 2 ? 2 * x : 2 * (w - 1 - x);
      const s = (Math.min(h - 1, sy) * w + Math.min(w - 1, sx)) * 3;
      const i = (y * w + x) * 3;
      d[i] = src[s]!;
      d[i + 1] = src[s + 1]!;
      d[i + 2] = src[s + 2]!;
    }
  }
}

/** Left half mirrored onto the right: cut-paper symmetry. */
export function mirrorX(f: Field): void {
  const { width: w, height: h, data: d } = f;
  for (let y = 0; y < h; y++) {
    for (let x = Math.ceil(w / 2); x < w; x++) {
      const i = (y * w + x) * 3;
      const s = (y * w + (w - 1 - x)) * 3;
      d[i] = d[s]!;
      d[i + 1] = d[s + 1]!;
      d[i + 2] = d[s + 2]!;
    }
  }
}

/** A starfield with a few bright, glowing stars. */
export function starfield(f: Field, seed: number): void {
  const rng = new Rng(hashInts(seed, 54));
  const { width: w, height: h, data: d } = f;
  for (let k = 0; k < (w * h) / 120; k++) {
    const i = (rng.int(h) * w + rng.int(w)) * 3;
    const v = rng.range(120, 255);
    d[i] = Math.max(d[i]!, v);
    d[i + 1] = Math.max(d[i + 1]!, v);
    d[i + 2] = Math.max(d[i + 2]!, v);
  }
  for (let k = 0; k < 5; k++) glow(f, rng.int(w), rng.int(h), rng.range(1, 3), [255, 250, 235], 0.8);
}

/** Coloured spotlights and sparkles: a dance floor. */
export function spotlights(f: Field, seed: number): void {
  const rng = new Rng(hashInts(seed, 55));
  const { width: w, height: h } = f;
  for (let k = 0; k < 6; k++) glow(f, rng.int(w), rng.int(h), h * rng.range(0.1, 0.22), hsl(rng.range(0, 360), 1, 0.55), 0.55);
  for (let k = 0; k < 40; k++) glow(f, rng.int(w), rng.int(h), 1.2, [255, 255, 255], 0.9);
}
