/** The local image engine, text to image: determinism, sizes, seeds and what each parameter does to the pixels. */
import { describe, expect, it } from 'vitest';
import { generateImages } from '../../server/engines/image';
import { RESOLUTIONS } from '../../api/catalog';
import { decode, highFrequency, meanAbsDiff, meanColour, meanSaturation, resolved } from './image-test-utils';


async function one(engine: string, body: Record<string, unknown>) {
  const res = await generateImages(resolved(engine, body));
  return decode(res.images[0]!.image_b64);
}

describe('determinism and seeds', () => {
  it('gives the same bytes for the same request and seed', async () => {
    const req = resolved('sdxl', { prompt: 'a lighthouse on a cliff at dusk', seed: 1234 });
    const a = await generateImages(req);
    const b = await generateImages(req);
    expect(a.images[0]!.image_b64).toBe(b.images[0]!.image_b64);
    expect(a.images[0]!.seed).toBe(1234);
    expect(a.images[0]!.removed_for_safety).toBe(false);
    expect(a.prediction_time_ms).toBeGreaterThanOrEqual(0);
  });

  it('returns JPEG files', async () => {
    const res = await generateImages(resolved('sd', { prompt: 'a cat', seed: 1 }));
    const bytes = Buffer.from(res.images[0]!.image_b64, 'base64');
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it('makes num_images distinct images with seeds seed, seed+1, ...', async () => {
    const res = await generateImages(resolved('sd', { prompt: 'a forest', seed: 40, num_images: 3 }));
    expect(res.images.map((i) => i.seed)).toEqual([40, 41, 42]);
    const pixels = await Promise.all(res.images.map((i) => decode(i.image_b64)));
    expect(meanAbsDiff(pixels[0]!, pixels[1]!)).toBeGreaterThan(3);
    expect(meanAbsDiff(pixels[1]!, pixels[2]!)).toBeGreaterThan(3);
    // Image n of a batch is the image a single request with seed + n gives.
    const single = await generateImages(resolved('sd', { prompt: 'a forest', seed: 41 }));
    expect(single.images[0]!.image_b64).toBe(res.images[1]!.image_b64);
  });

  it('picks a random seed for null or missing and returns it, so it can be pinned', async () => {
    const a = await generateImages(resolved('sd', { prompt: 'a boat', seed: null }));
    const b = await generateImages(resolved('sd', { prompt: 'a boat' }));
    const seedA = a.images[0]!.seed!;
    expect(Number.isInteger(seedA)).toBe(true);
    expect(seedA).toBeGreaterThanOrEqual(0);
    expect(seedA).not.toBe(b.images[0]!.seed);
    const pinned = await generateImages(resolved('sd', { prompt: 'a boat', seed: seedA }));
    expect(pinned.images[0]!.image_b64).toBe(a.images[0]!.image_b64);
  });

  it('wraps seeds past the top of the range', async () => {
    const res = await generateImages(resolved('sd', { prompt: 'x', seed: 2 ** 32 - 1, num_images: 2 }));
    expect(res.images.map((i) => i.seed)).toEqual([2 ** 32 - 1, 0]);
  });
});

describe('sizes', () => {
  for (const [family, engine] of [['sdxl', 'sdxl'], ['sd15', 'sd']] as const) {
    for (const { width, height } of RESOLUTIONS[family]) {
      it(`${engine} ${width}x${height} comes back exactly that size`, async () => {
        const p = await one(engine, { prompt: 'mountains', seed: 3, width, height, steps: 10 });
        expect([p.width, p.height]).toEqual([width, height]);
      });
    }
  }

  it('uses the engine default size', async () => {
    expect((await one('sdxl', { prompt: 'a', seed: 1 })).width).toBe(1024);
    expect((await one('sd', { prompt: 'a', seed: 1 })).width).toBe(512);
  });
});

describe('the prompt shapes the picture', () => {
  it('a red sunset is warm, a blue ocean is cool', async () => {
    const [r1, g1, b1] = meanColour(await one('sdxl', { prompt: 'red sunset', seed: 5 }));
    const [r2, g2, b2] = meanColour(await one('sdxl', { prompt: 'blue ocean', seed: 5 }));
    expect(r1).toBeGreaterThan(b1 + 30);
    expect(b2).toBeGreaterThan(r2 + 30);
    expect(r1 - b1).toBeGreaterThan(r2 - b2 + 60);
    expect(g1 + g2).toBeGreaterThan(0);
  });

  it('night is dark, snow is bright, forest is green', async () => {
    const lum = ([r, g, b]: number[]) => 0.299 * r! + 0.587 * g! + 0.114 * b!;
    const night = meanColour(await one('sd', { prompt: 'night', seed: 8 }));
    const snow = meanColour(await one('sd', { prompt: 'snow', seed: 8 }));
    const forest = meanColour(await one('sd', { prompt: 'forest', seed: 8 }));
    expect(lum(night)).toBeLessThan(70);
    expect(lum(snow)).toBeGreaterThan(170);
    expect(forest[1]).toBeGreaterThan(forest[0]);
    expect(forest[1]).toBeGreaterThan(forest[2]);
  });

  it('unknown words still change the picture, deterministically', async () => {
    const a = await one('sd', { prompt: 'zorblat quaxine', seed: 2 });
    const b = await one('sd', { prompt: 'florbic wemmet', seed: 2 });
    const a2 = await one('sd', { prompt: 'zorblat quaxine', seed: 2 });
    expect(meanAbsDiff(a, b)).toBeGreaterThan(5);
    expect(meanAbsDiff(a, a2)).toBe(0);
  });

  it('a weight scales a word: (red:1.6) is redder than red, (red:0.4) less red', async () => {
    const redness = async (prompt: string) => {
      const [r, , b] = meanColour(await one('sd', { prompt, seed: 9 }));
      return r - b;
    };
    const plain = await redness('grey stone wall, red');
    expect(await redness('grey stone wall, (red:1.6)')).toBeGreaterThan(plain + 5);
    expect(await redness('grey stone wall, (red:0.4)')).toBeLessThan(plain - 5);
  });

  it('the negative prompt pushes away from its colours', async () => {
    const [r1, , b1] = meanColour(await one('sd', { prompt: 'a flower garden', seed: 4 }));
    const [r2, , b2] = meanColour(await one('sd', { prompt: 'a flower garden', negative_prompt: 'red', seed: 4 }));
    expect(r2 - b2).toBeLessThan(r1 - b1 - 5);
  });

  it('prompt_2 adds to the picture on SDXL', async () => {
    const a = await one('sdxl', { prompt: 'a field', seed: 4 });
    const b = await one('sdxl', { prompt: 'a field', prompt_2: 'under a purple night sky', seed: 4 });
    expect(meanAbsDiff(a, b)).toBeGreaterThan(5);
  });
});

describe('sampling parameters', () => {
  it('more steps give a cleaner image (less high-frequency energy)', async () => {
    const energy = async (steps: number) => highFrequency(await one('sd', { prompt: 'a quiet lake', seed: 11, steps }));
    const e5 = await energy(5);
    const e20 = await energy(20);
    const e80 = await energy(80);
    expect(e5).toBeGreaterThan(e20 * 1.3);
    expect(e20).toBeGreaterThan(e80 * 1.2);
  });

  it('cfg_scale raises saturation toward the prompt', async () => {
    const sat = async (cfg: number) => meanSaturation(await one('sd', { prompt: 'orange autumn trees', seed: 12, cfg_scale: cfg }));
    const low = await sat(2);
    const mid = await sat(12);
    const high = await sat(25);
    expect(mid).toBeGreaterThan(low + 0.05);
    expect(high).toBeGreaterThan(mid + 0.03);
  });

  it('the sampler changes the noise, not the picture', async () => {
    const a = await one('sd', { prompt: 'a hill', seed: 13, sampler: 'DDIM' });
    const b = await one('sd', { prompt: 'a hill', seed: 13, sampler: 'K_EULER_ANCESTRAL' });
    const d = meanAbsDiff(a, b);
    expect(d).toBeGreaterThan(1);
    expect(d).toBeLessThan(15);
  });

  it('checkpoint, LoRAs, VAE and textual inversions alter the picture deterministically', async () => {
    const base = { prompt: 'a sks portrait', seed: 14 };
    const plain = await one('sd', base);
    for (const extra of [
      { checkpoint: 'svc:dreamshaper' },
      { loras: { 'svc:watercolour': 0.8 } },
      { vae: 'my-vae' },
      { textual_inversions: { 'my-embedding': 'sks' } },
    ]) {
      const a = await one('sd', { ...base, ...extra });
      const b = await one('sd', { ...base, ...extra });
      expect(meanAbsDiff(a, b)).toBe(0);
      expect(meanAbsDiff(a, plain), JSON.stringify(extra)).toBeGreaterThan(1);
    }
  });

  it('the refiner sharpens, more so with a smaller high_noise_frac', async () => {
    const prompt = 'city skyline, buildings';
    const plain = await one('sdxl', { prompt, seed: 15, steps: 60 });
    const refined = await one('sdxl', { prompt, seed: 15, steps: 60, use_refiner: true, high_noise_frac: 0.8 });
    const strong = await one('sdxl', { prompt, seed: 15, steps: 60, use_refiner: true, high_noise_frac: 0.3 });
    expect(meanAbsDiff(plain, refined)).toBeGreaterThan(0.5);
    expect(highFrequency(strong)).toBeGreaterThan(highFrequency(refined));
  });
});

describe('latency and abort', () => {
  it('waits steps x stepDelayMs per image', async () => {
    const started = performance.now();
    await generateImages(resolved('sd', { prompt: 'a', seed: 1, steps: 10, num_images: 2 }), { stepDelayMs: 5 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('rejects with an AbortError when aborted during the simulated latency', async () => {
    const controller = new AbortController();
    const pending = generateImages(resolved('sd', { prompt: 'a', seed: 1, steps: 50 }), { signal: controller.signal, stepDelayMs: 20 });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects at once when the signal is already aborted', async () => {
    await expect(generateImages(resolved('sd', { prompt: 'a', seed: 1 }), { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
