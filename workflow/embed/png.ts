/**
 * Atelier data in a PNG: one iTXt chunk per part ('atelier-workflow', 'atelier-manifest'),
 * uncompressed UTF-8, placed before IEND. ComfyUI writes tEXt 'workflow'/'prompt'; iTXt is the
 * chunk PNG defines for UTF-8 text. Every other chunk is copied byte for byte.
 */
import { type EmbedPart, ImageEmbedError, MAX_EMBEDDED_BYTES, concat, formatBytes, readU32, utf8, writeU32 } from './bytes';
import { PartCollector } from './parts';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const KEYWORDS: Readonly<Record<EmbedPart, string>> = { workflow: 'atelier-workflow', manifest: 'atelier-manifest' };
const PART_BY_KEYWORD = new Map<string, EmbedPart>([['atelier-workflow', 'workflow'], ['atelier-manifest', 'manifest']]);
/** PNG keywords are 1 to 79 bytes. */
const MAX_KEYWORD = 79;
/** The PNG specification caps a chunk's length at 2^31 - 1. */
const MAX_CHUNK = 0x7fffffff;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309, as PNG uses it) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= SIGNATURE.length && SIGNATURE.every((b, i) => bytes[i] === b);
}

interface Chunk {
  type: string;
  /** The chunk's first byte (its length field). */
  start: number;
  dataStart: number;
  dataEnd: number;
  /** The byte after its CRC. */
  end: number;
}

interface Layout {
  chunks: Chunk[];
  /** The IEND chunk, when the file reaches it. */
  iend?: Chunk;
  problem?: string;
  /** A chunk cut short by the end of the file: its type and where its data starts. */
  cut?: { type: string; dataStart: number };
}

const isTypeByte = (b: number) => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);

function readLayout(bytes: Uint8Array): Layout {
  const chunks: Chunk[] = [];
  let at = SIGNATURE.length;
  while (at < bytes.length) {
    if (at + 8 > bytes.length) return { chunks, problem: 'the file ends inside a chunk header' };
    const length = readU32(bytes, at);
    const typeBytes = bytes.subarray(at + 4, at + 8);
    if (!typeBytes.every(isTypeByte)) return { chunks, problem: `no chunk type at byte ${at + 4}` };
    const type = String.fromCharCode(...typeBytes);
    if (length > MAX_CHUNK) return { chunks, problem: `the ${type} chunk at byte ${at} claims an impossible length` };
    const chunk: Chunk = { type, start: at, dataStart: at + 8, dataEnd: at + 8 + length, end: at + 12 + length };
    if (chunk.end > bytes.length) return { chunks, problem: `the file ends inside the ${type} chunk at byte ${at}`, cut: { type, dataStart: chunk.dataStart } };
    if (type === 'IEND') return { chunks, iend: chunk };
    chunks.push(chunk);
    at = chunk.end;
  }
  return { chunks, problem: 'the file ends before its IEND chunk' };
}

/** The keyword of an iTXt chunk's data (up to its NUL), or undefined if it has none. */
function keywordAt(bytes: Uint8Array, dataStart: number, dataEnd: number): string | undefined {
  const limit = Math.min(dataEnd, dataStart + MAX_KEYWORD + 1);
  for (let i = dataStart; i < limit; i++) {
    if (bytes[i] === 0) return String.fromCharCode(...bytes.subarray(dataStart, i));
  }
  return undefined;
}

function atelierPart(bytes: Uint8Array, chunk: Chunk): EmbedPart | undefined {
  if (chunk.type !== 'iTXt') return undefined;
  const keyword = keywordAt(bytes, chunk.dataStart, chunk.dataEnd);
  return keyword === undefined ? undefined : PART_BY_KEYWORD.get(keyword);
}

function makeChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  writeU32(out, 0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  writeU32(out, 8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** iTXt: keyword, NUL, not compressed (0, 0), empty language tag and translated keyword, text. */
function itxt(part: EmbedPart, text: Uint8Array): Uint8Array {
  const keyword = utf8(KEYWORDS[part]);
  const data = new Uint8Array(keyword.length + 5 + text.length);
  data.set(keyword, 0);
  // keyword NUL, compression flag 0, method 0, language tag NUL, translated keyword NUL.
  data.set(text, keyword.length + 5);
  return makeChunk('iTXt', data);
}

/**
 * The PNG with `parts` in iTXt chunks before IEND, replacing any Atelier chunks it had; all other
 * bytes unchanged. Throws an ImageEmbedError when the PNG's chunks cannot be read.
 */
export function embedInPng(bytes: Uint8Array, parts: ReadonlyMap<EmbedPart, Uint8Array>): Uint8Array {
  const layout = readLayout(bytes);
  if (!layout.iend) throw new ImageEmbedError(`the PNG cannot be read: ${layout.problem ?? 'it has no IEND chunk'}`);
  const kept = layout.chunks.filter((c) => atelierPart(bytes, c) === undefined);
  return concat([
    bytes.subarray(0, SIGNATURE.length),
    ...kept.map((c) => bytes.subarray(c.start, c.end)),
    ...[...parts].map(([part, text]) => itxt(part, text)),
    // IEND and anything after it, as it was.
    bytes.subarray(layout.iend.start),
  ]);
}

/** The text of an Atelier iTXt chunk, its CRC checked. */
function readItxt(bytes: Uint8Array, chunk: Chunk, part: EmbedPart): Uint8Array {
  const name = KEYWORDS[part];
  const stored = readU32(bytes, chunk.dataEnd);
  if (crc32(bytes.subarray(chunk.start + 4, chunk.dataEnd)) !== stored) {
    throw new ImageEmbedError(`the image's ${part} is damaged: the ${name} chunk fails its checksum`);
  }
  let at = chunk.dataStart + name.length + 1;
  const compressed = bytes[at];
  at += 2;
  // Language tag and translated keyword, each up to a NUL.
  for (let field = 0; field < 2; field++) {
    while (at < chunk.dataEnd && bytes[at] !== 0) at++;
    at++;
  }
  if (at > chunk.dataEnd) throw new ImageEmbedError(`the image's ${part} is damaged: the ${name} chunk is cut short`);
  if (compressed !== 0) {
    throw new ImageEmbedError(`the image's ${part} was compressed by another program, which Atelier does not read; save the image from Atelier again`);
  }
  return bytes.subarray(at, chunk.dataEnd);
}

/**
 * Atelier's parts in a PNG, as far as its chunks could be read (`cut` when they end early);
 * throws when an Atelier chunk itself is damaged or too big.
 */
export function readFromPng(bytes: Uint8Array): { parts: PartCollector; cut: boolean } {
  const layout = readLayout(bytes);
  const parts = new PartCollector();
  for (const chunk of layout.chunks) {
    const part = atelierPart(bytes, chunk);
    if (!part) continue;
    try {
      if (chunk.dataEnd - chunk.dataStart > MAX_EMBEDDED_BYTES + MAX_KEYWORD + 5) {
        throw new ImageEmbedError(`the image's ${part} is ${formatBytes(chunk.dataEnd - chunk.dataStart)}, more than Atelier reads from an image`);
      }
      const data = readItxt(bytes, chunk, part);
      parts.add(part, { index: 0, count: 1, total: data.length, data, offset: chunk.start });
    } catch (error) {
      parts.fail(part, error);
    }
  }
  const cut = layout.cut;
  if (cut?.type === 'iTXt') {
    const part = PART_BY_KEYWORD.get(keywordAt(bytes, cut.dataStart, bytes.length) ?? '');
    if (part) parts.fail(part, new ImageEmbedError(`the image's ${part} is incomplete: the file is cut short`));
  }
  return { parts, cut: layout.problem !== undefined };
}

/**
 * Text chunks other programs wrote (ComfyUI's tEXt `prompt` and `workflow`, or iTXt when the
 * text is not Latin-1), by keyword, for the keywords asked for. tEXt is Latin-1; uncompressed
 * iTXt is UTF-8; compressed iTXt (rare from ComfyUI) is refused with a reason. A chunk over
 * MAX_EMBEDDED_BYTES or failing its checksum is refused too.
 */
export function readPngText(bytes: Uint8Array, keywords: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  if (!isPng(bytes)) return found;
  const layout = readLayout(bytes);
  for (const chunk of layout.chunks) {
    if (chunk.type !== 'tEXt' && chunk.type !== 'iTXt') continue;
    const keyword = keywordAt(bytes, chunk.dataStart, chunk.dataEnd);
    if (keyword === undefined || !keywords.includes(keyword) || found.has(keyword)) continue;
    if (chunk.dataEnd - chunk.dataStart > MAX_EMBEDDED_BYTES) {
      throw new ImageEmbedError(`the image's '${keyword}' text is ${formatBytes(chunk.dataEnd - chunk.dataStart)}, more than Atelier reads from an image`);
    }
    if (crc32(bytes.subarray(chunk.start + 4, chunk.dataEnd)) !== readU32(bytes, chunk.dataEnd)) {
      throw new ImageEmbedError(`the image's '${keyword}' text is damaged: its chunk fails its checksum`);
    }
    let at = chunk.dataStart + keyword.length + 1;
    if (chunk.type === 'tEXt') {
      found.set(keyword, latin1(bytes.subarray(at, chunk.dataEnd)));
      continue;
    }
    const compressed = bytes[at];
    at += 2;
    for (let field = 0; field < 2; field++) {
      while (at < chunk.dataEnd && bytes[at] !== 0) at++;
      at++;
    }
    if (at > chunk.dataEnd) throw new ImageEmbedError(`the image's '${keyword}' text is damaged: its chunk is cut short`);
    if (compressed !== 0) throw new ImageEmbedError(`the image's '${keyword}' text is compressed, which Atelier does not read; export the workflow from ComfyUI as JSON instead`);
    found.set(keyword, new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(at, chunk.dataEnd)));
  }
  return found;
}

/** Latin-1 text, in slices (a spread of a whole chunk would overflow the stack). */
function latin1(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let i = 0; i < bytes.length; i += 8192) parts.push(String.fromCharCode(...bytes.subarray(i, i + 8192)));
  return parts.join('');
}
