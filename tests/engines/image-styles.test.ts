/** style_preset: every preset visibly changes the picture, no two alike, and the telling ones look like their names. */
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { generateImages } from '../../server/engines/image';
import { STYLE_PRESETS, type StylePreset } from '../../api/catalog';
import { decode, highFrequency, luma, meanSaturation, resolved, type Pixels } from './image-test-utils';

const seed = 21;
/** A bright, busy landscape and a dark, sparse portrait: a preset must show on both. */
const PROMPTS = ['a cabin by a lake with mountains at sunset, pine trees', 'portrait of a knight, night'] as const;

async function render(prompt: string, style?: StylePreset): Promise<string> {
  const res = await generateImages(resolved('sdxl', { prompt, seed, ...(style ? { style_preset: style } : {}) }));
  return res.images[0]!.image_b64;
}

/** A 64x64 thumbnail: enough to tell pictures apart, cheap to compare in bulk. */
async function thumb(b64: string): Promise<Uint8Array> {
  return sharp(Buffer.from(b64, 'base64')).resize(64, 64, { fit: 'fill' }).removeAlpha().raw().toBuffer();
}

function diff(a: Uint8Array, b: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / a.length;
}

type Key = StylePreset | 'none';
const thumbs = PROMPTS.map(() => new Map<Key, Uint8Array>());
const full = new Map<Key, Pixels>();
const measured: Key[] = ['none', 'Monochrome', 'Film Noir', 'line-art', 'pixel-art', 'Watercolor', 'neon-punk', 'cinematic', 'tile-texture'];

beforeAll(async () => {
  for (const [k, prompt] of PROMPTS.entries()) {
    for (const style of ['none', ...STYLE_PRESETS] as const) {
      const b64 = await render(prompt, style === 'none' ? undefined : style);
      thumbs[k]!.set(style, await thumb(b64));
      if (k === 0 && measured.includes(style)) full.set(style, await decode(b64));
    }
  }
}, 180_000);

describe.each(PROMPTS.map((p, k) => [p, k] as const))('every style preset, on "%s"', (_prompt, k) => {
  it.each(STYLE_PRESETS.map((s) => [s]))('%s changes the picture', (style) => {
    expect(diff(thumbs[k]!.get(style)!, thumbs[k]!.get('none')!)).toBeGreaterThan(2.5);
  });

  it('no two presets give the same picture', () => {
    const close: string[] = [];
    for (let i = 0; i < STYLE_PRESETS.length; i++) {
      for (let j = i + 1; j < STYLE_PRESETS.length; j++) {
        const a = STYLE_PRESETS[i]!;
        const b = STYLE_PRESETS[j]!;
        if (diff(thumbs[k]!.get(a)!, thumbs[k]!.get(b)!) < 1.5) close.push(`${a} ~ ${b}`);
      }
    }
    expect(close).toEqual([]);
  });
});

describe('presets look like their names', () => {
  it('Monochrome and Film Noir have no colour', () => {
    expect(meanSaturation(full.get('Monochrome')!)).toBeLessThan(0.04);
    expect(meanSaturation(full.get('Film Noir')!)).toBeLessThan(0.04);
    expect(meanSaturation(full.get('none')!)).toBeGreaterThan(0.2);
  });

  it('line-art is dark lines on white', () => {
    const l = luma(full.get('line-art')!);
    const white = l.filter((v) => v > 220).length / l.length;
    const dark = l.filter((v) => v < 100).length / l.length;
    expect(white).toBeGreaterThan(0.7);
    expect(dark).toBeGreaterThan(0.01);
  });

  it('pixel-art is made of flat 12-pixel blocks', () => {
    const p = full.get('pixel-art')!;
    const l = luma(p);
    let inside = 0;
    let across = 0;
    let ni = 0;
    let na = 0;
    for (let y = 0; y < p.height; y++) {
      for (let x = 0; x + 1 < p.width; x++) {
        const d = Math.abs(l[y * p.width + x]! - l[y * p.width + x + 1]!);
        if ((x + 1) % 12 === 0) { across += d; na++; } else { inside += d; ni++; }
      }
    }
    expect(across / na).toBeGreaterThan(4 * (inside / ni));
  });

  it('Watercolor is softer than the plain picture; neon-punk more saturated', () => {
    expect(highFrequency(full.get('Watercolor')!)).toBeLessThan(highFrequency(full.get('none')!));
    expect(meanSaturation(full.get('neon-punk')!)).toBeGreaterThan(meanSaturation(full.get('none')!) + 0.1);
  });

  it('cinematic has black bars above and below', () => {
    const p = full.get('cinematic')!;
    const l = luma(p);
    const rowMean = (y: number) => l.subarray(y * p.width, (y + 1) * p.width).reduce((a, b) => a + b, 0) / p.width;
    expect(rowMean(20)).toBeLessThan(20);
    expect(rowMean(p.height - 20)).toBeLessThan(20);
    expect(rowMean(p.height / 2)).toBeGreaterThan(40);
  });

  it('tile-texture repeats seamlessly: its left and right edges match, and its top and bottom', () => {
    const edgeDiff = (p: Pixels, horizontal: boolean) => {
      let s = 0;
      const n = horizontal ? p.height : p.width;
      for (let k = 0; k < n; k++) {
        const a = horizontal ? (k * p.width) * 3 : k * 3;
        const b = horizontal ? (k * p.width + p.width - 1) * 3 : ((p.height - 1) * p.width + k) * 3;
        for (let c = 0; c < 3; c++) s += Math.abs(p.data[a + c]! - p.data[b + c]!);
      }
      return s / (n * 3);
    };
    const tile = full.get('tile-texture')!;
    expect(edgeDiff(tile, true)).toBeLessThan(8);
    expect(edgeDiff(tile, false)).toBeLessThan(8);
    expect(edgeDiff(full.get('none')!, false)).toBeGreaterThan(20);
  });
});
