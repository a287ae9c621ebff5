/**
 * ControlNet preprocessors, run on the control image at the output size: what the service does
 * for its public checkpoints when controlnet_preprocess is on. Canny is the real algorithm;
 * depth, lineart and scribble are classical stand-ins for the networks the real service runs
 * (MiDaS, the lineart and HED models), each documented where it is defined.
 */
import { blurGrey } from './codec';
import { canny } from './edges';

/** Rec. 601 luma of RGB bytes. */
export function lumaPlane(rgb: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let p = 0, i = 0; p < n; p++, i += 3) out[p] = (77 * rgb[i]! + 150 * rgb[i + 1]! + 29 * rgb[i + 2]!) >> 8;
  return out;
}

/**
 * Canny edges (white on black) with ControlNet's 100/200 thresholds. ControlNet's annotator runs
 * Canny on the image as it is; a light blur first keeps JPEG block edges out of the map.
 */
export async function cannyMap(grey: Uint8Array, w: number, h: number): Promise<Uint8Array> {
  const smooth = await blurGrey(grey, w, h, 0.7);
  return canny(smooth, w, h, 100, 200);
}

/**
 * A plausible depth map (near = white), not a monocular depth network. Three cues a depth model
 * also leans on: what stands out from the colour of the frame's border is a foreground object,
 * lower in the frame is usually nearer, and nearer surfaces show more detail. They are blended,
 * lightly smoothed (object boundaries stay sharp, as in MiDaS output) and stretched to full range.
 */
export async function depthMap(rgb: Uint8Array, grey: Uint8Array, w: number, h: number): Promise<Uint8Array> {
  const n = w * h;
  const border = borderMedian(rgb, w, h);
  const standout = new Uint8Array(n);
  for (let p = 0, i = 0; p < n; p++, i += 3) {
    standout[p] = Math.min(255, (Math.abs(rgb[i]! - border[0]) + Math.abs(rgb[i + 1]! - border[1]) + Math.abs(rgb[i + 2]! - border[2])) / 1.5);
  }
  const figure = await blurGrey(standout, w, h, Math.max(1.5, w / 300));
  const soft = await blurGrey(grey, w, h, Math.max(2, w / 128));
  const detail = new Uint8Array(n);
  for (let p = 0; p < n; p++) detail[p] = Math.min(255, Math.abs(grey[p]! - soft[p]!) * 6);
  const detailSoft = await blurGrey(detail, w, h, Math.max(3, w / 64));
  const raw = new Float32Array(n);
  let min = Infinity;
  let max = -Infinity;
  for (let y = 0; y < h; y++) {
    const low = (y / h) * 255;
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const v = 0.3 * low + 0.5 * figure[p]! + 0.2 * detailSoft[p]!;
      raw[p] = v;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const k = max > min ? 255 / (max - min) : 0;
  const out = new Uint8Array(n);
  for (let p = 0; p < n; p++) out[p] = (raw[p]! - min) * k;
  return out;
}

/** Per-channel median of the frame's border pixels: the background colour. */
export function borderMedian(rgb: Uint8Array, w: number, h: number): [number, number, number] {
  const samples: number[][] = [[], [], []];
  const take = (x: number, y: number) => { for (let c = 0; c < 3; c++) samples[c]!.push(rgb[(y * w + x) * 3 + c]!); };
  const step = Math.max(1, Math.floor(Math.max(w, h) / 512));
  for (let x = 0; x < w; x += step) { take(x, 0); take(x, h - 1); }
  for (let y = 0; y < h; y += step) { take(0, y); take(w - 1, y); }
  return samples.map((s) => s.sort((a, b) => a - b)[s.length >> 1]!) as [number, number, number];
}

/**
 * Line art (white lines on black) by difference of Gaussians, the classical basis of the
 * "XDoG" line extractors: dark strokes narrower than the wider blur come out as lines.
 */
export async function lineartMap(grey: Uint8Array, w: number, h: number): Promise<Uint8Array> {
  const narrow = await blurGrey(grey, w, h, 0.8);
  const wide = await blurGrey(grey, w, h, 2.4);
  const out = new Uint8Array(w * h);
  for (let p = 0; p < out.length; p++) {
    const v = (wide[p]! - narrow[p]!) * 9;
    out[p] = v <= 8 ? 0 : v >= 255 ? 255 : v;
  }
  return out;
}

/**
 * Scribble (thick white strokes on black): Canny on a heavily smoothed image with low
 * thresholds, so only the main contours remain, then thickened like a marker stroke.
 */
export async function scribbleMap(grey: Uint8Array, w: number, h: number): Promise<Uint8Array> {
  const smooth = await blurGrey(grey, w, h, Math.max(2, w / 200));
  const edges = canny(smooth, w, h, 40, 90);
  const thick = await blurGrey(edges, w, h, Math.max(1.5, w / 340));
  const out = new Uint8Array(w * h);
  for (let p = 0; p < out.length; p++) out[p] = thick[p]! > 40 ? 255 : 0;
  return out;
}

/** Mean of a plane, 0..255. */
export function meanOf(plane: Uint8Array): number {
  let s = 0;
  for (let p = 0; p < plane.length; p++) s += plane[p]!;
  return s / Math.max(1, plane.length);
}
