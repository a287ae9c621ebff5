/**
 * The openpose preprocessor's stand-in. This is NOT a pose estimator: it finds the largest
 * figure that stands out from the background (colour distance to the border colour, Otsu
 * threshold, largest connected blob), assumes it is an upright person, and fits an
 * OpenPose-style stick skeleton (head, neck, shoulders, elbows, wrists, hips, knees, ankles) to
 * that silhouette's proportions and extremes: arms go where the silhouette reaches out, legs
 * to where it touches down. No figure found gives an empty map, as OpenPose gives for no person.
 */

import { borderMedian } from './preprocess';

type Point = readonly [number, number];

/** Otsu's threshold of values in 0..255. */
function otsu(values: Uint8Array): number {
  const hist = new Float64Array(256);
  for (const v of values) hist[v]!++;
  const total = values.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * hist[i]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 0;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const between = wB * wF * (sumB / wB - (sumAll - sumB) / wF) ** 2;
    if (between > best) { best = between; threshold = t; }
  }
  return threshold;
}

/** Largest 4-connected set of foreground pixels, as a mask. */
function largestBlob(fg: Uint8Array, w: number, h: number): { mask: Uint8Array; area: number } {
  const label = new Int32Array(w * h);
  const stack = new Int32Array(w * h);
  let bestLabel = 0;
  let bestArea = 0;
  let next = 1;
  for (let p = 0; p < fg.length; p++) {
    if (!fg[p] || label[p]) continue;
    let top = 0;
    let area = 0;
    stack[top++] = p;
    label[p] = next;
    while (top > 0) {
      const q = stack[--top]!;
      area++;
      const x = q % w;
      for (const r of [x > 0 ? q - 1 : -1, x < w - 1 ? q + 1 : -1, q - w, q + w]) {
        if (r < 0 || r >= fg.length || !fg[r] || label[r]) continue;
        label[r] = next;
        stack[top++] = r;
      }
    }
    if (area > bestArea) { bestArea = area; bestLabel = next; }
    next++;
  }
  const mask = new Uint8Array(w * h);
  for (let p = 0; p < mask.length; p++) mask[p] = label[p] === bestLabel && bestLabel > 0 ? 1 : 0;
  return { mask, area: bestArea };
}

/** Fits the skeleton; undefined when there is no plausible figure. */
export function fitSkeleton(rgb: Uint8Array, w: number, h: number): Point[][] | undefined {
  const bg = borderMedian(rgb, w, h);
  const dist = new Uint8Array(w * h);
  for (let p = 0, i = 0; p < dist.length; p++, i += 3) {
    dist[p] = Math.min(255, (Math.abs(rgb[i]! - bg[0]) + Math.abs(rgb[i + 1]! - bg[1]) + Math.abs(rgb[i + 2]! - bg[2])) / 2);
  }
  const t = Math.max(24, otsu(dist));
  const fg = new Uint8Array(w * h);
  for (let p = 0; p < fg.length; p++) fg[p] = dist[p]! > t ? 1 : 0;
  const { mask, area } = largestBlob(fg, w, h);
  if (area < w * h * 0.02 || area > w * h * 0.9) return undefined;

  const left = new Int32Array(h).fill(-1);
  const right = new Int32Array(h).fill(-1);
  let y0 = h;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!mask[y * w + x]) continue;
      if (left[y] === -1) left[y] = x;
      right[y] = x;
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  const bh = y1 - y0 + 1;
  const rowAt = (f: number) => Math.min(y1, Math.max(y0, Math.round(y0 + f * bh)));
  const mid = (f: number) => { const y = rowAt(f); return left[y]! >= 0 ? (left[y]! + right[y]!) / 2 : w / 2; };
  const halfWidth = (f: number) => { const y = rowAt(f); return left[y]! >= 0 ? (right[y]! - left[y]!) / 2 : bh * 0.1; };

  const nose: Point = [mid(0.07), rowAt(0.07)];
  const neck: Point = [mid(0.17), rowAt(0.17)];
  const sw = Math.min(halfWidth(0.24) * 0.8, bh * 0.14);
  const shoulderR: Point = [neck[0] - sw, rowAt(0.2)];
  const shoulderL: Point = [neck[0] + sw, rowAt(0.2)];
  const hw = sw * 0.6;
  const hipR: Point = [mid(0.53) - hw, rowAt(0.53)];
  const hipL: Point = [mid(0.53) + hw, rowAt(0.53)];

  // Arms: the silhouette's farthest reach on each side between the shoulders and the hips.
  let reachR: Point = [shoulderR[0] - bh * 0.02, rowAt(0.5)];
  let reachL: Point = [shoulderL[0] + bh * 0.02, rowAt(0.5)];
  for (let y = rowAt(0.17); y <= rowAt(0.62); y++) {
    if (left[y]! >= 0 && left[y]! < reachR[0] - bh * 0.06) reachR = [left[y]!, y];
    if (right[y]! >= 0 && right[y]! > reachL[0] + bh * 0.06) reachL = [right[y]!, y];
  }
  const elbow = (s: Point, wr: Point, out: number): Point => [(s[0] + wr[0]) / 2 + out * bh * 0.03, (s[1] + wr[1]) / 2];
  // Legs: where the silhouette meets its lowest rows.
  const foot = rowAt(0.98);
  const spread = left[foot]! >= 0 ? [left[foot]!, right[foot]!] : [hipR[0], hipL[0]];
  const ankleR: Point = [Math.min(hipR[0], spread[0]! + bh * 0.02), foot];
  const ankleL: Point = [Math.max(hipL[0], spread[1]! - bh * 0.02), foot];
  const knee = (hip: Point, ankle: Point): Point => [(hip[0] + ankle[0]) / 2, (hip[1] + ankle[1]) / 2];
  const eyeR: Point = [nose[0] - bh * 0.02, nose[1] - bh * 0.015];
  const eyeL: Point = [nose[0] + bh * 0.02, nose[1] - bh * 0.015];

  // Limbs as polylines, in OpenPose's limb order.
  return [
    [nose, neck], [eyeR, nose, eyeL],
    [neck, shoulderR, elbow(shoulderR, reachR, -1), reachR],
    [neck, shoulderL, elbow(shoulderL, reachL, 1), reachL],
    [neck, hipR, knee(hipR, ankleR), ankleR],
    [neck, hipL, knee(hipL, ankleL), ankleL],
  ];
}

/** Draws thick polylines (value 255) into a w x h plane, with round joints. */
export function drawLimbs(limbs: Point[][], w: number, h: number, thickness: number): Uint8Array {
  const out = new Uint8Array(w * h);
  const r = thickness / 2;
  for (const line of limbs) {
    for (let k = 0; k + 1 < line.length; k++) {
      const [ax, ay] = line[k]!;
      const [bx, by] = line[k + 1]!;
      const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - r));
      const x1 = Math.min(w - 1, Math.ceil(Math.max(ax, bx) + r));
      const y0 = Math.max(0, Math.floor(Math.min(ay, by) - r));
      const y1 = Math.min(h - 1, Math.ceil(Math.max(ay, by) + r));
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy || 1;
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
          const ex = ax + t * dx - x;
          const ey = ay + t * dy - y;
          if (ex * ex + ey * ey <= r * r) out[y * w + x] = 255;
        }
      }
    }
  }
  return out;
}

/** The pose map (white limbs on black) of a control image at w x h; empty when no figure is found. */
export function poseMap(rgb: Uint8Array, w: number, h: number): Uint8Array {
  // Fit on a reduced copy: the silhouette's proportions do not need full resolution.
  const k = Math.max(1, Math.floor(Math.min(w, h) / 256));
  const sw = Math.floor(w / k);
  const sh = Math.floor(h / k);
  const small = new Uint8Array(sw * sh * 3);
  for (let y = 0; y < sh; y++) {
    for (let x = 0; x < sw; x++) {
      const s = ((y * k) * w + x * k) * 3;
      const d = (y * sw + x) * 3;
      small[d] = rgb[s]!;
      small[d + 1] = rgb[s + 1]!;
      small[d + 2] = rgb[s + 2]!;
    }
  }
  const limbs = fitSkeleton(small, sw, sh);
  if (!limbs) return new Uint8Array(w * h);
  const scaled = limbs.map((line) => line.map(([x, y]) => [x * k + k / 2, y * k + k / 2] as const));
  return drawLimbs(scaled, w, h, Math.max(3, Math.round(Math.min(w, h) / 90)));
}
