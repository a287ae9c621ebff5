/** Style words in a prompt: a lighter version of the matching style preset, when no preset is chosen. */
import { describe, expect, it } from 'vitest';
import { generateImages } from '../../server/engines/image';
import { PROMPT_STYLE_AMOUNT, promptStyle } from '../../server/engines/image/prompt-style';
import { type StylePreset } from '../../api/catalog';
import { decode, meanAbsDiff, resolved, type Pixels } from './image-test-utils';

describe('promptStyle', () => {
  it('finds the style words people write, and the presets by name', () => {
    expect(promptStyle('a lighthouse, loose watercolor painting')).toEqual({ preset: 'Watercolor', amount: PROMPT_STYLE_AMOUNT });
    expect(promptStyle('portrait, oil painting, museum light')?.preset).toBe('Impressionist');
    expect(promptStyle('a castle in pixel art')?.preset).toBe('pixel-art');
    expect(promptStyle('a castle, pixel-art')?.preset).toBe('pixel-art');
    expect(promptStyle('a detective in the rain, noir')?.preset).toBe('Film Noir');
    expect(promptStyle('a detective in the rain, film noir')?.preset).toBe('Film Noir');
    expect(promptStyle('a street, Neon Noir')?.preset).toBe('Neon Noir');
    expect(promptStyle('a fox, Stained Glass window')?.preset).toBe('Stained Glass');
  });

  it('reads the weight of the words, and none at all in a plain prompt', () => {
    expect(promptStyle('a lighthouse, (watercolor:1.6)')?.amount).toBeCloseTo(PROMPT_STYLE_AMOUNT * 1.6);
    expect(promptStyle('a lighthouse, (watercolor:0)')).toBeUndefined();
    expect(promptStyle('a lighthouse on a cliff at dusk')).toBeUndefined();
    // Preset names that are everyday words are not read as a style.
    expect(promptStyle('a base camp, enhance the light')).toBeUndefined();
  });

  it('takes the strongest style word, the first among equals', () => {
    expect(promptStyle('watercolor, pixel art')?.preset).toBe('Watercolor');
    expect(promptStyle('watercolor, (pixel art:1.4)')?.preset).toBe('pixel-art');
  });
});

const BASE = 'a lighthouse on a cliff at dusk, waves below';

async function picture(prompt: string, style?: StylePreset): Promise<Pixels> {
  const res = await generateImages(resolved('sdxl', { prompt, seed: 77, ...(style ? { style_preset: style } : {}) }));
  return decode(res.images[0]!.image_b64);
}

/** How far the picture without a preset is from the same prompt with the full preset. */
async function distanceToPreset(prompt: string, preset: StylePreset): Promise<number> {
  return meanAbsDiff(await picture(prompt), await picture(prompt, preset));
}

describe('the local image engine draws a style word as a lighter preset', () => {
  // A made-up word in the same place changes the scene as much as the style word does, but
  // brings it no closer to the preset: that is the yardstick.
  it.each([
    ['watercolor', 'Watercolor'], ['oil painting', 'Impressionist'], ['pixel art', 'pixel-art'], ['noir', 'Film Noir'],
  ] as const)('"%s" goes part of the way to %s', async (words, preset) => {
    const styled = await distanceToPreset(`${BASE}, ${words}`, preset);
    const plain = await distanceToPreset(`${BASE}, ${words.replace(/[aeiou]/g, 'u')}`, preset);
    expect(styled).toBeLessThan(plain * 0.75);
    expect(styled).toBeGreaterThan(plain * 0.2);
  }, 60_000);

  it('an explicit preset wins over the words', async () => {
    const both = await picture(`${BASE}, noir`, 'pixel-art');
    const noirOnly = await picture(`${BASE}, noir`, 'Film Noir');
    const pixelOnly = await picture(`${BASE}, nuur`, 'pixel-art');
    expect(meanAbsDiff(both, pixelOnly)).toBeLessThan(meanAbsDiff(both, noirOnly));
  }, 60_000);
});
