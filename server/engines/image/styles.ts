/**
 * style_preset: every preset of section 2.4 as a short recipe of operations on the working
 * field, grouped by family (photographic grades, dark moods, painterly, graphic, paper craft,
 * games, patterns). The recipes aim at what each name makes people expect, cheaply.
 */
import { boxBlur, cloneField, type Field } from './field';
import { chain, contrast, hueRotate, multiply, saturation, tint, warmth, applyAffine, type Affine } from './colour-matrix';
import { hex, type RGB } from './color';
import * as ops from './style-ops';
import * as pat from './style-patterns';
import * as paint from './style-paint';
import { type StylePreset } from '../../../api/catalog';

export type StyleOp =
  | { op: 'grade'; m: Affine }
  | { op: 'mono'; ink: RGB; paper: RGB }
  | { op: 'blur' | 'streak' | 'tiltShift'; r: number }
  | { op: 'sharpen'; amount: number; r?: number }
  | { op: 'posterize'; levels: number }
  | { op: 'quantize'; palette: readonly RGB[] }
  | { op: 'pixelate'; block: number }
  | { op: 'outline'; threshold: number; ink: RGB; width?: number }
  | { op: 'lineArt'; threshold: number; ink: RGB; paper: RGB }
  | { op: 'vignette' | 'letterbox' | 'bloom' | 'emboss' | 'hueWaves' | 'paper' | 'scanlines'; amount: number }
  | { op: 'bleed' | 'mirrorTile' | 'mirrorX' | 'stars' | 'spotlights' | 'collage' | 'levels' }
  | { op: 'strokes'; length: number }
  | { op: 'silhouette'; ink: RGB }
  | { op: 'cells'; size: number; shape: 'voronoi' | 'triangles'; leads?: RGB }
  | { op: 'dots'; size: number; mode: 'pointillism' | 'halftone'; paper: RGB }
  | { op: 'layers'; levels: number; shadow: number }
  | { op: 'hatch' | 'glyphs'; ink: RGB }
  | { op: 'isoGrid'; spacing: number; alpha: number; ink: RGB };

export interface StyleSpec {
  ops: StyleOp[];
  /** Upscale kernel: 'nearest' keeps hard pixel blocks. */
  kernel?: 'nearest';
  /** Multiplies the residual grain (film styles add, flat styles remove). */
  grain?: number;
  /** Colourless styles get colourless grain. */
  monoGrain?: boolean;
}

const g = (...m: Affine[]): StyleOp => ({ op: 'grade', m: chain(...m) });
const BLACK: RGB = [18, 16, 20];
const WHITE: RGB = [248, 247, 242];
const PAPER: RGB = hex('#f4efe2');
// PICO-8's sixteen colours: a well-known fixed palette for pixel art.
const PICO8 = ['#000000', '#1d2b53', '#7e2553', '#008751', '#ab5236', '#5f574f', '#c2c3c7', '#fff1e8',
  '#ff004d', '#ffa300', '#ffec27', '#00e436', '#29adff', '#83769c', '#ff77a8', '#ffccaa'].map(hex);
const GAMEBOY = ['#0f380f', '#306230', '#8bac0f', '#9bbc0f'].map(hex);
const EARTH = ['#2b1d14', '#7a3b1d', '#c0692b', '#e3b36a', '#f2e2c0', '#5b5b3a'].map(hex);

const paperCraft = (levels: number, shadow: number, extra: StyleOp[] = []): StyleSpec => ({
  ops: [{ op: 'blur', r: 1 }, { op: 'layers', levels, shadow }, g(saturation(1.15), tint(WHITE, 0.06)), ...extra],
  grain: 0.4,
});

export const STYLE_TABLE: Record<StylePreset, StyleSpec> = {
  // Photographic grades.
  base: { ops: [g(saturation(1.08), contrast(1.07)), { op: 'sharpen', amount: 0.4 }] },
  photographic: { ops: [g(contrast(1.1), saturation(0.94)), { op: 'sharpen', amount: 0.5 }, { op: 'vignette', amount: 0.18 }], grain: 1.4 },
  'analog-film': { ops: [g(warmth(0.35), saturation(0.78), contrast(0.88), tint(hex('#f3e3c3'), 0.1)), { op: 'vignette', amount: 0.3 }], grain: 2.4 },
  cinematic: { ops: [g(warmth(0.25), contrast(1.22), saturation(1.1), tint(hex('#1f6f78'), 0.08)), { op: 'vignette', amount: 0.25 }, { op: 'letterbox', amount: 0.11 }] },
  enhance: { ops: [g(saturation(1.18), contrast(1.14)), { op: 'sharpen', amount: 0.9 }] },
  HDR: { ops: [{ op: 'sharpen', amount: 1.1, r: 3 }, g(saturation(1.3), contrast(0.95))] },
  Hyperrealism: { ops: [{ op: 'sharpen', amount: 1.4 }, g(contrast(1.18), saturation(1.05))], grain: 0.6 },
  'Food Photography': { ops: [g(warmth(0.45), saturation(1.25), tint(WHITE, 0.07)), { op: 'tiltShift', r: 3 }] },
  'Real Estate': { ops: [g(tint(WHITE, 0.13), saturation(1.04), contrast(1.06), warmth(0.1)), { op: 'sharpen', amount: 0.6 }], grain: 0.6 },
  Architectural: { ops: [g(saturation(0.72), contrast(1.22), warmth(-0.2)), { op: 'sharpen', amount: 0.8 }] },
  Advertising: { ops: [g(saturation(1.38), contrast(1.16), tint(WHITE, 0.05)), { op: 'bloom', amount: 0.35 }, { op: 'vignette', amount: -0.12 }] },
  'Long Exposure': { ops: [{ op: 'streak', r: 12 }, g(warmth(-0.25), contrast(1.12), saturation(1.15), tint(hex('#3050a0'), 0.08)), { op: 'bloom', amount: 0.5 }], grain: 0.6 },
  'Tilt-Shift': { ops: [{ op: 'tiltShift', r: 4 }, g(saturation(1.35), contrast(1.1), tint(WHITE, 0.1))] },

  // Dark and moody.
  'Film Noir': { ops: [{ op: 'mono', ink: [0, 0, 0], paper: [255, 255, 255] }, g(contrast(1.6)), { op: 'vignette', amount: 0.5 }], grain: 1.8, monoGrain: true },
  Monochrome: { ops: [{ op: 'mono', ink: [10, 10, 10], paper: [245, 245, 245] }], monoGrain: true },
  'Neon Noir': { ops: [g(multiply(0.5), saturation(1.6)), { op: 'outline', threshold: 25, ink: hex('#ff2fd0'), width: 2 }, { op: 'bloom', amount: 0.9 }] },
  'neon-punk': { ops: [g(contrast(1.4), saturation(1.9), tint(hex('#ff00aa'), 0.12)), { op: 'outline', threshold: 40, ink: hex('#00f0ff') }, { op: 'bloom', amount: 0.6 }] },
  Horror: { ops: [g(saturation(0.45), multiply(0.62), tint(hex('#5a0a0a'), 0.16), contrast(1.2)), { op: 'vignette', amount: 0.6 }], grain: 1.6 },
  Gothic: { ops: [g(multiply(0.68), tint(hex('#3a1f4f'), 0.2), saturation(0.7), contrast(1.25)), { op: 'vignette', amount: 0.42 }] },
  Dystopian: { ops: [g(saturation(0.5), tint(hex('#6b7a45'), 0.3), contrast(1.12)), { op: 'paper', amount: 0.15 }], grain: 1.5 },
  Grunge: { ops: [g(saturation(0.6), contrast(1.25)), { op: 'paper', amount: 0.35 }, { op: 'vignette', amount: 0.35 }], grain: 2.2 },
  Silhouette: { ops: [g(warmth(0.6), saturation(1.3)), { op: 'silhouette', ink: [14, 10, 18] }], grain: 0.4 },
  Space: { ops: [g(multiply(0.38), tint(hex('#1b1240'), 0.2), saturation(1.3)), { op: 'stars' }, { op: 'bloom', amount: 0.5 }] },
  Alien: { ops: [g(hueRotate(120), tint(hex('#3cff8a'), 0.1), saturation(1.3)), { op: 'bloom', amount: 0.4 }] },

  // Painterly.
  Watercolor: { ops: [{ op: 'bleed' }, { op: 'paper', amount: 0.08 }, g(saturation(0.95))], grain: 0.3 },
  Impressionist: { ops: [{ op: 'strokes', length: 3 }, g(saturation(1.3), tint(hex('#f6e8b0'), 0.05))], grain: 0.5 },
  Pointillism: { ops: [g(saturation(1.4)), { op: 'dots', size: 1.6, mode: 'pointillism', paper: PAPER }], grain: 0.2 },
  Renaissance: { ops: [{ op: 'blur', r: 1 }, g(warmth(0.45), tint(hex('#5a3a1c'), 0.2), saturation(0.75), contrast(1.15)), { op: 'vignette', amount: 0.5 }, { op: 'paper', amount: 0.06 }] },
  'fantasy-art': { ops: [g(saturation(1.32), warmth(0.2), contrast(1.1), tint(hex('#ffb060'), 0.08)), { op: 'bloom', amount: 0.45 }, { op: 'sharpen', amount: 0.4 }] },
  Dreamscape: { ops: [{ op: 'blur', r: 1 }, { op: 'bloom', amount: 1 }, g(tint(hex('#c8a8f0'), 0.16), saturation(1.1), tint(WHITE, 0.08))], grain: 0.5 },
  'Fairy Tale': { ops: [{ op: 'bloom', amount: 0.7 }, g(tint(hex('#f7b8d8'), 0.12), tint(WHITE, 0.1), saturation(1.15)), { op: 'vignette', amount: 0.2 }] },
  Surrealist: { ops: [{ op: 'hueWaves', amount: 0.12 }, g(saturation(1.2), contrast(1.12)), { op: 'mirrorX' }] },
  Psychedelic: { ops: [{ op: 'hueWaves', amount: 1 }, g(saturation(1.9), contrast(1.2))] },
  'digital-art': { ops: [g(saturation(1.3), contrast(1.15), tint(hex('#3a5cff'), 0.07)), { op: 'sharpen', amount: 0.6 }, { op: 'bloom', amount: 0.2 }], grain: 0.5 },

  // Graphic.
  anime: { ops: [{ op: 'blur', r: 1 }, { op: 'posterize', levels: 6 }, g(saturation(1.3), tint(WHITE, 0.05)), { op: 'outline', threshold: 45, ink: hex('#2a1e2e') }], grain: 0.3 },
  'comic-book': { ops: [{ op: 'posterize', levels: 4 }, g(saturation(1.45)), { op: 'dots', size: 1.2, mode: 'halftone', paper: WHITE }, { op: 'outline', threshold: 35, ink: BLACK, width: 2 }], grain: 0.3 },
  'Pop Art': { ops: [{ op: 'posterize', levels: 3 }, g(saturation(2.1), contrast(1.2)), { op: 'dots', size: 1.6, mode: 'halftone', paper: WHITE }, { op: 'outline', threshold: 50, ink: BLACK }], grain: 0.2 },
  Graffiti: { ops: [{ op: 'posterize', levels: 5 }, g(saturation(1.75)), { op: 'outline', threshold: 30, ink: BLACK, width: 2 }, { op: 'paper', amount: 0.18 }], grain: 0.8 },
  Tribal: { ops: [{ op: 'posterize', levels: 4 }, { op: 'quantize', palette: EARTH }, { op: 'outline', threshold: 30, ink: BLACK, width: 2 }], grain: 0.3 },
  'line-art': { ops: [{ op: 'lineArt', threshold: 30, ink: BLACK, paper: WHITE }], grain: 0.25, monoGrain: true },
  Zentangle: { ops: [{ op: 'levels' }, { op: 'hatch', ink: BLACK }, { op: 'outline', threshold: 60, ink: BLACK }], grain: 0.2, monoGrain: true },
  Typography: { ops: [{ op: 'posterize', levels: 3 }, g(saturation(0.6), tint(PAPER, 0.3)), { op: 'glyphs', ink: BLACK }], grain: 0.3 },
  Minimalist: { ops: [{ op: 'blur', r: 3 }, { op: 'posterize', levels: 3 }, g(saturation(0.7), tint(WHITE, 0.18))], grain: 0.2 },
  Abstract: { ops: [{ op: 'cells', size: 20, shape: 'voronoi' }, { op: 'posterize', levels: 5 }, g(saturation(1.35))], grain: 0.5 },
  Cubist: { ops: [{ op: 'cells', size: 15, shape: 'voronoi', leads: hex('#3b2c20') }, g(warmth(0.3), saturation(0.85)), { op: 'emboss', amount: 0.5 }], grain: 0.5 },
  'Stained Glass': { ops: [g(saturation(1.8)), { op: 'cells', size: 11, shape: 'voronoi', leads: [20, 18, 16] }, { op: 'bloom', amount: 0.35 }], grain: 0.2 },
  Collage: { ops: [{ op: 'collage' }, { op: 'paper', amount: 0.07 }, g(saturation(1.1))] },
  Disco: { ops: [g(multiply(0.7), saturation(1.5)), { op: 'spotlights' }, { op: 'bloom', amount: 0.5 }] },
  Steampunk: { ops: [g(tint(hex('#a8752c'), 0.3), warmth(0.5), saturation(0.8), contrast(1.22)), { op: 'sharpen', amount: 0.6 }, { op: 'vignette', amount: 0.4 }], grain: 1.2 },
  Nautical: { ops: [g(tint(hex('#1d3b6b'), 0.22), warmth(-0.4), saturation(0.9)), { op: 'paper', amount: 0.1 }], grain: 0.8 },
  'Techwear Fashion': { ops: [g(saturation(0.55), warmth(-0.3), contrast(1.28)), { op: 'sharpen', amount: 0.7 }] },

  // Sculpted and paper craft.
  'Craft Clay': { ops: [{ op: 'blur', r: 2 }, { op: 'posterize', levels: 6 }, { op: 'emboss', amount: 0.8 }, g(saturation(1.25))], grain: 0.3 },
  'modeling-compound': { ops: [{ op: 'blur', r: 3 }, { op: 'posterize', levels: 5 }, { op: 'emboss', amount: 1.1 }, g(saturation(1.45), tint(WHITE, 0.05))], grain: 0.3 },
  '3d-model': { ops: [{ op: 'blur', r: 1 }, { op: 'emboss', amount: 0.7 }, g(contrast(1.12)), { op: 'bloom', amount: 0.15 }], grain: 0.3 },
  origami: { ops: [{ op: 'cells', size: 16, shape: 'triangles' }, { op: 'emboss', amount: 0.5 }, g(saturation(0.9), tint(WHITE, 0.1))], grain: 0.3 },
  'low-poly': { ops: [{ op: 'cells', size: 10, shape: 'triangles' }, { op: 'emboss', amount: 0.4 }, g(saturation(1.25), contrast(1.1))], grain: 0.2 },
  Kirigami: paperCraft(3, 2, [{ op: 'mirrorX' }, g(saturation(0.45), tint(WHITE, 0.22))]),
  'Flat Papercut': { ops: [{ op: 'posterize', levels: 4 }, { op: 'layers', levels: 4, shadow: 1 }, g(saturation(1.2))], grain: 0.3 },
  'Stacked Papercut': paperCraft(6, 2),
  'Paper Quilling': paperCraft(5, 1, [{ op: 'outline', threshold: 20, ink: WHITE }, g(saturation(1.3))]),
  'Papercut Collage': paperCraft(4, 2, [{ op: 'collage' }]),
  'Papercut Shadow Box': paperCraft(5, 3, [{ op: 'vignette', amount: 0.55 }]),
  'Thick Layered Papercut': paperCraft(4, 4),
  'Paper Mache': { ops: [{ op: 'blur', r: 2 }, { op: 'posterize', levels: 7 }, { op: 'paper', amount: 0.3 }, { op: 'emboss', amount: 0.5 }], grain: 0.6 },

  // Games.
  'pixel-art': { ops: [{ op: 'levels' }, g(saturation(1.3)), { op: 'pixelate', block: 3 }, { op: 'quantize', palette: PICO8 }], kernel: 'nearest', grain: 0 },
  'Retro Game': { ops: [{ op: 'pixelate', block: 2 }, { op: 'mono', ink: [0, 0, 0], paper: [255, 255, 255] }, { op: 'levels' }, { op: 'quantize', palette: GAMEBOY }], kernel: 'nearest', grain: 0 },
  'Retro Arcade': { ops: [{ op: 'pixelate', block: 2 }, g(saturation(1.6), contrast(1.15)), { op: 'scanlines', amount: 0.35 }, { op: 'bloom', amount: 0.3 }], kernel: 'nearest', grain: 0 },
  'Fighting Game': { ops: [g(saturation(1.5), contrast(1.3)), { op: 'outline', threshold: 40, ink: BLACK }, { op: 'bloom', amount: 0.45 }] },
  'RPG Fantasy Game': { ops: [g(saturation(1.2), warmth(0.25)), { op: 'outline', threshold: 55, ink: hex('#2b1d14') }, { op: 'vignette', amount: 0.35 }, { op: 'bloom', amount: 0.25 }] },
  'Strategy Game': { ops: [g(saturation(1.1), contrast(1.08), tint(hex('#d8c89a'), 0.08)), { op: 'isoGrid', spacing: 12, alpha: 0.3, ink: [235, 230, 210] }, { op: 'sharpen', amount: 0.5 }] },
  isometric: { ops: [{ op: 'posterize', levels: 8 }, { op: 'emboss', amount: 0.35 }, { op: 'isoGrid', spacing: 8, alpha: 0.4, ink: [30, 30, 30] }], grain: 0.4 },
  'tile-texture': { ops: [{ op: 'mirrorTile' }, { op: 'sharpen', amount: 0.5 }] },
};

/** Runs one preset's recipe on the field. */
export function applyStyle(f: Field, spec: StyleSpec, seed: number): void {
  for (const o of spec.ops) {
    switch (o.op) {
      case 'grade': applyAffine(f, o.m); break;
      case 'mono': ops.mono(f, o.ink, o.paper); break;
      case 'blur': boxBlur(f, o.r, 2); break;
      case 'streak': ops.streak(f, o.r); break;
      case 'tiltShift': ops.tiltShift(f, o.r); break;
      case 'sharpen': ops.sharpen(f, o.amount, o.r); break;
      case 'posterize': ops.posterize(f, o.levels); break;
      case 'quantize': ops.quantize(f, o.palette); break;
      case 'pixelate': ops.pixelate(f, o.block); break;
      case 'outline': ops.outline(f, o.threshold, o.ink, o.width); break;
      case 'lineArt': ops.lineArt(f, o.threshold, o.ink, o.paper); break;
      case 'vignette': ops.vignette(f, o.amount); break;
      case 'letterbox': ops.letterbox(f, o.amount); break;
      case 'bloom': ops.bloom(f, o.amount); break;
      case 'emboss': ops.emboss(f, o.amount); break;
      case 'hueWaves': paint.hueWaves(f, o.amount, seed); break;
      case 'paper': paint.paper(f, o.amount, seed); break;
      case 'scanlines': ops.scanlines(f, o.amount); break;
      case 'bleed': paint.bleed(f, seed); break;
      case 'levels': ops.levels(f); break;
      case 'strokes': paint.strokes(f, o.length, seed); break;
      case 'silhouette': ops.silhouette(f, o.ink); break;
      case 'mirrorTile': pat.mirrorTile(f); break;
      case 'mirrorX': pat.mirrorX(f); break;
      case 'stars': pat.starfield(f, seed); break;
      case 'spotlights': pat.spotlights(f, seed); break;
      case 'collage': pat.collage(f, seed); break;
      case 'cells': pat.cells(f, o.size, o.shape, seed, o.leads); break;
      case 'dots': pat.dots(f, o.size, o.mode, seed, o.paper); break;
      case 'layers': pat.layers(f, o.levels, o.shadow); break;
      case 'hatch': pat.hatch(f, o.ink); break;
      case 'glyphs': pat.glyphs(f, o.ink, seed); break;
      case 'isoGrid': pat.isoGrid(f, o.spacing, o.alpha, o.ink); break;
    }
  }
}

/**
 * The preset part of the way: `amount` 0 leaves the field, 1 is the full preset. Kept on the
 * smooth kernel and colour grain, since a half-pixelated or half-grey picture still has colour.
 */
export function applyStyleLightly(f: Field, spec: StyleSpec, seed: number, amount: number): void {
  const styled = cloneField(f);
  applyStyle(styled, spec, seed);
  const d = f.data;
  const s = styled.data;
  for (let i = 0; i < d.length; i++) d[i] = d[i]! + (s[i]! - d[i]!) * amount;
}

/** The grain factor of a preset applied `amount` of the way. */
export function lightGrain(spec: StyleSpec, amount: number): number {
  return 1 + ((spec.grain ?? 1) - 1) * amount;
}
