/**
 * Style words in a prompt ("watercolor", "oil painting", "pixel art", "noir", a preset's name):
 * a diffusion model draws "a lighthouse, watercolor" as a watercolour, so the stand-in reads those
 * words as a lighter version of the matching style preset. An explicit `style_preset` wins; the
 * prompt's strongest style word (the first among equals) is the one used.
 */
import { STYLE_PRESETS, type StylePreset } from '../../../api/catalog';
import { weightedWords } from './prompt-words';

/** How much of the preset a plain (weight 1) style word brings; `(watercolor:1.5)` brings more. */
export const PROMPT_STYLE_AMOUNT = 0.5;
const MAX_AMOUNT = 0.9;

/** Preset names too plain to be a style request when they appear in a sentence. */
const NOT_FROM_NAME = new Set<StylePreset>(['base', 'enhance']);

/** Words people use for a style, beside the presets' own names. */
const SYNONYMS: [string, StylePreset][] = [
  ['watercolour', 'Watercolor'], ['watercolors', 'Watercolor'], ['watercolours', 'Watercolor'], ['aquarelle', 'Watercolor'],
  ['oil painting', 'Impressionist'], ['oil on canvas', 'Impressionist'], ['impasto', 'Impressionist'],
  ['impressionism', 'Impressionist'], ['impressionistic', 'Impressionist'],
  ['pixel art', 'pixel-art'], ['pixelart', 'pixel-art'], ['8 bit', 'pixel-art'], ['16 bit', 'pixel-art'], ['8bit', 'pixel-art'],
  ['noir', 'Film Noir'], ['black and white', 'Monochrome'], ['grayscale', 'Monochrome'], ['greyscale', 'Monochrome'],
  ['comic', 'comic-book'], ['comics', 'comic-book'], ['manga', 'anime'],
  ['lineart', 'line-art'], ['line drawing', 'line-art'], ['ink drawing', 'line-art'], ['pencil sketch', 'line-art'],
  ['lowpoly', 'low-poly'], ['claymation', 'Craft Clay'], ['clay', 'Craft Clay'],
  ['papercut', 'Flat Papercut'], ['paper cut', 'Flat Papercut'], ['3d render', '3d-model'],
  ['pointillist', 'Pointillism'], ['cubism', 'Cubist'], ['surreal', 'Surrealist'], ['surrealism', 'Surrealist'],
  ['baroque', 'Renaissance'], ['cyberpunk', 'neon-punk'], ['analog photo', 'analog-film'], ['35mm film', 'analog-film'],
  ['digital painting', 'digital-art'], ['minimalism', 'Minimalist'], ['minimal', 'Minimalist'],
  ['hyperrealistic', 'Hyperrealism'], ['photorealistic', 'Hyperrealism'], ['tilt shift', 'Tilt-Shift'],
];

/** Words split at '-' and '_', lower case, so "pixel-art", "pixel_art" and "pixel art" agree. */
function key(text: string): string {
  return text.toLowerCase().split(/[\s_-]+/).filter((w) => w !== '').join(' ');
}

const TABLE = new Map<string, StylePreset>();
for (const preset of STYLE_PRESETS) if (!NOT_FROM_NAME.has(preset)) TABLE.set(key(preset), preset);
for (const [words, preset] of SYNONYMS) TABLE.set(key(words), preset);
const LONGEST = Math.max(...[...TABLE.keys()].map((k) => k.split(' ').length));

export interface PromptStyle {
  preset: StylePreset;
  /** 0..1: how far toward the full preset. */
  amount: number;
}

/** The style a prompt asks for in words, or undefined when it names none. */
export function promptStyle(prompt: string): PromptStyle | undefined {
  const words = weightedWords(prompt).flatMap(({ word, weight }) =>
    word.split(/[_-]+/).filter((w) => w !== '').map((w) => ({ word: w, weight })));
  let best: PromptStyle | undefined;
  for (let i = 0; i < words.length; i++) {
    // The longest phrase starting here wins: "film noir" over "noir", "oil painting" over nothing.
    for (let n = Math.min(LONGEST, words.length - i); n >= 1; n--) {
      const span = words.slice(i, i + n);
      const preset = TABLE.get(span.map((w) => w.word).join(' '));
      if (!preset) continue;
      const weight = Math.min(...span.map((w) => w.weight));
      const amount = Math.min(MAX_AMOUNT, PROMPT_STYLE_AMOUNT * weight);
      if (amount > 0 && (!best || amount > best.amount)) best = { preset, amount };
      i += n - 1;
      break;
    }
  }
  return best;
}
