/**
 * Replicate's published prices for the models Atelier knows, each with where and when it was
 * read. Official models are billed per output image; community models (stability-ai/sdxl,
 * stability-ai/stable-diffusion, lucataco/sdxl-controlnet) per second of the GPU they run on, so
 * they have no quote before a run: the run reports the seconds Replicate measured
 * (`metrics.predict_time`).
 */
import type { PriceEntry } from '../hosted/price';

export const REPLICATE_PRICES = new Map<string, PriceEntry>([
  ['black-forest-labs/flux-schnell', { usd: 0.003, per: 'image', source: 'https://replicate.com/black-forest-labs/flux-schnell', date: '2026-05-25' }],
  ['black-forest-labs/flux-dev', { usd: 0.025, per: 'image', source: 'https://replicate.com/black-forest-labs/flux-dev', date: '2026-05-11' }],
]);
