/**
 * Money in the cost estimate: a backend that quotes a price per image or per megapixel gives each
 * node's images a price and the run a total, with the quote's source and date; one that cannot
 * say is "price unknown" and counted apart; backends that quote nothing (the ones on your own
 * machine) leave the estimate as it was, in price units only.
 */
import { describe, expect, it } from 'vitest';
import { routeImageRequests } from '../../api/backends/index';
import type { ImageBackend, PriceQuote } from '../../api/backends/types';
import type { ImageClient } from '../../api/client-types';
import { registry } from '../../nodes/index';
import { formatUsd, quoteText } from '../../src/run/format';
import { createMemoryCache } from '../../workers/cache';
import { estimateRun } from '../../workers/estimate';
import { priceOf } from '../../workers/estimate-price';
import { workflow } from './fakes';

const service: ImageClient = { generate: () => Promise.reject(new Error('nothing is sent in an estimate')) };
const PER_IMAGE: PriceQuote = { known: true, amountUsd: 0.003, per: 'image', source: 'https://example.invalid/pricing', date: '2026-11-01' };

/** A hosted backend that quotes `quote` for every request. */
function quoting(quote: (request: { width?: number; height?: number }) => PriceQuote): ImageBackend {
  return {
    kind: 'openai', label: 'Hosted', generate: () => Promise.reject(new Error('not sent')),
    review: () => ({ backend: 'openai', label: 'Hosted', refusals: [], notes: [], translated: {} }),
    price: (_engine, request) => quote(request),
  };
}

async function estimate(image: ImageClient, nodes: Parameters<typeof workflow>[0]) {
  const result = await estimateRun(workflow(nodes, []), registry, { mode: 'all' }, { cache: createMemoryCache(), settings: { chatModel: 'm' }, price: priceOf(image) });
  if (!result.ok) throw new Error('the estimate failed');
  return result;
}

describe('money in the estimate', () => {
  it('prices each image of a node quoted per image, and adds the run up', async () => {
    const image = await routeImageRequests(service, { sdxl: { kind: 'openai', baseUrl: 'http://127.0.0.1:1' } }, {}, {}, () => quoting(() => PER_IMAGE));
    const { nodes, totals } = await estimate(image, [['a', 'text-to-image', { prompt: 'a', num_images: 4, seed: 1 }], ['b', 'text-to-image', { prompt: 'b', seed: 2 }]]);
    expect(nodes[0]?.price).toEqual({ quote: PER_IMAGE, perImageUsd: 0.003 });
    expect(totals.price).toEqual({ amountUsd: expect.closeTo(0.015, 9), pricedNodes: 2, unknownNodes: 0, quotes: [PER_IMAGE] });
    expect(totals.priceUnits).toBe(5);
    expect(quoteText(PER_IMAGE)).toBe('≈ $0.003 per image · example.invalid/pricing, 2026-11-01');
    expect(formatUsd(totals.price!.amountUsd)).toBe('$0.015');
  });

  it('prices a megapixel quote by the request\'s size in whole megapixels, and counts an unknown price apart, saying why, without guessing', async () => {
    const perMegapixel: PriceQuote = { ...PER_IMAGE, amountUsd: 0.01, per: 'megapixel' };
    const sizes = await routeImageRequests(service, { sdxl: { kind: 'openai', baseUrl: 'http://127.0.0.1:1' } }, {}, {}, () => quoting(() => perMegapixel));
    const sized = await estimate(sizes, [['a', 'text-to-image', { prompt: 'a', width: 1152, height: 896, seed: 1 }]]);
    // 1.03 megapixels are billed as 2, as the backend's own quote (hosted/price.ts) bills them.
    expect(sized.nodes[0]?.price?.perImageUsd).toBeCloseTo(0.02, 9);

    const unknown: PriceQuote = { known: false, why: 'this model has no published price' };
    const image = await routeImageRequests(service, { sdxl: { kind: 'openai', baseUrl: 'http://127.0.0.1:1' } }, {}, {}, () => quoting(() => unknown));
    const { nodes, totals } = await estimate(image, [['a', 'text-to-image', { prompt: 'a', seed: 1 }]]);
    expect(nodes[0]?.price).toEqual({ quote: unknown });
    expect(totals.price).toEqual({ amountUsd: 0, pricedNodes: 0, unknownNodes: 1, quotes: [unknown] });
    expect(quoteText(unknown)).toBe('price unknown: this model has no published price');
  });

  it('says nothing of money when no backend quotes one', async () => {
    const image = await routeImageRequests(service, { sdxl: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:1' } });
    const { nodes, totals } = await estimate(image, [['a', 'text-to-image', { prompt: 'a', seed: 1 }]]);
    expect(nodes[0]).not.toHaveProperty('price');
    expect(totals).not.toHaveProperty('price');
    expect(totals.priceUnits).toBe(1);
  });
});
