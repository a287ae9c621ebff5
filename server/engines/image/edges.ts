/**
 * Gradient and edge detection on single-channel planes: Sobel gradients, and a real Canny
 * detector (Sobel, non-maximum suppression along the gradient, double threshold, hysteresis),
 * as the canny ControlNet preprocessor (OpenCV's Canny with ControlNet's 100/200 thresholds).
 */

export interface Gradient {
  gx: Float32Array;
  gy: Float32Array;
  /** L2 magnitude; a full black-to-white step across a 3x3 Sobel gives about 1020. */
  mag: Float32Array;
}

/** 3x3 Sobel gradients of a plane; border pixels repeat the edge. */
export function sobel(plane: ArrayLike<number>, w: number, h: number): Gradient {
  const n = w * h;
  const gx = new Float32Array(n);
  const gy = new Float32Array(n);
  const mag = new Float32Array(n);
  for (let y = 0; y < h; y++) {
    const up = (y > 0 ? y - 1 : 0) * w;
    const mid = y * w;
    const down = (y < h - 1 ? y + 1 : y) * w;
    for (let x = 0; x < w; x++) {
      const l = x > 0 ? x - 1 : 0;
      const r = x < w - 1 ? x + 1 : x;
      const a = plane[up + l]!;
      const b = plane[up + x]!;
      const c = plane[up + r]!;
      const d = plane[mid + l]!;
      const f = plane[mid + r]!;
      const g = plane[down + l]!;
      const hh = plane[down + x]!;
      const i = plane[down + r]!;
      const sx = c + 2 * f + i - a - 2 * d - g;
      const sy = g + 2 * hh + i - a - 2 * b - c;
      const p = mid + x;
      gx[p] = sx;
      gy[p] = sy;
      mag[p] = Math.sqrt(sx * sx + sy * sy);
    }
  }
  return { gx, gy, mag };
}

/**
 * Canny edges of a plane: 255 on edge pixels, 0 elsewhere. Thresholds apply to the L1 Sobel
 * magnitude |gx| + |gy|, as in OpenCV's cv2.Canny by default (what ControlNet's annotator calls).
 */
export function canny(plane: ArrayLike<number>, w: number, h: number, low = 100, high = 200): Uint8Array {
  const { gx, gy } = sobel(plane, w, h);
  const n = w * h;
  const mag = new Float32Array(n);
  for (let p = 0; p < n; p++) mag[p] = Math.abs(gx[p]!) + Math.abs(gy[p]!);
  // 0 = not an edge, 1 = weak candidate, 2 = strong edge.
  const state = new Uint8Array(n);
  const tan22 = 0.41421356;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const p = y * w + x;
      const m = mag[p]!;
      if (m < low) continue;
      const ax = Math.abs(gx[p]!);
      const ay = Math.abs(gy[p]!);
      // Compare with the two neighbours across the edge (along the gradient), quantised to 45 degrees.
      let n1: number;
      let n2: number;
      if (ay <= ax * tan22) {
        n1 = mag[p - 1]!;
        n2 = mag[p + 1]!;
      } else if (ax <= ay * tan22) {
        n1 = mag[p - w]!;
        n2 = mag[p + w]!;
      } else if ((gx[p]! > 0) === (gy[p]! > 0)) {
        n1 = mag[p - w - 1]!;
        n2 = mag[p + w + 1]!;
      } else {
        n1 = mag[p - w + 1]!;
        n2 = mag[p + w - 1]!;
      }
      // Strict on one side, loose on the other, so a plateau keeps exactly one pixel.
      if (m > n1 && m >= n2) state[p] = m >= high ? 2 : 1;
    }
  }
  // Hysteresis: weak pixels survive only when connected (8-neighbourhood) to a strong one.
  const out = new Uint8Array(n);
  const stack = new Int32Array(n);
  let top = 0;
  for (let p = 0; p < n; p++) {
    if (state[p] !== 2 || out[p]) continue;
    out[p] = 255;
    stack[top++] = p;
    while (top > 0) {
      const q = stack[--top]!;
      const qx = q % w;
      for (let dy = -w; dy <= w; dy += w) {
        for (let dx = -1; dx <= 1; dx++) {
          if (qx + dx < 0 || qx + dx >= w) continue;
          const r = q + dy + dx;
          if (r < 0 || r >= n || out[r] || state[r] === 0) continue;
          out[r] = 255;
          stack[top++] = r;
        }
      }
    }
  }
  return out;
}
