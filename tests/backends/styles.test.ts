/** The one style table every backend without style presets reads, and the function applying it. */
import { describe, expect, it } from 'vitest';
import { STYLE_PRESETS } from '../../api/catalog';
import { applyStyle, STYLES } from '../../api/backends/styles';

const presets = STYLE_PRESETS.filter((p) => p !== 'base');

describe('the style table', () => {
  it('has one row per service preset, each with the prompt once, negative words and a phrase', () => {
    expect(Object.keys(STYLES).sort()).toEqual([...STYLE_PRESETS].sort());
    for (const preset of presets) {
      const { template, negative, phrase } = STYLES[preset];
      expect(template.split('{prompt}'), preset).toHaveLength(2);
      expect(template, preset).not.toBe('{prompt}');
      expect(negative, preset).not.toBe('');
      expect(phrase, preset).not.toBe('');
    }
  });

  it('holds no character AUTOMATIC1111 or ComfyUI read as prompt syntax (weights, embeddings, LoRAs)', () => {
    for (const preset of STYLE_PRESETS) {
      const { template, negative, phrase } = STYLES[preset];
      for (const words of [template, negative, phrase]) {
        expect(words.replace('{prompt}', ''), preset).not.toMatch(/[()[\]{}<>:\\]/);
        expect(words, preset).toBe(words.trim());
      }
    }
  });
});

describe('applyStyle', () => {
  it('puts the prompt in the template and adds the negative words after the negative prompt', () => {
    expect(applyStyle('pixel-art', 'a cat', 'dog')).toEqual({
      prompt: 'pixel art of a cat, low resolution, retro 8-bit sprite, limited palette',
      negative: 'dog, smooth, photorealistic, blurry',
    });
    expect(applyStyle('Space', 'a whale', '')).toEqual({ prompt: 'a whale in outer space, stars, nebula, cosmic scale', negative: 'earthly, indoor, daylight sky' });
  });

  it('keeps every prompt whole, `$` patterns included', () => {
    for (const preset of STYLE_PRESETS) {
      expect(applyStyle(preset, 'a sign saying $& $1 $$', '').prompt, preset).toContain('a sign saying $& $1 $$');
    }
  });

  it('base adds nothing', () => {
    expect(applyStyle('base', 'a cat', 'dog')).toEqual({ prompt: 'a cat', negative: 'dog' });
    expect(applyStyle('base', ' ', '')).toEqual({ prompt: ' ', negative: '' });
  });

  it('gives a blank prompt the phrase and the detail words, never a dangling "of"', () => {
    expect(applyStyle('pixel-art', '', '').prompt).toBe('pixel art style, low resolution, retro 8-bit sprite, limited palette');
    expect(applyStyle('modeling-compound', ' ', '').prompt).toBe('modeling clay style, plasticine, play dough sculpture, handmade, soft clay texture');
    for (const preset of presets) {
      const { prompt } = applyStyle(preset, '', '');
      expect(prompt.startsWith(STYLES[preset].phrase), `${preset}: ${prompt}`).toBe(true);
      expect(prompt, preset).not.toMatch(/\{prompt\}|, ,| of,/);
    }
  });

  it('leaves a blank negative prompt out rather than starting with a comma', () => {
    expect(applyStyle('Watercolor', 'x', '  ').negative).toBe(STYLES.Watercolor.negative);
  });
});
