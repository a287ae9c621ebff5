/**
 * What Gemini image models cost, from Google's published price page
 * (https://ai.google.dev/gemini-api/docs/pricing, paid tier, standard, not batch), dated by when
 * the page was read. Google bills these models by tokens: input tokens (text and images) at the
 * input rate, each generated image as a fixed number of output tokens at the image output rate,
 * which the page also states as a price per image. A model or size the page gives no per-image
 * price for is "price unknown", never a guess.
 *
 * The run's money comes from what the API reports: `usageMetadata.promptTokenCount` × the input
 * rate + the IMAGE tokens of `candidatesTokensDetails` × the image output rate. Text and thinking
 * output tokens are billed at the model's text output rate, which this table does not hold: when
 * a response has any, the amount is said to leave them out.
 */
import type { PriceQuote, ReportedCost as Reported } from '../types';
import type { ImageSize } from './models';
import { bareModelId } from './models';

export const PRICE_SOURCE = 'https://ai.google.dev/gemini-api/docs/pricing';

interface ModelPrice {
  /** Matches the model ids this row is for. */
  match: RegExp;
  /** How the page names it. */
  name: string;
  /** When the page was read with these figures. */
  date: string;
  /** USD per million input tokens (text and image). */
  inputPerMillion: number;
  /** USD per million image output tokens. */
  imageOutputPerMillion: number;
  /** USD per image by `imageSize` (`1K` for models that take none), as the page states it. */
  perImage: Partial<Record<ImageSize, number>>;
}

const PRICES: readonly ModelPrice[] = [
  {
    // "Gemini 2.5 Flash Image": $0.30 / 1M input, $30 / 1M output, "$0.039 per image"
    // (images up to 1024×1024 are 1290 tokens).
    match: /^gemini-2\.5-flash-image/, name: 'Gemini 2.5 Flash Image', date: '2026-08-24',
    inputPerMillion: 0.3, imageOutputPerMillion: 30, perImage: { '1K': 0.039 },
  },
  {
    // "Gemini 3 Pro Image": $2.00 / 1M input, $120.00 / 1M output (images), "equivalent to $0.134
    // per 1K/2K image and $0.24 per 4K image".
    match: /^gemini-3-pro-image/, name: 'Gemini 3 Pro Image', date: '2026-09-20',
    inputPerMillion: 2, imageOutputPerMillion: 120, perImage: { '1K': 0.134, '2K': 0.134, '4K': 0.24 },
  },
  {
    // "Gemini 3.1 Flash Image": $0.50 / 1M input, $60 / 1M output, $0.045 to $0.151 per image by
    // size: the page's range gives 512 and 4K; 1K and 2K are not stated per image.
    match: /^gemini-3\.1-flash-image/, name: 'Gemini 3.1 Flash Image', date: '2026-08-24',
    inputPerMillion: 0.5, imageOutputPerMillion: 60, perImage: { '512': 0.045, '4K': 0.151 },
  },
];

function rowFor(model: string): ModelPrice | undefined {
  const id = bareModelId(model);
  return PRICES.find((row) => row.match.test(id));
}

/** The published price of one image from `model` at `size`. */
export function quoteImage(model: string, size: ImageSize | undefined): PriceQuote {
  const row = rowFor(model);
  if (row === undefined) return { known: false, why: `Google's price page as read here has no price for ${model}` };
  const amount = row.perImage[size ?? '1K'];
  if (amount === undefined) {
    return { known: false, why: `Google's price page gives ${row.name} no per-image price at ${size ?? '1K'} (only $${row.imageOutputPerMillion} per million image output tokens); the run's total counts the tokens the API reports` };
  }
  return { known: true, amountUsd: amount, per: 'image', source: PRICE_SOURCE, date: row.date };
}

/** Token counts as `usageMetadata` reports them (the fields this reads). */
export interface UsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  candidatesTokensDetails?: { modality?: string; tokenCount?: number }[];
}

export interface ReportedCost extends Reported {
  /** How the amount was made, in words, and what it leaves out. */
  basis: string;
}

/** The money one response's reported usage comes to, or undefined when the model or the usage is unknown. */
export function costOfUsage(model: string, usage: UsageMetadata | undefined): ReportedCost | undefined {
  const row = rowFor(model);
  if (row === undefined || usage === undefined) return undefined;
  const details = usage.candidatesTokensDetails ?? [];
  const imageTokens = details.filter((d) => d.modality === 'IMAGE').reduce((sum, d) => sum + (d.tokenCount ?? 0), 0);
  const otherOutput = (usage.candidatesTokenCount ?? 0) - imageTokens + (usage.thoughtsTokenCount ?? 0);
  const input = usage.promptTokenCount ?? 0;
  const amountUsd = (input * row.inputPerMillion + imageTokens * row.imageOutputPerMillion) / 1_000_000;
  const left = otherOutput > 0 ? `; ${otherOutput} text and thinking output tokens are left out (billed at the text output rate, not in this table)` : '';
  return {
    amountUsd, reported: true,
    basis: `${input} input tokens at $${row.inputPerMillion}/M + ${imageTokens} image output tokens at $${row.imageOutputPerMillion}/M (${PRICE_SOURCE}, ${row.date})${left}`,
  };
}
