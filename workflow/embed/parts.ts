/**
 * Reassembling a part (the workflow or the manifest) from the pieces a container holds: JPEG
 * splits a part across segments, PNG keeps it whole. Every piece is checked against the others
 * before anything is allocated, so a hostile file gets an error, never a huge buffer.
 */
import { type EmbedPart, ImageEmbedError, MAX_EMBEDDED_BYTES, checkSize, fromUtf8 } from './bytes';

export interface Piece {
  index: number;
  count: number;
  /** The length of the whole part, as every piece announces it. */
  total: number;
  data: Uint8Array;
  /** Where the piece is in the file, for messages. */
  offset: number;
}

/** Collects the pieces of each part as a reader meets them, and puts each part together. */
export class PartCollector {
  private readonly pieces = new Map<EmbedPart, Map<number, Piece>>();
  /** The first thing wrong with each part: one damaged part does not cost the other. */
  private readonly failures = new Map<EmbedPart, ImageEmbedError>();

  /** Whether anything of Atelier's has been seen. */
  get found(): boolean {
    return this.pieces.size > 0 || this.failures.size > 0;
  }

  /** Records that a part is damaged; `text` throws this for it. */
  fail(part: EmbedPart, error: unknown): void {
    if (!(error instanceof ImageEmbedError)) throw error;
    if (!this.failures.has(part)) this.failures.set(part, error);
  }

  add(part: EmbedPart, piece: Piece): void {
    try {
      this.check(part, piece);
    } catch (error) {
      this.fail(part, error);
    }
  }

  private check(part: EmbedPart, piece: Piece): void {
    const { index, count, total, offset } = piece;
    if (count === 0 || index >= count) {
      throw new ImageEmbedError(`the image's ${part} is damaged: piece ${index + 1} of ${count} at byte ${offset}`);
    }
    checkSize(total, part);
    let seen = this.pieces.get(part);
    if (!seen) {
      seen = new Map();
      this.pieces.set(part, seen);
    }
    const first = seen.values().next().value;
    if (first && (first.count !== count || first.total !== total)) {
      throw new ImageEmbedError(`the image's ${part} is damaged: its pieces disagree on its size (byte ${offset})`);
    }
    if (seen.has(index)) {
      throw new ImageEmbedError(`the image's ${part} is damaged: piece ${index + 1} of ${count} appears twice (byte ${offset})`);
    }
    seen.set(index, piece);
  }

  /** The part's text, or undefined when the image has none; throws when pieces are missing. */
  text(part: EmbedPart, truncated: boolean): string | undefined {
    const failure = this.failures.get(part);
    if (failure) throw failure;
    const seen = this.pieces.get(part);
    const first = seen?.values().next().value;
    if (!seen || !first) return undefined;
    const { count, total } = first;
    const parts: Uint8Array[] = [];
    let length = 0;
    for (let i = 0; i < count; i++) {
      const piece = seen.get(i);
      if (!piece) {
        const why = truncated ? ': the file is cut short' : '';
        throw new ImageEmbedError(`the image's ${part} is incomplete: piece ${i + 1} of ${count} is missing${why}`);
      }
      length += piece.data.length;
      if (length > total || length > MAX_EMBEDDED_BYTES) break;
      parts.push(piece.data);
    }
    if (length !== total) {
      throw new ImageEmbedError(`the image's ${part} is damaged: its pieces hold ${length} bytes, it announces ${total}`);
    }
    if (parts.length === 1) return fromUtf8(parts[0]!, part);
    const joined = new Uint8Array(total);
    let at = 0;
    for (const piece of parts) {
      joined.set(piece, at);
      at += piece.length;
    }
    return fromUtf8(joined, part);
  }
}
