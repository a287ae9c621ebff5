/**
 * fal's published prices for the models Atelier knows, each with where and when it was read. A
 * model not listed (fal-ai/fast-sdxl, fal-ai/lora and the ControlNet endpoint bill by the GPU
 * time they take) and an endpoint of another mode (flux/dev/image-to-image) has no quote: "unknown", never a guess.
 */
import type { PriceEntry } from '../hosted/price';

export const FAL_PRICES = new Map<string, PriceEntry>([
  ['fal-ai/flux/dev', { usd: 0.025, per: 'megapixel', source: 'https://fal.ai/pricing', date: '2026-05-25' }],
  ['fal-ai/flux/schnell', { usd: 0.003, per: 'megapixel', source: 'https://fal.ai/pricing', date: '2026-05-20' }],
]);
