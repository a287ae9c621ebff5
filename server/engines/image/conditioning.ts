/**
 * How the sampling parameters act on the working field: cfg_scale pulls colour and contrast
 * toward the prompt, the negative prompt pushes away from its colours, few steps leave the
 * picture unresolved, the sampler and the model assets (checkpoint, LoRAs, VAE) tint it, and
 * the refiner sharpens. Each effect is deterministic and measurable in the output.
 */
import { boxBlur, cloneField, valueNoise, type Field } from './field';
import { chain, contrast, hueRotate, multiply, saturation, tint, warmth, applyAffine, type Affine } from './colour-matrix';
import { hashInts, hashString } from '../random';
import { hsl, saturate, weightedMean, type RGB } from './color';
import { type PaletteEntry, type Scene } from './prompt-field';
import { isPremiumSampler, type ModelFamily, type Sampler } from '../../../api/catalog';

export interface SamplerTraits {
  /** Multiplies the step count: better integrators converge in fewer steps. */
  stepFactor: number;
  /** Multiplies the residual grain: ancestral samplers inject fresh noise each step. */
  grain: number;
}

/** Sampler character, by family of integrator. */
export function samplerTraits(sampler: Sampler): SamplerTraits {
  const ancestral = sampler.includes('ANCESTRAL') || sampler === 'DDPM' || sampler === 'DPM_PLUS_PLUS_SDE_KARRAS';
  const karras = sampler.includes('KARRAS');
  return {
    stepFactor: (isPremiumSampler(sampler) ? 1.3 : 1) * (karras ? 1.1 : 1),
    grain: (ancestral ? 1.25 : 1) * (karras ? 0.85 : 1),
  };
}

/** How far from converged the picture still is after this many effective steps (1 = pure noise). */
export function unresolvedAt(effectiveSteps: number): number {
  return Math.exp(-(effectiveSteps - 1) / 5);
}

/** Deviation (in 0..255 units) of the fine grain left after this many effective steps. */
export function grainAt(effectiveSteps: number): number {
  return 40 / Math.pow(1 + effectiveSteps / 4, 0.9);
}

/** Mixes latent-like colour blotches into a picture sampled with few steps. */
export function leaveUnresolved(f: Field, amount: number, seed: number): void {
  if (amount < 0.01) return;
  const { width: w, height: h, data } = f;
  const cells = Math.max(4, Math.round(w / 8));
  const planes = [0, 1, 2].map((c) => valueNoise(w, h, cells, Math.max(4, Math.round(h / 8)), hashInts(seed, 10 + c)));
  const k = Math.min(0.8, amount * 0.75);
  for (let p = 0; p < w * h; p++) {
    for (let c = 0; c < 3; c++) {
      const i = p * 3 + c;
      data[i] = data[i]! + (128 + planes[c]![p]! * 110 - data[i]!) * k;
    }
  }
}

export interface ConditioningParams {
  cfgScale: number;
  family: ModelFamily;
  checkpoint?: string;
  loras?: Record<string, number>;
  vae?: string;
}

/** The affine part: the scene's mood, cfg's saturation and contrast, the assets' tints. */
function toneMatrix(scene: Scene, p: ConditioningParams): Affine {
  const g = Math.min(2.5, p.cfgScale / 12);
  const light = scene.light;
  const steps: Affine[] = [
    light >= 0 ? tint([255, 250, 240], 0.3 * light) : multiply(1 + 0.55 * light),
    warmth(scene.warm),
    saturation((1 + 0.5 * scene.sat) * (0.5 + 0.5 * g) * (p.family === 'sd15' ? 0.92 : 1)),
    contrast((1 + 0.35 * scene.contrast) * (0.8 + 0.2 * g)),
  ];
  // The prompt's strongest colours wash over the whole picture, each as strongly as it is weighted.
  for (const e of strongest(scene.palette, 4)) steps.push(tint(saturate(e.colour, 1.2), 0.07 * Math.min(2, g) * Math.min(2.5, e.weight)));
  // Asset names are all the stand-in knows of them, so each name hashes into its own grade.
  if (p.checkpoint !== undefined) {
    const h = hashString(p.checkpoint);
    steps.push(hueRotate(((h % 25) - 12)), warmth(((h >>> 8) % 41 - 20) / 100));
  }
  for (const [name, weight] of Object.entries(p.loras ?? {})) {
    const h = hashString(name);
    steps.push(tint(hsl(h % 360, 0.6, 0.5), Math.max(-0.3, Math.min(0.3, 0.08 * weight))));
  }
  if (p.vae !== undefined) {
    const h = hashString(p.vae);
    steps.push(contrast(0.92 + ((h % 17) / 100)), saturation(0.94 + (((h >>> 8) % 13) / 100)));
  }
  return chain(...steps);
}

function strongest(entries: readonly PaletteEntry[], n: number): PaletteEntry[] {
  return [...entries].sort((a, b) => b.weight - a.weight).slice(0, n);
}

/**
 * Applies mood, cfg and assets to the field. cfg also pulls each pixel toward its nearest
 * prompt colour; the negative prompt pushes pixels away from its colours and shifts the whole
 * picture away from their mean.
 */
export function condition(f: Field, scene: Scene, p: ConditioningParams): void {
  applyAffine(f, toneMatrix(scene, p));
  const d = f.data;
  const pull = 0.14 * Math.min(2, p.cfgScale / 12);
  const palette = strongest(scene.palette, 6);
  const negatives = strongest(scene.negatives, 6).map((e) => ({ colour: e.colour, weight: Math.min(2, e.weight) }));
  const negWeight = negatives.reduce((s, e) => s + e.weight, 0);
  const negMean: RGB = weightedMean(negatives, [128, 128, 128]);
  const shift = [0, 1, 2].map((c) => -(negMean[c]! - 128) * 0.14 * Math.min(1.5, negWeight)) as [number, number, number];
  const weightSum = palette.reduce((s, e) => s + e.weight, 0) || 1;
  for (let i = 0; i < d.length; i += 3) {
    let r = d[i]! + shift[0];
    let g = d[i + 1]! + shift[1];
    let b = d[i + 2]! + shift[2];
    if (pull > 0 && palette.length > 0) {
      let best = 0;
      let bestD = Infinity;
      for (let k = 0; k < palette.length; k++) {
        const c = palette[k]!.colour;
        const dist = ((r - c[0]) ** 2 + (g - c[1]) ** 2 + (b - c[2]) ** 2) / (0.5 + palette[k]!.weight / weightSum);
        if (dist < bestD) { bestD = dist; best = k; }
      }
      const c = palette[best]!.colour;
      r += (c[0] - r) * pull;
      g += (c[1] - g) * pull;
      b += (c[2] - b) * pull;
    }
    for (const n of negatives) {
      const dr = r - n.colour[0];
      const dg = g - n.colour[1];
      const db = b - n.colour[2];
      const d2 = dr * dr + dg * dg + db * db;
      const near = Math.exp(-d2 / 7200);
      if (near < 0.02) continue;
      const len = Math.sqrt(d2) + 1;
      const push = 70 * n.weight * near;
      r += (dr / len) * push;
      g += (dg / len) * push;
      b += (db / len) * push;
    }
    d[i] = r;
    d[i + 1] = g;
    d[i + 2] = b;
  }
}

/** The refiner's last denoising share: an unsharp mask as strong as the refiner's part. */
export function refine(f: Field, highNoiseFrac: number): void {
  const amount = 0.3 + 1.2 * (1 - highNoiseFrac);
  const blurred = cloneField(f);
  boxBlur(blurred, 1, 1);
  const d = f.data;
  const b = blurred.data;
  for (let i = 0; i < d.length; i++) d[i] = d[i]! + (d[i]! - b[i]!) * amount;
}
