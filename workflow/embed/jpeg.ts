/**
 * Atelier data in a JPEG: APP9 segments named 'ATELIER\0', placed after the JFIF/Exif headers and
 * before the image data. A segment holds at most 65533 bytes, so a part is split across several,
 * each saying which piece it is. Everything from the first scan on is copied byte for byte: the
 * image is never re-encoded.
 *
 * Segment payload: 'ATELIER\0', layout version (1 byte), part ('W' or 'M'), piece index and
 * piece count (u16 each), the part's whole length (u32), then the piece's bytes.
 */
import { type EmbedPart, ImageEmbedError, concat, readU16, readU32, writeU16, writeU32 } from './bytes';
import { PartCollector } from './parts';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
/** Little used by other software, and told apart from it by the name anyway. */
const APP_ATELIER = 0xe9;

const NAME = [0x41, 0x54, 0x45, 0x4c, 0x49, 0x45, 0x52, 0x00]; // 'ATELIER\0'
const LAYOUT_VERSION = 1;
const HEADER_BYTES = NAME.length + 1 + 1 + 2 + 2 + 4;
/** A segment's length field counts itself: 65535 - 2 bytes of payload. */
const MAX_PAYLOAD = 65533;
const MAX_PIECE = MAX_PAYLOAD - HEADER_BYTES;

const PART_CODES: Readonly<Record<EmbedPart, number>> = { workflow: 0x57, manifest: 0x4d };
const PART_BY_CODE = new Map<number, EmbedPart>([[0x57, 'workflow'], [0x4d, 'manifest']]);

export function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === SOI && bytes[2] === 0xff;
}

interface Segment {
  marker: number;
  /** The first byte of the segment (fill bytes before its marker included). */
  start: number;
  /** The byte after it. */
  end: number;
}

interface Header {
  /** The segments between SOI and the first scan. */
  segments: Segment[];
  /** Where the image data starts (the first SOS, or EOI); the file's end when it was not reached. */
  dataStart: number;
  /** Why the header could not be read to its end, if it could not. */
  problem?: string;
  /** The segment the file ends inside, if it does. */
  cut?: Segment;
}

/** Markers that stand alone, with no length after them. */
const standalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

/** Walks the segments before the image data; stops, with a problem, at the first thing that is wrong. */
function readHeader(bytes: Uint8Array): Header {
  const segments: Segment[] = [];
  let at = 2;
  while (at < bytes.length) {
    const start = at;
    if (bytes[at] !== 0xff) return { segments, dataStart: bytes.length, problem: `expected a marker at byte ${at}` };
    while (bytes[at + 1] === 0xff) at++; // fill bytes
    if (at + 1 >= bytes.length) break;
    const marker = bytes[at + 1]!;
    if (marker === SOS || marker === EOI) return { segments, dataStart: start };
    if (marker === 0x00 || marker === SOI) return { segments, dataStart: bytes.length, problem: `an invalid marker at byte ${at}` };
    if (standalone(marker)) {
      segments.push({ marker, start, end: at + 2 });
      at += 2;
      continue;
    }
    if (at + 4 > bytes.length) break;
    const length = readU16(bytes, at + 2);
    if (length < 2) return { segments, dataStart: bytes.length, problem: `a segment at byte ${at} with an impossible length` };
    const end = at + 2 + length;
    if (end > bytes.length) {
      return { segments, dataStart: bytes.length, problem: `the file ends inside a segment at byte ${at}`, cut: { marker, start, end } };
    }
    segments.push({ marker, start, end });
    at = end;
  }
  return { segments, dataStart: bytes.length, problem: 'the file ends before the image data' };
}

/** Where a segment's payload starts (past fill bytes, marker and length). */
function payloadStart(bytes: Uint8Array, segment: Segment): number {
  let at = segment.start;
  while (bytes[at + 1] === 0xff) at++;
  return at + 4;
}

/** Whether a segment is Atelier's: APP9 starting with its name. */
function isAtelier(bytes: Uint8Array, segment: Segment): boolean {
  if (segment.marker !== APP_ATELIER) return false;
  const at = payloadStart(bytes, segment);
  return at + NAME.length <= segment.end && NAME.every((b, i) => bytes[at + i] === b);
}

function atelierSegments(part: EmbedPart, data: Uint8Array): Uint8Array[] {
  const count = Math.max(1, Math.ceil(data.length / MAX_PIECE));
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const piece = data.subarray(i * MAX_PIECE, Math.min(data.length, (i + 1) * MAX_PIECE));
    const segment = new Uint8Array(4 + HEADER_BYTES + piece.length);
    segment[0] = 0xff;
    segment[1] = APP_ATELIER;
    writeU16(segment, 2, 2 + HEADER_BYTES + piece.length);
    segment.set(NAME, 4);
    let at = 4 + NAME.length;
    segment[at++] = LAYOUT_VERSION;
    segment[at++] = PART_CODES[part];
    writeU16(segment, at, i);
    writeU16(segment, at + 2, count);
    writeU32(segment, at + 4, data.length);
    segment.set(piece, 4 + HEADER_BYTES);
    out.push(segment);
  }
  return out;
}

/**
 * The JPEG with `parts` in Atelier segments, replacing any it had; all other bytes unchanged.
 * Throws an ImageEmbedError when the JPEG's headers cannot be read.
 */
export function embedInJpeg(bytes: Uint8Array, parts: ReadonlyMap<EmbedPart, Uint8Array>): Uint8Array {
  const header = readHeader(bytes);
  if (header.problem !== undefined) throw new ImageEmbedError(`the JPEG cannot be read: ${header.problem}`);
  const kept = header.segments.filter((s) => !isAtelier(bytes, s));
  // JFIF and Exif must come first; Atelier's segments follow them.
  let insertAt = 0;
  while (insertAt < kept.length && (kept[insertAt]!.marker === APP0 || kept[insertAt]!.marker === APP1)) insertAt++;
  const ours = [...parts].flatMap(([part, data]) => atelierSegments(part, data));
  const copy = (s: Segment) => bytes.subarray(s.start, s.end);
  return concat([
    bytes.subarray(0, 2),
    ...kept.slice(0, insertAt).map(copy),
    ...ours,
    ...kept.slice(insertAt).map(copy),
    bytes.subarray(header.dataStart),
  ]);
}

/**
 * Atelier's parts in a JPEG, as far as its headers could be read (`cut` when they end early);
 * throws when an Atelier segment itself is damaged.
 */
export function readFromJpeg(bytes: Uint8Array): { parts: PartCollector; cut: boolean } {
  const header = readHeader(bytes);
  const parts = new PartCollector();
  for (const segment of header.segments) {
    if (!isAtelier(bytes, segment)) continue;
    const at = payloadStart(bytes, segment) + NAME.length;
    if (segment.end - at < HEADER_BYTES - NAME.length) {
      throw new ImageEmbedError(`an Atelier segment at byte ${segment.start} is too short to be read`);
    }
    const version = bytes[at]!;
    if (version !== LAYOUT_VERSION) {
      throw new ImageEmbedError(`the image's Atelier data was written by a newer Atelier (layout ${version}); update Atelier to read it`);
    }
    // A part this build does not know is left alone, so newer images still give their workflow.
    const part = PART_BY_CODE.get(bytes[at + 1]!);
    if (!part) continue;
    parts.add(part, {
      index: readU16(bytes, at + 2),
      count: readU16(bytes, at + 4),
      total: readU32(bytes, at + 6),
      data: bytes.subarray(at + 10, segment.end),
      offset: segment.start,
    });
  }
  const { cut } = header;
  if (cut && isAtelier(bytes, { ...cut, end: bytes.length })) {
    const code = bytes[payloadStart(bytes, cut) + NAME.length + 1];
    const part = (code === undefined ? undefined : PART_BY_CODE.get(code)) ?? 'workflow';
    parts.fail(part, new ImageEmbedError(`the image's ${part} is incomplete: the file is cut short`));
  }
  return { parts, cut: header.problem !== undefined };
}
