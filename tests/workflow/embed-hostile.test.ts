/**
 * Images from anyone: cut, damaged, lying about lengths, missing pieces. Reading gives the
 * workflow, nothing, or an ImageEmbedError saying what is wrong; never a hang, never another error.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageEmbedError, crc32, embedWorkflow, extractWorkflow } from '../../workflow/embed';

const base = async (format: 'jpeg' | 'png') => {
  const img = sharp({ create: { width: 40, height: 30, channels: 3, background: '#8a4' } });
  return new Uint8Array(await (format === 'jpeg' ? img.jpeg() : img.png()).toBuffer());
};

/** Runs `extractWorkflow` and says how it ended, failing the test on any error but ImageEmbedError. */
function outcome(bytes: Uint8Array): { workflow?: string; error?: string; none?: true } {
  try {
    const out = extractWorkflow(bytes);
    return out?.workflow === undefined ? { none: true } : { workflow: out.workflow };
  } catch (error) {
    if (!(error instanceof ImageEmbedError)) throw error;
    return { error: error.message };
  }
}

/** An Atelier APP9 segment written by hand, to say what a real writer never would. */
function segment(o: { part?: number; index: number; count: number; total: number; data: Uint8Array; version?: number }): Uint8Array {
  const payload = new Uint8Array(18 + o.data.length);
  payload.set(new TextEncoder().encode('ATELIER\0'), 0);
  payload[8] = o.version ?? 1;
  payload[9] = o.part ?? 0x57;
  new DataView(payload.buffer).setUint16(10, o.index);
  new DataView(payload.buffer).setUint16(12, o.count);
  new DataView(payload.buffer).setUint32(14, o.total);
  payload.set(o.data, 18);
  const out = new Uint8Array(4 + payload.length);
  out.set([0xff, 0xe9, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
  out.set(payload, 4);
  return out;
}

const withSegments = (jpeg: Uint8Array, ...segments: Uint8Array[]) => Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
const text = (s: string) => new TextEncoder().encode(s);

/** Positions of the Atelier segments in a JPEG: [start, end) of each. */
function atelierSegments(bytes: Uint8Array): [number, number][] {
  const found: [number, number][] = [];
  for (let at = 2; bytes[at + 1] !== 0xda;) {
    const end = at + 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
    if (bytes[at + 1] === 0xe9) found.push([at, end]);
    at = end;
  }
  return found;
}

describe('reading a damaged JPEG', () => {
  it('says which piece is missing when a segment was removed', async () => {
    const embedded = embedWorkflow(await base('jpeg'), 'image/jpeg', { workflow: 'w'.repeat(200_000) });
    const [, second] = atelierSegments(embedded);
    const damaged = Buffer.concat([embedded.subarray(0, second![0]), embedded.subarray(second![1])]);
    expect(outcome(damaged)).toEqual({ error: "the image's workflow is incomplete: piece 2 of 4 is missing" });
  });

  it('gives the workflow, nothing or an error for every cut of the file, and the workflow once its segments are whole', async () => {
    const workflow = JSON.stringify({ pad: 'p'.repeat(140_000) });
    const embedded = embedWorkflow(await base('jpeg'), 'image/jpeg', { workflow, manifest: { seed: 3 } });
    const lastOurs = atelierSegments(embedded).at(-1)![1];
    for (let cut = 0; cut <= embedded.length; cut += 331) {
      const result = outcome(embedded.subarray(0, cut));
      if (cut >= lastOurs) expect(result).toEqual({ workflow });
      else expect(result.workflow).toBeUndefined();
      // Once the first segment's name is in, the reader knows something of Atelier's was cut.
      if (cut > 30 && cut < lastOurs) expect(result.error).toMatch(/incomplete/);
    }
  });

  it('checks the pieces against each other', async () => {
    const jpeg = await base('jpeg');
    const piece = (index: number, count: number, total: number, data = text('abcd')) => segment({ index, count, total, data });
    expect(outcome(withSegments(jpeg, piece(0, 2, 8), piece(1, 3, 8))).error).toMatch(/pieces disagree on its size/);
    expect(outcome(withSegments(jpeg, piece(0, 2, 8), piece(0, 2, 8))).error).toMatch(/piece 1 of 2 appears twice/);
    expect(outcome(withSegments(jpeg, piece(0, 0, 4))).error).toMatch(/damaged: piece 1 of 0/);
    expect(outcome(withSegments(jpeg, piece(5, 2, 8))).error).toMatch(/damaged: piece 6 of 2/);
    expect(outcome(withSegments(jpeg, piece(0, 2, 9), piece(1, 2, 9))).error).toMatch(/hold 8 bytes, it announces 9/);
    expect(outcome(withSegments(jpeg, piece(0, 1, 4), piece(0, 1, 4))).error).toMatch(/appears twice/);
    expect(outcome(withSegments(jpeg, piece(0, 1, 4, new Uint8Array([0xc3, 0x28, 0x41, 0x42])))).error).toMatch(/not valid UTF-8/);
    expect(outcome(withSegments(jpeg, piece(0, 1, 4)))).toEqual({ workflow: 'abcd' });
  });

  it('refuses a claimed size past the cap before allocating it', async () => {
    const result = outcome(withSegments(await base('jpeg'), segment({ index: 0, count: 1, total: 0xffffffff, data: text('x') })));
    expect(result.error).toMatch(/4096\.0 MB, more than the 50\.0 MB/);
  });

  it('tells a newer layout from damage, and skips parts it does not know', async () => {
    const jpeg = await base('jpeg');
    expect(outcome(withSegments(jpeg, segment({ index: 0, count: 1, total: 1, data: text('x'), version: 2 }))).error)
      .toMatch(/written by a newer Atelier \(layout 2\)/);
    const unknownPart = segment({ part: 0x58, index: 0, count: 1, total: 1, data: text('?') });
    expect(outcome(withSegments(jpeg, unknownPart, segment({ index: 0, count: 1, total: 2, data: text('{}') })))).toEqual({ workflow: '{}' });
    const short = Uint8Array.from([0xff, 0xe9, 0, 12, ...text('ATELIER\0'), 1, 0x57]);
    expect(outcome(withSegments(jpeg, short)).error).toMatch(/an Atelier segment at byte 2 is too short to be read/);
  });

  it('keeps the workflow when only the manifest is damaged', async () => {
    const jpeg = await base('jpeg');
    const workflow = segment({ index: 0, count: 1, total: 2, data: text('{}') });
    const manifest = segment({ part: 0x4d, index: 0, count: 1, total: 5, data: text('{nope') });
    expect(extractWorkflow(withSegments(jpeg, workflow, manifest))).toEqual({ workflow: '{}', manifestProblem: "the image's manifest is damaged: it is not JSON" });
    const list = segment({ part: 0x4d, index: 0, count: 1, total: 2, data: text('[]') });
    expect(extractWorkflow(withSegments(jpeg, workflow, list))?.manifestProblem).toMatch(/not a JSON object/);
  });

  it('survives impossible lengths, endless fill bytes and random damage', async () => {
    const lies = [
      new Uint8Array([0xff, 0xd8, 0xff, 0xe9, 0xff, 0xff, 0x41]),
      new Uint8Array([0xff, 0xd8, 0xff, 0xe9, 0x00, 0x01]),
      new Uint8Array([0xff, 0xd8, ...new Array<number>(100_000).fill(0xff)]),
      new Uint8Array([0xff, 0xd8, 0xff, 0x00, 0xff, 0xd8]),
    ];
    for (const bytes of lies) {
      expect(outcome(bytes)).toEqual({ none: true });
      expect(() => embedWorkflow(bytes, 'image/jpeg', { workflow: '{}' })).toThrow(ImageEmbedError);
    }
    const embedded = embedWorkflow(await base('jpeg'), 'image/jpeg', { workflow: 'z'.repeat(70_000), manifest: { a: 1 } });
    let seed = 7;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const damaged = Uint8Array.from(embedded);
      for (let k = 0; k < 1 + random(4); k++) damaged[random(800)] = random(256);
      outcome(damaged);
      try {
        embedWorkflow(damaged, 'image/jpeg', { workflow: '{}' });
      } catch (error) {
        expect(error).toBeInstanceOf(ImageEmbedError);
      }
    }
  });
});

/** A PNG chunk written by hand, with a correct CRC unless told otherwise. */
function chunk(type: string, data: Uint8Array, crc?: number): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc ?? crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const itxt = (keyword: string, body: string, compressed = 0) => Buffer.concat([Buffer.from(`${keyword}\0`, 'latin1'), Buffer.from([compressed, 0, 0, 0]), Buffer.from(body)]);
const beforeIend = (png: Uint8Array, ...chunks: Uint8Array[]) => Buffer.concat([png.subarray(0, png.length - 12), ...chunks, png.subarray(png.length - 12)]);

describe('reading a damaged PNG', () => {
  it('verifies the CRC of its chunks', async () => {
    const png = await base('png');
    expect(outcome(beforeIend(png, chunk('iTXt', itxt('atelier-workflow', '{}'), 0x12345678)))).toEqual({
      error: "the image's workflow is damaged: the atelier-workflow chunk fails its checksum",
    });
    // A damaged chunk of someone else's is not Atelier's business.
    expect(outcome(beforeIend(png, chunk('tEXt', Buffer.from('a\0b'), 1), chunk('iTXt', itxt('atelier-workflow', '{}'))))).toEqual({ workflow: '{}' });
  });

  it('says what is wrong with a chunk it cannot read', async () => {
    const png = await base('png');
    expect(outcome(beforeIend(png, chunk('iTXt', itxt('atelier-workflow', 'x', 1)))).error).toMatch(/compressed by another program/);
    expect(outcome(beforeIend(png, chunk('iTXt', Buffer.from('atelier-workflow\0\0\0lang'))))).toEqual({ error: "the image's workflow is damaged: the atelier-workflow chunk is cut short" });
    const twice = chunk('iTXt', itxt('atelier-workflow', '{}'));
    expect(outcome(beforeIend(png, twice, twice)).error).toMatch(/piece 1 of 1 appears twice/);
    const embedded = embedWorkflow(png, 'image/png', { workflow: '{"a":1}' });
    expect(outcome(embedded.subarray(0, embedded.length - 20))).toEqual({ error: "the image's workflow is incomplete: the file is cut short" });
  });

  it('refuses a chunk past the cap, and survives lying lengths', async () => {
    const png = await base('png');
    const huge = new Uint8Array(50 * 1024 * 1024 + 200);
    huge.set(Buffer.from('atelier-workflow\0\0\0\0\0', 'latin1'));
    expect(outcome(beforeIend(png, chunk('iTXt', huge, 0))).error).toMatch(/more than Atelier reads from an image/);

    const lying = Buffer.concat([png.subarray(0, 33), Buffer.from([0xff, 0xff, 0xff, 0xff]), Buffer.from('iTXt', 'latin1'), Buffer.alloc(40)]);
    expect(outcome(lying)).toEqual({ none: true });
    expect(() => embedWorkflow(lying, 'image/png', { workflow: '{}' })).toThrow('claims an impossible length');
    const notAType = Buffer.concat([png.subarray(0, 33), Buffer.from([0, 0, 0, 1, 0x31, 0x32, 0x33, 0x34, 0])]);
    expect(outcome(notAType)).toEqual({ none: true });
    expect(() => embedWorkflow(notAType, 'image/png', { workflow: '{}' })).toThrow('no chunk type at byte 37');
  });

  it('gives the workflow, nothing or an error for every cut of the file', async () => {
    const embedded = embedWorkflow(await base('png'), 'image/png', { workflow: '{"w":1}', manifest: { m: 1 } });
    for (let cut = 0; cut <= embedded.length; cut++) {
      const result = outcome(embedded.subarray(0, cut));
      if (result.workflow !== undefined) expect(result.workflow).toBe('{"w":1}');
    }
    expect(outcome(embedded.subarray(0, embedded.length - 12))).toEqual({ workflow: '{"w":1}' });
  });
});
