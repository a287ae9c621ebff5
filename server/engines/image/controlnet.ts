/**
 * ControlNet: the control image becomes a control map (by the checkpoint's preprocessor, or
 * used as is when controlnet_preprocess is false or the checkpoint is private), and the map
 * steers the picture: regions bounded by edges are filled as separate shapes and the edges
 * themselves are inked, depth orders colour and shading from far to near, a pose becomes a
 * figure, and image-like maps (tile, ip2p, inpaint) lend their colours and layout.
 */
import { blurPlane, type Field } from './field';
import { sobel } from './edges';
import { type RawImage } from './codec';
import { cannyMap, depthMap, lineartMap, lumaPlane, meanOf, scribbleMap } from './preprocess';
import { poseMap } from './pose';
import { downscaleToField } from './upscale';
import { hashInts } from '../random';
import { mix, saturate, type RGB } from './color';
import { type Scene } from './prompt-field';
import { isPublicAsset } from '../../../api/catalog';

export type ControlKind = 'edges' | 'depth' | 'pose' | 'image';
type Preprocessor = 'canny' | 'depth' | 'openpose' | 'lineart' | 'scribble' | 'tile' | 'none';

export interface ControlMap {
  kind: ControlKind;
  width: number;
  height: number;
  /** One channel: line strength (edges, pose) or nearness (depth). */
  plane?: Uint8Array;
  /** Three channels, for image-like maps. */
  rgb?: Uint8Array;
  /** Depth maps: strength of the depth discontinuities (occlusion contours), 0..255. */
  contours?: Uint8Array;
}

/** Occlusion contours of a depth map: where nearness jumps, one surface passes in front of another. */
function depthContours(depth: Uint8Array, w: number, h: number): Uint8Array {
  const { mag } = sobel(depth, w, h);
  const out = new Uint8Array(w * h);
  for (let p = 0; p < out.length; p++) out[p] = Math.max(0, Math.min(255, (mag[p]! - 24) * 3));
  return out;
}

function depthControl(plane: Uint8Array, w: number, h: number): ControlMap {
  return { kind: 'depth', width: w, height: h, plane, contours: depthContours(plane, w, h) };
}

const HINTS: [RegExp, ControlKind, Preprocessor][] = [
  [/canny|edge|hed|softedge|mlsd/i, 'edges', 'canny'],
  [/lineart|line_art|anime/i, 'edges', 'lineart'],
  [/scribble|sketch|doodle/i, 'edges', 'scribble'],
  [/depth|normal|zoe|midas/i, 'depth', 'depth'],
  [/pose|skeleton|dwpose/i, 'pose', 'openpose'],
  [/tile|blur|upscale/i, 'image', 'tile'],
  [/ip2p|pix2pix|inpaint|recolou?r|shuffle|reference/i, 'image', 'none'],
];

/** The kind of map a checkpoint expects and the preprocessor that makes one, from its name. */
export function controlnetTraits(name: string): { kind: ControlKind; preprocessor: Preprocessor } | undefined {
  for (const [pattern, kind, preprocessor] of HINTS) if (pattern.test(name)) return { kind, preprocessor };
  return undefined;
}

/**
 * Builds the control map. Public checkpoints preprocess unless told not to; private ones are
 * opaque names, so their map is the control image itself, read by what the name hints at or,
 * failing that, by its look (sparse lines, or a tonal image).
 */
export async function prepareControl(controlnet: string, preprocess: boolean | undefined, image: RawImage): Promise<ControlMap> {
  const { width: w, height: h, data: rgb } = image;
  const grey = lumaPlane(rgb, w * h);
  const traits = controlnetTraits(controlnet);
  if (isPublicAsset(controlnet) && preprocess !== false && traits) {
    switch (traits.preprocessor) {
      case 'canny': return { kind: 'edges', width: w, height: h, plane: await cannyMap(grey, w, h) };
      case 'lineart': return { kind: 'edges', width: w, height: h, plane: await lineartMap(grey, w, h) };
      case 'scribble': return { kind: 'edges', width: w, height: h, plane: await scribbleMap(grey, w, h) };
      case 'depth': return depthControl(await depthMap(rgb, grey, w, h), w, h);
      case 'openpose': return { kind: 'pose', width: w, height: h, plane: poseMap(rgb, w, h) };
      case 'tile':
      case 'none': return { kind: 'image', width: w, height: h, rgb };
    }
  }
  const kind = traits?.kind ?? (sparseness(grey) > 0.8 ? 'edges' : 'depth');
  if (kind === 'image') return { kind, width: w, height: h, rgb };
  if (kind === 'depth') return depthControl(grey, w, h);
  // A line map drawn dark on white is read the other way round.
  if (meanOf(grey) > 127) for (let p = 0; p < grey.length; p++) grey[p] = 255 - grey[p]!;
  return { kind, width: w, height: h, plane: grey };
}

/** Share of pixels within 24 levels of the most common value: high for line drawings. */
function sparseness(grey: Uint8Array): number {
  const hist = new Uint32Array(256);
  for (const v of grey) hist[v]!++;
  let mode = 0;
  for (let v = 1; v < 256; v++) if (hist[v]! > hist[mode]!) mode = v;
  let near = 0;
  for (let v = Math.max(0, mode - 24); v <= Math.min(255, mode + 24); v++) near += hist[v]!;
  return near / grey.length;
}

function planeToField(plane: Uint8Array, w: number, h: number, fw: number, fh: number): Float32Array {
  const rgb = new Uint8Array(w * h * 3);
  for (let p = 0; p < plane.length; p++) rgb[p * 3] = plane[p]!;
  const f = downscaleToField(rgb, w, h, fw, fh);
  const out = new Float32Array(fw * fh);
  for (let p = 0; p < out.length; p++) out[p] = f.data[p * 3]! / 255;
  return out;
}

/** Steers the working field with the map (at field scale). */
export function guideField(field: Field, map: ControlMap, scene: Scene, seed: number): void {
  const { width: fw, height: fh, data: d } = field;
  if (map.kind === 'image') {
    const src = downscaleToField(map.rgb!, map.width, map.height, fw, fh).data;
    for (let i = 0; i < d.length; i++) d[i] = d[i]! + (src[i]! - d[i]!) * 0.55;
    return;
  }
  const plane = planeToField(map.plane!, map.width, map.height, fw, fh);
  const colours = [...scene.palette].sort((a, b) => b.weight - a.weight).map((e) => saturate(e.colour, 1.15));
  if (map.kind === 'depth') {
    const near = colours[0] ?? ([200, 120, 80] as RGB);
    const far = mix(scene.skyBottom, [150, 160, 175], 0.4);
    for (let y = 0; y < fh; y++) {
      for (let x = 0; x < fw; x++) {
        const p = y * fw + x;
        const z = plane[p]!;
        const relief = 1 + 2.2 * (plane[Math.max(0, p - fw - 1)]! - plane[Math.min(plane.length - 1, p + fw + 1)]!);
        const i = p * 3;
        for (let c = 0; c < 3; c++) {
          const target = (far[c]! + (near[c]! - far[c]!) * z) * (0.55 + 0.55 * z) * relief;
          d[i + c] = d[i + c]! + (target - d[i + c]!) * 0.65;
        }
      }
    }
    return;
  }
  if (map.kind === 'pose') {
    // Limbs thickened into a body, painted in the subject's colour.
    blurPlane(plane, fw, fh, 2, 2);
    const body = scene.objects.find((o) => o.kind === 'figure')?.colour ?? colours[0] ?? ([200, 150, 120] as RGB);
    for (let p = 0; p < plane.length; p++) {
      const a = Math.min(1, plane[p]! * 5);
      if (a <= 0) continue;
      for (let c = 0; c < 3; c++) d[p * 3 + c] = d[p * 3 + c]! + (body[c]! * 0.9 - d[p * 3 + c]!) * a * 0.9;
    }
    return;
  }
  fillRegions(field, plane, colours, seed);
  // A halo of the subject's colour along the lines gives the drawn shapes some mass.
  blurPlane(plane, fw, fh, 2, 2);
  const subject = colours[0] ?? ([90, 70, 60] as RGB);
  for (let p = 0; p < plane.length; p++) {
    const a = Math.min(0.6, plane[p]! * 4);
    if (a <= 0.01) continue;
    for (let c = 0; c < 3; c++) d[p * 3 + c] = d[p * 3 + c]! + (subject[c]! * 0.8 - d[p * 3 + c]!) * a;
  }
}

/** Regions enclosed by the map's lines become separate shapes, each in a palette colour. */
function fillRegions(field: Field, lines: Float32Array, colours: RGB[], seed: number): void {
  const { width: w, height: h, data: d } = field;
  const n = w * h;
  const label = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  const regions: { area: number; colour: RGB | undefined }[] = [];
  for (let p = 0; p < n; p++) {
    if (label[p] !== -1 || lines[p]! > 0.12) continue;
    const id = regions.length;
    let top = 0;
    let area = 0;
    stack[top++] = p;
    label[p] = id;
    while (top > 0) {
      const q = stack[--top]!;
      area++;
      const x = q % w;
      for (const r of [x > 0 ? q - 1 : -1, x < w - 1 ? q + 1 : -1, q - w, q + w]) {
        if (r < 0 || r >= n || label[r] !== -1 || lines[r]! > 0.12) continue;
        label[r] = id;
        stack[top++] = r;
      }
    }
    // The largest open areas stay the scene's background; enclosed shapes take palette colours.
    const big = area > n * 0.3;
    const pick = colours.length > 0 ? colours[hashInts(seed, id) % colours.length] : undefined;
    regions.push({ area, colour: big || area < 4 ? undefined : pick });
  }
  for (let p = 0; p < n; p++) {
    const i = p * 3;
    const r = label[p]! >= 0 ? regions[label[p]!]! : undefined;
    if (r?.colour) for (let c = 0; c < 3; c++) d[i + c] = d[i + c]! + (r.colour[c]! - d[i + c]!) * 0.55;
  }
}

/**
 * Inks the map's lines into the full-size output, dark on light areas and light on dark: the
 * edges of an edge map, the occlusion contours of a depth map (more softly).
 */
export function overlayControl(out: Buffer, map: ControlMap): void {
  const plane = map.kind === 'edges' ? map.plane : map.kind === 'depth' ? map.contours : undefined;
  if (!plane) return;
  const strength = map.kind === 'edges' ? 0.8 : 0.55;
  const w = map.width;
  for (let p = 0, i = 0; p < plane.length; p++, i += 3) {
    // Two pixels wide: a one-pixel Canny line would vanish in any preview.
    const v = Math.max(plane[p]!, p % w > 0 ? plane[p - 1]! : 0, p >= w ? plane[p - w]! : 0);
    if (v === 0) continue;
    const a = (v / 255) * strength;
    const l = 0.299 * out[i]! + 0.587 * out[i + 1]! + 0.114 * out[i + 2]!;
    for (let c = 0; c < 3; c++) {
      const x = out[i + c]!;
      const ink = l > 80 ? x * 0.18 : x * 0.3 + 170;
      out[i + c] = x + (ink - x) * a;
    }
  }
}
