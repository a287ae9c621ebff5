/**
 * Prompt to scene: turns the words of a request (with their weights) into a small scene
 * description (sky, ground, light, palette, objects) that render.ts paints. Known words map
 * through lexicon.ts; unknown words hash into a colour and sometimes a shape, so every word counts.
 */
import { hashInts, hashString, Rng } from '../random';
import { hex, hsl, mix, saturate, weightedMean, type RGB } from './color';
import { lookupWord, PHRASES, type ObjectKind, type WordTraits } from './lexicon';
import { weightedWords, type WeightedWord } from './prompt-words';

export interface PaletteEntry {
  colour: RGB;
  weight: number;
}

export interface SceneObject {
  kind: ObjectKind;
  /** Centre (or base centre for things that stand on the ground), 0..1 of the frame. */
  x: number;
  y: number;
  /** Fraction of the frame height. */
  size: number;
  colour: RGB;
  /** How strongly the prompt asked for it; scales opacity. */
  weight: number;
  seed: number;
}

export interface Scene {
  skyTop: RGB;
  skyBottom: RGB;
  groundFar: RGB;
  groundNear: RGB;
  /** Horizon height, 0 (top) .. 1 (no ground: close-up or abstract). */
  horizon: number;
  water: boolean;
  /** Global tone, each clamped to about -1.2 .. 1.2. */
  light: number;
  warm: number;
  sat: number;
  contrast: number;
  palette: PaletteEntry[];
  negatives: PaletteEntry[];
  objects: SceneObject[];
  /** Seed of the painterly texture and of everything placed at random. */
  seed: number;
}

export interface SceneRequest {
  prompt: string;
  prompt_2?: string;
  negative_prompt?: string;
  negative_prompt_2?: string;
  textual_inversions?: Record<string, string>;
}

/** Words that carry grammar, not content: they only move the composition seed. */
const STOP = new Set(
  'a an the of and or in on at by to with without from for into over under very highly extremely is are of, its it this that'.split(' '),
);

interface Tally {
  light: number;
  warm: number;
  sat: number;
  contrast: number;
  sky: PaletteEntry[];
  ground: PaletteEntry[];
  palette: PaletteEntry[];
  horizon: PaletteEntry[];
  water: number;
  closeUp: number;
  objects: Map<ObjectKind, { weight: number; colours: PaletteEntry[]; count: number; order: number }>;
  /** The strongest unknown word that could stand for a subject, if no known word does. */
  stranger?: { colour: RGB; weight: number; order: number };
}

function emptyTally(): Tally {
  return { light: 0, warm: 0, sat: 0, contrast: 0, sky: [], ground: [], palette: [], horizon: [], water: 0, closeUp: 0, objects: new Map() };
}

/** Joins two-word phrases the lexicon knows ('golden hour' -> 'golden_hour'). */
function joinPhrases(words: WeightedWord[]): WeightedWord[] {
  const out: WeightedWord[] = [];
  for (let i = 0; i < words.length; i++) {
    const a = words[i]!;
    const b = words[i + 1];
    if (b && PHRASES.has(`${a.word}_${b.word}`)) {
      out.push({ word: `${a.word}_${b.word}`, weight: (a.weight + b.weight) / 2 });
      i++;
    } else out.push(a);
  }
  return out;
}

/** Traits for a word the lexicon does not know: a hashed colour, a small tonal nudge, maybe a shape. */
function hashedTraits(word: string): WordTraits {
  const h = hashString(word);
  const colour = hsl(h % 360, 0.35 + ((h >>> 9) % 40) / 100, 0.35 + ((h >>> 17) % 30) / 100);
  const traits: WordTraits = { colour, light: (((h >>> 4) % 21) - 10) / 100, warm: (((h >>> 12) % 21) - 10) / 100 };
  return (h >>> 24) % 3 === 0 ? { ...traits, object: 'blob' } : traits;
}

function tallyWords(tally: Tally, words: WeightedWord[], scale: number, ti: Map<string, string>): void {
  // A colour word just before a thing colours that thing: 'a purple planet', 'a white cat'.
  let adjective: { colour: RGB; index: number } | undefined;
  words.forEach(({ word, weight }, index) => {
    if (STOP.has(word)) return;
    // Early words steer a diffusion model more than late ones; so here.
    const influence = weight * scale / (1 + index * 0.04);
    const tiName = ti.get(word);
    let traits = lookupWord(word);
    const known = traits !== undefined;
    if (tiName !== undefined) {
      // A textual-inversion trigger word brings its embedding's own colour and a subject.
      const h = hashString(tiName);
      traits = { ...traits, colour: hsl(h % 360, 0.6, 0.5), object: traits?.object ?? 'blob' };
    }
    traits ??= hashedTraits(word);
    const k = known || tiName !== undefined ? influence : influence * 0.35;
    if (traits.colour) tally.palette.push({ colour: traits.colour, weight: k });
    if (traits.sky) tally.sky.push({ colour: traits.sky, weight: k });
    if (traits.ground) tally.ground.push({ colour: traits.ground, weight: k });
    if (traits.horizon !== undefined) tally.horizon.push({ colour: [traits.horizon, 0, 0], weight: k });
    tally.light += (traits.light ?? 0) * k;
    tally.warm += (traits.warm ?? 0) * k;
    tally.sat += (traits.sat ?? 0) * k;
    tally.contrast += (traits.contrast ?? 0) * k;
    if (traits.water) tally.water += k;
    if (traits.closeUp) tally.closeUp += k;
    if (!known && tiName === undefined) {
      // An unknown word may be the subject ('spaceship'), drawn only if nothing known is.
      if (traits.object && traits.colour && (!tally.stranger || k > tally.stranger.weight)) tally.stranger = { colour: traits.colour, weight: k, order: index };
    } else if (traits.object) {
      const entry = tally.objects.get(traits.object) ?? { weight: 0, colours: [], count: 0, order: index };
      entry.weight += k;
      entry.count = Math.max(entry.count, traits.count ?? 1);
      if (traits.colour) entry.colours.push({ colour: traits.colour, weight: k });
      if (adjective && index - adjective.index <= 2) entry.colours.push({ colour: adjective.colour, weight: 3 * k });
      tally.objects.set(traits.object, entry);
    }
    const colourOnly = known && traits.colour !== undefined && !traits.object && !traits.sky && !traits.ground;
    if (colourOnly) adjective = { colour: traits.colour!, index };
  });
}

const clampTone = (v: number) => Math.max(-1.2, Math.min(1.2, v));

/** Builds the scene for one image: the request's words, shaped by this image's seed. */
export function buildScene(req: SceneRequest, seed: number): Scene {
  const ti = new Map(Object.entries(req.textual_inversions ?? {}).map(([name, word]) => [word.toLowerCase(), name]));
  const pos = emptyTally();
  const neg = emptyTally();
  // A negative weight inverts a word's meaning: it counts for the opposite prompt.
  const sources: [string | undefined, number, Tally, Tally][] = [
    [req.prompt, 1, pos, neg], [req.prompt_2, 0.6, pos, neg],
    [req.negative_prompt, 1, neg, pos], [req.negative_prompt_2, 0.6, neg, pos],
  ];
  for (const [text, scale, same, opposite] of sources) {
    if (text === undefined) continue;
    const words = joinPhrases(weightedWords(text));
    tallyWords(same, words.filter((w) => w.weight > 0), scale, ti);
    tallyWords(opposite, words.filter((w) => w.weight < 0).map((w) => ({ ...w, weight: -w.weight })), scale, ti);
  }

  const sceneSeed = hashInts(seed, hashString(`${req.prompt}\u0000${req.prompt_2 ?? ''}`));
  const rng = new Rng(sceneSeed);
  const light = clampTone(pos.light - 0.5 * neg.light);
  const warm = clampTone(pos.warm - 0.5 * neg.warm);
  const paletteMean = weightedMean(pos.palette, hsl(rng.range(0, 360), 0.3, 0.5));

  // Daylight blue by default, night blue when dark; the sky words and the palette pull on it.
  const defaultSky = mix(hex('#86b6e6'), hex('#0d1330'), Math.max(0, -light));
  const sky = weightedMean(pos.sky, mix(defaultSky, saturate(paletteMean, 0.6), 0.3));
  const warmTint: RGB = warm > 0 ? hex('#f6a25a') : hex('#6a9ad8');
  const skyBottom = mix(mix(sky, [255, 255, 255], 0.18 + 0.1 * Math.max(0, light)), warmTint, Math.min(0.45, Math.abs(warm) * 0.35));
  const skyTop = mix(sky, [0, 0, 20], 0.22);
  const ground = weightedMean(pos.ground, mix(hex('#5d6b4a'), paletteMean, 0.45));
  const groundFar = mix(ground, skyBottom, 0.25);
  const groundNear = mix(ground, [0, 0, 0], 0.25);
  // A close-up (portrait, interior, space) drops the horizon unless landscape words outweigh it.
  const landscape = pos.water + pos.ground.reduce((sum, e) => sum + e.weight, 0);
  const closeUp = pos.closeUp > 0.2 && pos.closeUp > 0.8 * landscape;
  const horizonPref = pos.horizon.length > 0 ? weightedMean(pos.horizon, [0.6, 0, 0])[0] : rng.range(0.55, 0.68);
  const horizon = closeUp ? 1 : Math.min(0.8, Math.max(0.4, horizonPref + rng.range(-0.04, 0.04)));

  const negatives = [...neg.palette, ...neg.sky, ...neg.ground];
  const suppressed = new Set([...neg.objects.entries()].filter(([, e]) => e.weight > 0.3).map(([k]) => k));
  const objects = placeObjects(pos, suppressed, { horizon, skyBottom, light, paletteMean, rng });

  return {
    skyTop, skyBottom, groundFar, groundNear, horizon,
    water: !closeUp && pos.water > 0.3,
    light, warm,
    sat: clampTone(pos.sat - 0.5 * neg.sat),
    contrast: clampTone(pos.contrast - 0.5 * neg.contrast),
    palette: pos.palette.length > 0 ? pos.palette : [{ colour: paletteMean, weight: 1 }],
    negatives,
    objects,
    seed: sceneSeed,
  };
}

interface Placement {
  horizon: number;
  skyBottom: RGB;
  light: number;
  paletteMean: RGB;
  rng: Rng;
}

/** Where each kind of thing goes: suns above the horizon, trees on the ground, subjects in front. */
function placeObjects(t: Tally, suppressed: Set<ObjectKind>, p: Placement): SceneObject[] {
  const { rng, horizon } = p;
  const objects: SceneObject[] = [];
  const scenery = new Set<ObjectKind>(['sun', 'moon', 'stars', 'cloud', 'glow', 'mountain']);
  if (t.stranger && [...t.objects.keys()].every((k) => scenery.has(k)) && !t.objects.has('blob')) {
    t.objects.set('blob', { weight: t.stranger.weight * 2, colours: [{ colour: t.stranger.colour, weight: 1 }], count: 1, order: t.stranger.order });
  }
  const ground = Math.min(horizon, 0.95);
  // Subjects are laid out in prompt order: the first in the middle, later ones to alternate sides.
  let subjectSlot = 0;
  const sorted = [...t.objects.entries()].sort((a, b) => a[1].order - b[1].order);
  for (const [kind, entry] of sorted) {
    if (suppressed.has(kind)) continue;
    const w = Math.min(2, entry.weight);
    const colour = weightedMean(entry.colours, p.paletteMean);
    // Weight brings more of a plural thing (trees, flowers), never a second sun or subject.
    const count = entry.count > 1 ? Math.max(1, Math.round(entry.count * Math.min(1.5, 0.6 + 0.5 * w))) : 1;
    for (let i = 0; i < count; i++) {
      const s = rng.int(0x7fffffff);
      const add = (x: number, y: number, size: number, c: RGB = colour) => objects.push({ kind, x, y, size, colour: c, weight: w, seed: s });
      switch (kind) {
        case 'sun': {
          // Low for a sunset, but clear of any mountains standing on the horizon.
          const low = horizon - (t.objects.has('mountain') ? rng.range(0.3, 0.38) : rng.range(0.06, 0.14));
          add(rng.range(0.25, 0.75), p.light > 0.25 ? rng.range(0.12, 0.25) : low, 0.07 + 0.04 * w, mix(colour, hex('#fff1b0'), 0.4));
          break;
        }
        case 'moon': add(rng.range(0.2, 0.8), rng.range(0.12, 0.28), 0.05 + 0.03 * w, hex('#eef0fa')); break;
        case 'planet': add(rng.range(0.3, 0.7), rng.range(0.3, 0.5), rng.range(0.18, 0.26) * Math.min(1.3, 0.8 + 0.2 * w), colour); break;
        case 'stars': add(0.5, horizon / 2, horizon, hex('#ffffff')); break;
        case 'cloud': add(rng.range(0.1, 0.9), rng.range(0.08, Math.max(0.12, horizon - 0.25)), rng.range(0.08, 0.14), mix(hex('#f2f4f8'), p.paletteMean, 0.15)); break;
        case 'mountain': {
          // Distant rock takes on the air's colour: bluish by day, the sky's glow at sunset, dark at night.
          const rock = mix(mix(colour, hex('#7d8aa0'), 0.4), p.skyBottom, 0.3);
          add(0.5, horizon, rng.range(0.18, 0.32) * Math.min(1.3, 0.7 + 0.4 * w), mix(rock, [10, 10, 25], Math.max(0, -p.light) * 0.6));
          break;
        }
        case 'building': add(rng.range(0.08, 0.92), ground + rng.range(0, 0.03), rng.range(0.18, 0.34), mix(colour, hex('#4a4f58'), rng.range(0, 0.4))); break;
        case 'house': add(rng.range(0.2, 0.8), Math.min(0.95, ground + rng.range(0.08, 0.2)), rng.range(0.11, 0.16), colour); break;
        case 'tree': add(rng.range(0.03, 0.97), Math.min(0.98, ground + rng.range(0.02, 1 - ground)), rng.range(0.14, 0.28), mix(hex('#1f4d26'), colour, 0.5)); break;
        case 'flower': add(rng.range(0.05, 0.95), Math.min(0.97, ground + rng.range(0.1, 1 - ground)), rng.range(0.025, 0.045), colour); break;
        case 'glow': add(rng.range(0.3, 0.7), rng.range(0.35, 0.7), 0.12 + 0.08 * w, colour); break;
        case 'figure':
        case 'animal':
        case 'blob': {
          const side = subjectSlot === 0 ? 0 : (subjectSlot % 2 === 1 ? -1 : 1) * (0.18 + 0.08 * Math.floor((subjectSlot - 1) / 2));
          subjectSlot++;
          const x = Math.min(0.9, Math.max(0.1, 0.5 + side + rng.range(-0.05, 0.05)));
          const base = horizon >= 1 ? 0.98 : Math.min(0.97, ground + rng.range(0.2, 0.35));
          const size = (kind === 'figure' ? 0.55 : kind === 'animal' ? 0.3 : 0.22) * Math.min(1.4, 0.75 + 0.3 * w);
          add(x, kind === 'blob' ? rng.range(0.35, 0.7) : base, size, kind === 'blob' ? colour : mix(colour, p.paletteMean, 0.25));
          break;
        }
      }
    }
  }
  // Nothing to draw: let the strongest palette colours form a loose abstract composition.
  const landscape = t.sky.length + t.ground.length + t.water > 0;
  if (objects.length === 0 && !landscape && t.palette.length > 0) {
    const strongest = [...t.palette].sort((a, b) => b.weight - a.weight).slice(0, 3);
    for (const e of strongest) {
      objects.push({ kind: 'blob', x: rng.range(0.2, 0.8), y: rng.range(0.3, 0.7), size: rng.range(0.15, 0.3), colour: e.colour, weight: Math.min(1.5, e.weight), seed: rng.int(0x7fffffff) });
    }
  }
  return objects;
}
