/** The mask conversion reads every kind of PNG a person's tools write, and JPEG, as sharp reads them. */
import { encode } from 'fast-png';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageCodec } from '../../../api/backends/openai/codec';
import { toOpenAIMask } from '../../../api/backends/openai/mask';
import { alphaOf } from './helpers';

/** White where x is even, black where odd: every column differs from its neighbour. */
const stripes = (width: number, height: number) => {
  const rgb = Buffer.alloc(width * height * 3);
  for (let p = 0; p < width * height; p++) if ((p % width) % 2 === 0) rgb.fill(255, p * 3, p * 3 + 3);
  return sharp(rgb, { raw: { width, height, channels: 3 } });
};

/** What sharp sees: luminance 0..255 per pixel, alpha folded in. */
async function sharpCoverage(bytes: Uint8Array): Promise<number[]> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const out: number[] = [];
  for (let i = 0; i < info.width * info.height; i++) {
    const [r, g, b, a] = [data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!, data[i * 4 + 3]!];
    out.push(Math.round((0.299 * r + 0.587 * g + 0.114 * b) * (a / 255)));
  }
  return out;
}

describe('mask decoding', () => {
  const cases: [string, () => Promise<Uint8Array>][] = [
    ['8-bit RGB', async () => stripes(10, 3).png().toBuffer()],
    ['1-bit palette', async () => stripes(10, 3).png({ palette: true, colours: 2 }).toBuffer()],
    ['16-bit RGB', async () => stripes(10, 3).toColourspace('rgb16').png().toBuffer()],
    ['8-bit grey', async () => stripes(10, 3).toColourspace('b-w').png().toBuffer()],
    ['1-bit grey', () => Promise.resolve(encode({ width: 10, height: 2, depth: 1, channels: 1, data: new Uint8Array([0b10101010, 0b10000000, 0b10101010, 0b10000000]) }))],
  ];
  for (const [name, make] of cases) {
    it(`reads a ${name} PNG as sharp does`, async () => {
      const bytes = await make();
      const coverage = await imageCodec.coverage(bytes, 'png');
      expect([...coverage.values]).toEqual(await sharpCoverage(bytes));
    });
  }

  it('reads transparent white in a PNG with alpha as "keep"', async () => {
    const rgba = Buffer.from([255, 255, 255, 255, 255, 255, 255, 0]);
    const bytes = await sharp(rgba, { raw: { width: 2, height: 1, channels: 4 } }).png().toBuffer();
    expect([...(await imageCodec.coverage(bytes, 'png')).values]).toEqual([255, 0]);
  });

  it('writes OpenAI\'s mask: transparent where white, opaque elsewhere, scaled to the image with hard edges', async () => {
    const jpeg = await stripes(4, 2).resize(40, 20, { kernel: 'nearest' }).jpeg({ quality: 95 }).toBuffer();
    const mask = await alphaOf(Buffer.from(await toOpenAIMask(jpeg, 'jpeg', { width: 8, height: 4 })));
    expect([mask.width, mask.height]).toEqual([8, 4]);
    expect([...mask.alpha.subarray(0, 8)]).toEqual([0, 0, 255, 255, 0, 0, 255, 255]);
    expect(new Set(mask.alpha)).toEqual(new Set([0, 255]));
  });
});
