/**
 * Money, for hosted providers: what one request will cost by the provider's published price
 * (a dated, sourced table entry per model, or "unknown" with why: never a guess), and what a run
 * cost where the provider reports it.
 */
import type { EngineId } from '../../catalog';
import type { ImageRequest } from '../../image-schema';
import type { ImageBackend, PriceQuote } from '../types';

/**
 * The quote of one request: the registry's PriceQuote (`amountUsd` per `per`, from `source` on
 * `date`), with what the whole request comes to (`totalUsd`) where the price is known.
 */
export type HostedQuote = (Extract<PriceQuote, { known: true }> & { totalUsd: number }) | Extract<PriceQuote, { known: false }>;

/** One model's published price. */
export interface PriceEntry {
  usd: number;
  per: 'image' | 'megapixel';
  source: string;
  date: string;
}

/** A hosted provider's backend: an image backend that can say what a request costs. */
export interface HostedBackend extends ImageBackend {
  price(engine: EngineId, request: ImageRequest): HostedQuote;
}

/**
 * The quote for `images` pictures of `width`×`height` by `entry`. Per megapixel, a picture is
 * billed for its megapixels rounded up to whole ones, as fal's price pages say ("rounded up to
 * the nearest megapixel").
 */
export function quoteFrom(entry: PriceEntry | undefined, images: number, width: number, height: number, unknown: string): HostedQuote {
  if (entry === undefined) return { known: false, why: unknown };
  const units = entry.per === 'image' ? images : images * billedMegapixels(width, height);
  return { known: true, amountUsd: entry.usd, per: entry.per, source: entry.source, date: entry.date, totalUsd: round(units * entry.usd) };
}

/** The megapixels one picture is billed for: its own, rounded up to whole ones (fal's price pages). */
export function billedMegapixels(width: number, height: number): number {
  return Math.max(1, Math.ceil((width * height) / 1_000_000));
}

/** Dollars to a millionth, so sums of many small prices stay exact enough to show. */
export function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
