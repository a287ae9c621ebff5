/** Workflows embedded in real PNGs (made and decoded with sharp): iTXt chunks, CRCs, replacement. */
import { createHash } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { crc32, embedWorkflow, extractWorkflow, sha256Hex } from '../../workflow/embed';

async function png(): Promise<Uint8Array> {
  const width = 80;
  const height = 50;
  const raw = Buffer.alloc(width * height * 4);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 31 + (i >> 7) * 17) & 0xff;
  const img = sharp(raw, { raw: { width, height, channels: 4 } }).withMetadata({ density: 144 });
  return new Uint8Array(await img.png().toBuffer());
}

interface Chunk { type: string; data: Buffer; crc: number }

function chunks(bytes: Uint8Array): Chunk[] {
  const buf = Buffer.from(bytes);
  const out: Chunk[] = [];
  for (let at = 8; at < buf.length;) {
    const length = buf.readUInt32BE(at);
    out.push({ type: buf.toString('latin1', at + 4, at + 8), data: buf.subarray(at + 8, at + 8 + length), crc: buf.readUInt32BE(at + 8 + length) });
    at += 12 + length;
  }
  return out;
}

const keyword = (c: Chunk) => c.data.toString('latin1', 0, c.data.indexOf(0));
const pixels = async (bytes: Uint8Array) => sharp(Buffer.from(bytes)).raw().toBuffer({ resolveWithObject: true });

describe('CRC-32 and SHA-256', () => {
  it('match node:zlib and node:crypto', () => {
    const samples = [new Uint8Array(), new TextEncoder().encode('IEND'), new Uint8Array(100_003).map((_, i) => (i * 7) & 0xff)];
    // Every PNG's IEND chunk ends with this CRC.
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
    for (const bytes of samples) {
      expect(crc32(bytes)).toBe(zlibCrc32(bytes));
      expect(sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    // Lengths around the 55/56/64-byte padding boundaries.
    for (const n of [55, 56, 63, 64, 65, 119, 120]) {
      const bytes = new Uint8Array(n).fill(0x61);
      expect(sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });
});

describe('embedding in a PNG', () => {
  it('round-trips in iTXt chunks before IEND, pixels and other chunks untouched', async () => {
    const original = await png();
    const workflow = JSON.stringify({ format: 'atelier.workflow', title: 'Café ✓ 日本' });
    const manifest = { seed: 7, engine: 'sdxl' };
    const embedded = embedWorkflow(original, 'image/png', { workflow, manifest });
    expect(extractWorkflow(embedded)).toEqual({ workflow, manifest });

    const before = chunks(original);
    const after = chunks(embedded);
    expect(after.map((c) => c.type)).toEqual([...before.slice(0, -1).map((c) => c.type), 'iTXt', 'iTXt', 'IEND']);
    const ours = after.filter((c) => c.type === 'iTXt');
    expect(ours.map(keyword)).toEqual(['atelier-workflow', 'atelier-manifest']);
    for (const c of after) expect(c.crc).toBe(crc32(Buffer.concat([Buffer.from(c.type, 'latin1'), c.data])));
    // Uncompressed UTF-8 after keyword, flags and two empty strings.
    expect(ours[0]!.data.subarray('atelier-workflow'.length + 5).toString('utf8')).toBe(workflow);
    before.slice(0, -1).forEach((c, i) => expect(after[i]!.data.equals(c.data)).toBe(true));

    const [a, b] = await Promise.all([pixels(original), pixels(embedded)]);
    expect(b.info).toMatchObject({ width: 80, height: 50, channels: 4 });
    expect(b.data.equals(a.data)).toBe(true);
  });

  it('carries a workflow over 64 KB in one chunk', async () => {
    const workflow = JSON.stringify({ pad: 'a'.repeat(500_000) });
    const embedded = embedWorkflow(await png(), 'image/png', { workflow });
    expect(extractWorkflow(embedded)).toEqual({ workflow });
    expect((await sharp(Buffer.from(embedded)).metadata()).width).toBe(80);
  });

  it('replaces what it embedded before, and keeps other text chunks', async () => {
    const original = await png();
    // Another program's tEXt chunk (ComfyUI writes 'workflow' like this): ours never touch it.
    const foreignData = Buffer.from('workflow\0{"comfy":true}', 'latin1');
    const foreign = Buffer.alloc(12 + foreignData.length);
    foreign.writeUInt32BE(foreignData.length, 0);
    foreign.write('tEXt', 4, 'latin1');
    foreignData.copy(foreign, 8);
    foreign.writeUInt32BE(crc32(foreign.subarray(4, 8 + foreignData.length)), 8 + foreignData.length);
    const iendAt = original.length - 12;
    const withForeign = Buffer.concat([original.subarray(0, iendAt), foreign, original.subarray(iendAt)]);

    const first = embedWorkflow(withForeign, 'image/png', { workflow: '{"v":1}', manifest: { v: 1 } });
    const second = embedWorkflow(first, 'image/png', { workflow: '{"v":2}' });
    expect(extractWorkflow(second)).toEqual({ workflow: '{"v":2}' });
    const kept = chunks(second).filter((c) => c.type === 'tEXt' || c.type === 'iTXt');
    expect(kept.map((c) => [c.type, keyword(c)])).toEqual([['tEXt', 'workflow'], ['iTXt', 'atelier-workflow']]);
  });

  it('finds nothing in a plain PNG, and refuses a PNG without IEND', async () => {
    const original = await png();
    expect(extractWorkflow(original)).toBeUndefined();
    expect(() => embedWorkflow(original.subarray(0, original.length - 12), 'image/png', { workflow: '{}' })).toThrow('the PNG cannot be read: the file ends before its IEND chunk');
    expect(() => embedWorkflow(original, 'image/jpeg', { workflow: '{}' })).toThrow('said to be image/jpeg but its bytes are a PNG');
  });
});
