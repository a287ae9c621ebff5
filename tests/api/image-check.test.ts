/**
 * The check of generated images: real JPEG, PNG and WebP files (made with sharp) pass with the
 * size their header gives; random bytes, bad base64 and files cut short fail, saying what arrived.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkImageResponse, ImageResponseError, inspectImage } from '../../api/image-check';

const files: Record<'jpeg' | 'png' | 'webp' | 'webpLossless' | 'gif', Buffer> = {} as never;
beforeAll(async () => {
  // Noise, so the scan data (after the header) is kilobytes long too.
  const noise = Buffer.alloc(96 * 64 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const make = () => sharp(noise, { raw: { width: 96, height: 64, channels: 3 } });
  // EXIF and an ICC profile put APP segments (kilobytes of them) between SOI and the frame header.
  files.jpeg = await make().withMetadata({ exif: { IFD0: { ImageDescription: 'x'.repeat(5000) } } }).jpeg({ quality: 80 }).toBuffer();
  files.png = await make().png().toBuffer();
  files.webp = await make().webp({ quality: 70 }).toBuffer();
  files.webpLossless = await make().webp({ lossless: true }).toBuffer();
  files.gif = await make().gif().toBuffer();
});

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('inspectImage', () => {
  it('reads the format, width, height and size of whole JPEG, PNG and WebP files', () => {
    expect(inspectImage(b64(files.jpeg))).toEqual({ ok: true, facts: { format: 'jpeg', width: 96, height: 64, bytes: files.jpeg.length } });
    expect(inspectImage(b64(files.png))).toEqual({ ok: true, facts: { format: 'png', width: 96, height: 64, bytes: files.png.length } });
    expect(inspectImage(b64(files.webp))).toEqual({ ok: true, facts: { format: 'webp', width: 96, height: 64, bytes: files.webp.length } });
    expect(inspectImage(b64(files.webpLossless))).toMatchObject({ ok: true, facts: { format: 'webp', width: 96, height: 64 } });
  });

  it('names random bytes as not an image, with their size and first bytes', () => {
    const random = Buffer.alloc(4096);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761 + 0x3f) >>> 24;
    random[0] = 0x3f;
    random[1] = 0x2a;
    expect(inspectImage(b64(random))).toEqual({ ok: false, problem: expect.stringMatching(/^is not a JPEG\/PNG\/WebP: 4,096 bytes starting 3f 2a( [0-9a-f]{2}){6} …$/) as unknown });
  });

  it('refuses base64 that is not strict: other characters, URL-safe, line breaks, a missing pad', () => {
    const good = b64(files.png);
    expect(inspectImage('not base64 at all!')).toMatchObject({ ok: false, problem: expect.stringMatching(/^is not valid base64 \(a " " at character 4\): 18 characters starting "not base64 a"$/) as unknown });
    expect(inspectImage(good.replace(/\+/g, '-').replace(/\//g, '_'))).toMatchObject({ ok: false, problem: expect.stringContaining('is not valid base64') as unknown });
    expect(inspectImage(`${good.slice(0, 76)}\n${good.slice(76)}`)).toMatchObject({ ok: false, problem: expect.stringContaining('"\\n" at character 77') as unknown });
    expect(inspectImage(good.replace(/=+$/, '').slice(0, -1))).toMatchObject({ ok: false, problem: expect.stringContaining('not whole groups of four') as unknown });
    expect(inspectImage('')).toEqual({ ok: false, problem: 'is empty' });
  });

  it('finds a JPEG cut short (no EOI) and one whose frame header never comes', () => {
    const cut = files.jpeg.subarray(0, files.jpeg.length - 200);
    expect(inspectImage(b64(cut))).toEqual({ ok: false, problem: `is a truncated JPEG (${cut.length.toLocaleString('en-US')} bytes: no end-of-image marker at its end)` });
    // Cut inside the EXIF segment, before the frame header.
    expect(inspectImage(b64(files.jpeg.subarray(0, 3000)))).toMatchObject({ ok: false, problem: expect.stringContaining('is a truncated JPEG (3,000 bytes: it ends inside its header') as unknown });
    // SOI, a comment, then straight to the scan: no SOF.
    const noFrame = Buffer.from([0xff, 0xd8, 0xff, 0xfe, 0, 4, 0x68, 0x69, 0xff, 0xda, 0, 2, 0x11, 0x22, 0xff, 0xd9]);
    expect(inspectImage(b64(noFrame))).toMatchObject({ ok: false, problem: expect.stringContaining('is a broken JPEG (16 bytes: no frame header (SOF)') as unknown });
  });

  it('finds a PNG without IEND or IHDR, and a WebP shorter than its RIFF header says', () => {
    expect(inspectImage(b64(files.png.subarray(0, files.png.length - 5)))).toMatchObject({ ok: false, problem: expect.stringContaining('is a truncated PNG') as unknown });
    const noHeader = Buffer.from(files.png);
    noHeader.write('IHDX', 12, 'latin1');
    expect(inspectImage(b64(noHeader))).toMatchObject({ ok: false, problem: expect.stringContaining('is a broken PNG') as unknown });
    const cut = files.webp.subarray(0, files.webp.length - 10);
    expect(inspectImage(b64(cut))).toEqual({ ok: false, problem: `is a truncated WebP (${cut.length.toLocaleString('en-US')} bytes: its RIFF header says ${files.webp.length.toLocaleString('en-US')})` });
  });

  it('names an image of another format', () => {
    expect(inspectImage(b64(files.gif))).toMatchObject({ ok: false, problem: expect.stringMatching(/^is a GIF, not a JPEG\/PNG\/WebP: [\d,]+ bytes starting 47 49 46 38/) as unknown });
  });
});

describe('checkImageResponse', () => {
  it('passes sound images with their facts, and fails on the first bad one naming it and who answered', () => {
    expect(checkImageResponse({ images: [{ image_b64: b64(files.jpeg) }, { image_b64: b64(files.png) }] }, 'the sdxl engine').map((f) => f.format)).toEqual(['jpeg', 'png']);
    const cut = b64(files.jpeg.subarray(0, files.jpeg.length - 100));
    const attempt = () => checkImageResponse({ images: [{ image_b64: b64(files.jpeg) }, { image_b64: cut }] }, 'ComfyUI');
    expect(attempt).toThrow(ImageResponseError);
    expect(attempt).toThrow(/^ComfyUI answered HTTP 200 but image 2 is a truncated JPEG \(/);
  });
});
