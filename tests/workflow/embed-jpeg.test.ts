/** Workflows embedded in real JPEGs (made and decoded with sharp): round trips, splitting, replacement. */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageEmbedError, embedWorkflow, extractWorkflow } from '../../workflow/embed';

/** Noise from a fixed seed: compresses like a photo, not like a flat colour. */
function noise(width: number, height: number, seed = 1): Buffer {
  const out = Buffer.alloc(width * height * 3);
  let s = seed;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    out[i] = (s >>> 16) & 0xff;
  }
  return out;
}

async function jpeg(options: { width?: number; height?: number; exif?: boolean; progressive?: boolean } = {}): Promise<Uint8Array> {
  const { width = 96, height = 64 } = options;
  let img = sharp(noise(width, height), { raw: { width, height, channels: 3 } });
  if (options.exif) img = img.withExif({ IFD0: { Copyright: 'Atelier tests', Artist: 'someone' } });
  return new Uint8Array(await img.jpeg({ quality: 85, progressive: options.progressive ?? false }).toBuffer());
}

const pixels = async (bytes: Uint8Array) => sharp(Buffer.from(bytes)).raw().toBuffer({ resolveWithObject: true });

/** Markers of the segments before the first scan, in order (0xe0 for APP0…). */
function headerMarkers(bytes: Uint8Array): number[] {
  const markers: number[] = [];
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at + 1] !== 0xda) {
    markers.push(bytes[at + 1]!);
    at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  }
  return markers;
}

/** Everything from the first SOS (start of scan) to the end: the compressed image itself. */
function scanData(bytes: Uint8Array): Uint8Array {
  let at = 2;
  while (bytes[at + 1] !== 0xda) at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  return bytes.subarray(at);
}

const ATELIER_APP = 0xe9;
const workflowText = (chars: number) => JSON.stringify({ format: 'atelier.workflow', pad: 'é✓'.repeat(Math.ceil(chars / 2)).slice(0, chars) });

describe('embedding in a JPEG', () => {
  it('round-trips the workflow and the manifest without touching the image', async () => {
    const original = await jpeg();
    const workflow = workflowText(3000);
    const manifest = { format: 'atelier.image-manifest', seed: 42, node: { id: 't2i', type: 'text-to-image' } };
    const embedded = embedWorkflow(original, 'image/jpeg', { workflow, manifest });

    expect(extractWorkflow(embedded)).toEqual({ workflow, manifest });
    expect(Buffer.from(scanData(embedded)).equals(Buffer.from(scanData(original)))).toBe(true);
    const [before, after] = await Promise.all([pixels(original), pixels(embedded)]);
    expect(after.info).toMatchObject({ width: 96, height: 64, channels: 3 });
    expect(after.data.equals(before.data)).toBe(true);
  });

  it('keeps JFIF and Exif first and puts its segments right after them', async () => {
    const original = await jpeg({ exif: true });
    const embedded = embedWorkflow(original, 'image/jpeg', { workflow: '{}' });
    const before = headerMarkers(original);
    const after = headerMarkers(embedded);
    const leading = before.findIndex((m) => m !== 0xe0 && m !== 0xe1);
    expect(before.slice(0, leading)).toContain(0xe1);
    expect(after).toEqual([...before.slice(0, leading), ATELIER_APP, ...before.slice(leading)]);
    const meta = await sharp(Buffer.from(embedded)).metadata();
    expect(meta.exif).toEqual((await sharp(Buffer.from(original)).metadata()).exif);
  });

  it('splits a workflow over 64 KB across segments and puts it back together', async () => {
    const original = await jpeg({ progressive: true });
    const workflow = workflowText(300_000);
    const embedded = embedWorkflow(original, 'image/jpeg', { workflow, manifest: { seed: 1 } });
    const segments = headerMarkers(embedded).filter((m) => m === ATELIER_APP).length;
    // 300 000 characters of 'é✓' are about 750 KB of UTF-8: twelve segments, plus the manifest's one.
    expect(segments).toBe(Math.ceil(new TextEncoder().encode(workflow).length / 65515) + 1);
    expect(segments).toBeGreaterThan(10);
    expect(extractWorkflow(embedded)?.workflow).toBe(workflow);
    expect((await pixels(embedded)).data.equals((await pixels(original)).data)).toBe(true);
  });

  it('replaces what it embedded before instead of stacking it', async () => {
    const original = await jpeg({ exif: true });
    const first = embedWorkflow(original, 'image/jpeg', { workflow: workflowText(200_000), manifest: { run: 1 } });
    const second = embedWorkflow(first, 'image/jpeg', { workflow: '{"run":2}', manifest: { run: 2 } });
    expect(extractWorkflow(second)).toEqual({ workflow: '{"run":2}', manifest: { run: 2 } });
    expect(headerMarkers(second).filter((m) => m === ATELIER_APP)).toHaveLength(2);
    // The same bytes as embedding the second workflow in the untouched original.
    expect(Buffer.from(second).equals(Buffer.from(embedWorkflow(original, 'image/jpeg', { workflow: '{"run":2}', manifest: { run: 2 } })))).toBe(true);
    // A re-embed without a manifest leaves none behind from before.
    expect(extractWorkflow(embedWorkflow(first, 'image/jpeg', { workflow: '{}' }))).toEqual({ workflow: '{}' });
  });

  it('finds nothing in a plain JPEG, and refuses what is not a JPEG', async () => {
    const original = await jpeg();
    expect(extractWorkflow(original)).toBeUndefined();
    expect(extractWorkflow(new Uint8Array([1, 2, 3]))).toBeUndefined();
    expect(extractWorkflow(new Uint8Array())).toBeUndefined();
    expect(() => embedWorkflow(original, 'image/png', { workflow: '{}' })).toThrow('said to be image/png but its bytes are a JPEG');
    expect(() => embedWorkflow(original, 'image/webp', { workflow: '{}' })).toThrow('JPEG and PNG images, not in image/webp');
    expect(() => embedWorkflow(original, 'image/jpeg', { workflow: '' })).toThrow('no workflow');
    expect(() => embedWorkflow(original.subarray(0, 40), 'image/jpeg', { workflow: '{}' })).toThrow(ImageEmbedError);
  });

  it('refuses a workflow bigger than an image may carry', async () => {
    const original = await jpeg();
    expect(() => embedWorkflow(original, 'image/jpeg', { workflow: 'x'.repeat(50 * 1024 * 1024 + 1) })).toThrow(/50\.0 MB an image can carry/);
  });

  it('writes the manifest without any URL or credential even when handed one', async () => {
    const manifest = { note: 'sent to https://api.example.com/generate with Bearer abcdefghijklmnop1234', api_key: 'x', baseUrl: 'https://x' };
    const out = extractWorkflow(embedWorkflow(await jpeg(), 'image/jpeg', { workflow: '{}', manifest }));
    expect(out?.manifest).toEqual({ note: 'sent to [url removed] with [removed]' });
  });
});
