import { decode as decodePng, encode as encodePng } from 'fast-png';
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { contactSheetNode as node } from '../../nodes/contact-sheet';
import { ParamIssuesError } from '../../nodes/errors';
import { drawable, glyphPixel, wrapText } from '../../nodes/sheet/font';
import { layoutSheet } from '../../nodes/sheet/make-sheet';
import type { ImageData } from '../../nodes/types';
import { imagesValue, textsValue } from '../../nodes/values';
import { fakeContext } from './fakes';

type Rgb = [number, number, number];

/** A flat PNG of one colour (with an alpha channel, to check transparency goes over the background). */
function png(width: number, height: number, [r, g, b]: Rgb, alpha = 255): ImageData {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([r, g, b, alpha], i);
  return { b64: Buffer.from(encodePng({ width, height, data, channels: 4, depth: 8 })).toString('base64'), mime: 'image/png', width, height };
}

function jpg(width: number, height: number, [r, g, b]: Rgb): ImageData {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([r, g, b, 255], i);
  return { b64: jpeg.encode({ data, width, height }, 95).data.toString('base64'), mime: 'image/jpeg', width, height };
}

function pixels(image: ImageData) {
  const decoded = decodePng(Buffer.from(image.b64, 'base64'));
  const at = (x: number, y: number): Rgb => {
    const i = (y * decoded.width + x) * decoded.channels;
    return [decoded.data[i]!, decoded.data[i + 1]!, decoded.data[i + 2]!];
  };
  return { ...decoded, at };
}

const near = (a: Rgb, b: Rgb, tolerance = 6) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);
const DARK: Rgb = [30, 30, 46];
const TEXT: Rgb = [205, 214, 244];
const parse = (params: unknown) => node.params.parse(params);

describe('Contact sheet', () => {
  it('tiles PNG and JPEG images in a square-ish grid, each fitted to its cell and centred', async () => {
    const images = [png(200, 100, [255, 0, 0]), jpg(64, 64, [0, 0, 255]), png(100, 200, [0, 255, 0], 0)];
    const out = await node.run({ params: parse({ cell_size: 64, gap: 4 }), inputs: { images: imagesValue(images) }, ctx: fakeContext() });
    const sheet = out.image!;
    expect(sheet.kind).toBe('image');
    const value = (sheet as { value: ImageData }).value;
    expect(value).toMatchObject({ mime: 'image/png', width: 4 + 2 * 68, height: 4 + 2 * 68 });
    const p = pixels(value);
    expect([p.width, p.height]).toEqual([140, 140]);
    // Red, 2:1, across the first cell's middle; the band above it is background.
    expect(near(p.at(4 + 32, 4 + 32), [255, 0, 0])).toBe(true);
    expect(near(p.at(4 + 32, 4 + 4), DARK)).toBe(true);
    expect(near(p.at(72 + 32, 4 + 32), [0, 0, 255], 10)).toBe(true);
    // A fully transparent image shows the background; the fourth cell is empty.
    expect(near(p.at(4 + 32, 72 + 32), DARK)).toBe(true);
    expect(near(p.at(72 + 32, 72 + 32), DARK)).toBe(true);
  });

  it('draws each caption under its picture, and leaves pictures without one bare', async () => {
    const images = [png(32, 32, [255, 0, 0]), png(32, 32, [255, 0, 0])];
    const ctx = fakeContext();
    const out = await node.run({
      params: parse({ cell_size: 192, gap: 8, columns: 2 }), inputs: { images: imagesValue(images), captions: textsValue(['A fox']) }, ctx,
    });
    const p = pixels((out.image as { value: ImageData }).value);
    const layout = layoutSheet(2, true, { columns: 2, cellSize: 192, gap: 8, background: 'dark' }, 192);
    expect([p.width, p.height]).toEqual([layout.width, layout.height]);
    const band = (left: number) => {
      let lit = 0;
      for (let y = 8 + 192; y < 8 + 192 + layout.captionHeight; y++) for (let x = left; x < left + 192; x++) if (near(p.at(x, y), TEXT, 0)) lit++;
      return lit;
    };
    expect(band(8)).toBeGreaterThan(20);
    expect(band(8 + 200)).toBe(0);
    expect(ctx.progressMessages.at(-1)).toBe(`${layout.width}×${layout.height}; 1 without a caption`);
  });

  it('makes cells only as tall as the tallest picture needs, so landscape pictures leave no bands', async () => {
    const wide = [png(300, 150, [0, 200, 0]), png(200, 100, [0, 200, 0])];
    const out = await node.run({ params: parse({ cell_size: 100, gap: 0, columns: 2 }), inputs: { images: imagesValue(wide) }, ctx: fakeContext() });
    expect((out.image as { value: ImageData }).value).toMatchObject({ width: 200, height: 50 });
    // A picture whose size is not known gets a square cell.
    const unknown = [{ ...png(300, 150, [0, 200, 0]), width: undefined }];
    const square = await node.run({ params: parse({ cell_size: 100, gap: 0 }), inputs: { images: imagesValue(unknown) }, ctx: fakeContext() });
    expect((square.image as { value: ImageData }).value).toMatchObject({ width: 100, height: 100 });
  });

  it('makes the same bytes from the same images, so the result is cached by content', async () => {
    const inputs = { images: imagesValue([png(50, 40, [10, 200, 30]), jpg(40, 50, [200, 10, 30])]), captions: textsValue(['one', 'two']) };
    const a = await node.run({ params: parse({}), inputs, ctx: fakeContext() });
    const b = await node.run({ params: parse({}), inputs, ctx: fakeContext() });
    expect((a.image as { value: ImageData }).value.b64).toBe((b.image as { value: ImageData }).value.b64);
  });

  it('says which image it cannot read, and refuses a sheet too large, naming the field', async () => {
    const webp = { b64: Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ').toString('base64'), mime: 'image/webp' };
    await expect(node.run({ params: parse({}), inputs: { images: imagesValue([png(8, 8, [0, 0, 0]), webp]) }, ctx: fakeContext() }))
      .rejects.toThrow('image 2 of 2 is a WEBP image; the contact sheet reads PNG and JPEG');
    await expect(node.run({ params: parse({}), inputs: { images: imagesValue([]) }, ctx: fakeContext() })).rejects.toThrow('no images arrived');
    const many = Array.from({ length: 300 }, () => png(4, 4, [0, 0, 0]));
    const error = await node.run({ params: parse({ cell_size: 1024, columns: 1 }), inputs: { images: imagesValue(many) }, ctx: fakeContext() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParamIssuesError);
    expect((error as ParamIssuesError).issues[0]).toMatchObject({ param: 'cell_size', message: expect.stringContaining('would make a sheet of 1040×') as unknown });
  });
});

describe('the caption font', () => {
  it('draws printable ASCII, with accents taken off and typographic marks made plain', () => {
    expect(drawable('Café “noir” — 3×4…\n✓')).toBe('Cafe "noir" - 3x4... ?');
    // 'I' is a bar down the middle column; ' ' is empty.
    expect([0, 1, 2, 3, 4].map((x) => glyphPixel('I', x, 3))).toEqual([false, false, true, false, false]);
    expect(glyphPixel(' ', 2, 3)).toBe(false);
  });

  it('wraps at spaces, cuts a long word, and ends a caption that does not fit in "..."', () => {
    expect(wrapText('a fox in the snow', 10, 2)).toEqual(['a fox in', 'the snow']);
    expect(wrapText('abcdefghijkl', 5, 3)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapText('one two three four five six', 9, 2)).toEqual(['one two', 'three...']);
    expect(wrapText('', 9, 2)).toEqual([]);
  });
});
