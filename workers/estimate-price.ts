/**
 * Money, where a backend quotes it: a hosted provider's `price` for each image node's request,
 * found before a run like the backend's review. The run's price units stay as they are; this is
 * beside them. A quote per image or per megapixel gives each image's price, so the node's images
 * give its total; a quote per second (the time it runs) or an unknown one is shown as it is and
 * counted apart, never guessed.
 */
import { billedMegapixels } from '../api/backends/hosted/price';
import type { PriceQuote } from '../api/backends/types';
import type { ImageClient } from '../api/client-types';
import { imageDefaults } from '../api/image-schema';
import type { AnyNodeDefinition } from '../nodes/types';

export type PriceRequest = NonNullable<ImageClient['price']>;

/** What one node's image request costs on its backend. */
export interface NodePrice {
  quote: PriceQuote;
  /** One image's price in USD, when the quote's unit gives one (per image, per megapixel). */
  perImageUsd?: number;
}

/** The client's price, bound to it, when it has one. */
export function priceOf(client: ImageClient): PriceRequest | undefined {
  const price = client.price;
  return price === undefined ? undefined : (engine, request) => price.call(client, engine, request);
}

/** The price of one node's request, or undefined when it sends no image request or nothing is quoted. */
export function priceNode(def: AnyNodeDefinition, params: Record<string, unknown>, connected: ReadonlySet<string>, price: PriceRequest | undefined): NodePrice | undefined {
  if (price === undefined || def.imageRequest === undefined) return undefined;
  const { engine, request } = def.imageRequest(params, connected);
  const quote = price(engine, request);
  if (quote === undefined) return undefined;
  if (!quote.known || quote.per === 'second') return { quote };
  if (quote.per === 'image') return { quote, perImageUsd: quote.amountUsd };
  const defaults = imageDefaults(engine);
  // Billed as the backend's own quote bills it: whole megapixels, rounded up.
  return { quote, perImageUsd: quote.amountUsd * billedMegapixels(request.width ?? defaults.width, request.height ?? defaults.height) };
}

/** What the priced nodes of a run add up to. */
export interface PriceTotals {
  /** The nodes whose price is known, added up (USD). */
  amountUsd: number;
  pricedNodes: number;
  /** Nodes that run at a price not known before they run (`price unknown`, or per second). */
  unknownNodes: number;
  /** The quotes, each once: a known one for its source and date, an unknown one for why. */
  quotes: PriceQuote[];
}

/** The money of the nodes that run, or undefined when no backend quoted a price. */
export function priceTotals(nodes: readonly { status: string; images: number; price?: NodePrice }[]): PriceTotals | undefined {
  let totals: PriceTotals | undefined;
  const seen = new Set<string>();
  for (const n of nodes) {
    if (n.status !== 'runs' || n.price === undefined) continue;
    totals ??= { amountUsd: 0, pricedNodes: 0, unknownNodes: 0, quotes: [] };
    const { quote, perImageUsd } = n.price;
    if (perImageUsd === undefined) totals.unknownNodes++;
    else {
      totals.amountUsd += perImageUsd * n.images;
      totals.pricedNodes++;
    }
    const key = JSON.stringify(quote);
    if (!seen.has(key)) {
      seen.add(key);
      totals.quotes.push(quote);
    }
  }
  return totals;
}
