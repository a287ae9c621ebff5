/**
 * What one run of a node asks of the APIs, from its parameters alone: requests, images and their
 * relative price (a regular-sampler image is 1, a premium-sampler one 2: docs/service-interface.md
 * 2.2), and for chat the `max_tokens` cap where set. The catalogue's types are listed by name
 * (nodes/api-use.ts), so a node added without a cost shows up as "cost unknown" (and fails a test)
 * rather than as free.
 */
import { samplerPriceUnits } from '../api/catalog';
import { imageDefaults } from '../api/image-schema';
import type { AnyNodeDefinition } from '../nodes/types';
import { CHAT_NODE_TYPES, FREE_NODE_TYPES, IMAGE_NODE_TYPES } from '../nodes/api-use';
import { parseParams } from './params';

export interface NodeCost {
  /** False for a type this table does not know: the figures are then 0 and mean nothing. */
  known: boolean;
  imageCalls: number;
  chatCalls: number;
  /** Images the image requests ask for. */
  images: number;
  priceUnits: number;
  /** The chat request's `max_tokens`, when set: the most it can generate. */
  maxTokens?: number;
}

const NOTHING: NodeCost = { known: true, imageCalls: 0, chatCalls: 0, images: 0, priceUnits: 0 };

/** `params` parsed by the definition where they parse (defaults filled in), as given otherwise. */
function parsedOrRaw(def: AnyNodeDefinition, params: Record<string, unknown>): Record<string, unknown> {
  return parseParams(def, params) ?? params;
}

/** The cost of one run of a node of type `def` with `params` (the form's, or with param ports merged). */
export function nodeCost(def: AnyNodeDefinition, params: Record<string, unknown>): NodeCost {
  if (FREE_NODE_TYPES.has(def.type)) return NOTHING;
  if (def.type === 'comfy-workflow') {
    // One queued workflow per run; a price unit per picture, one per image output at the least.
    const outputs = parsedOrRaw(def, params).outputs;
    const images = Math.max(1, Array.isArray(outputs) ? outputs.filter((o: { kind?: unknown }) => o.kind === 'images').length : 0);
    return { ...NOTHING, imageCalls: 1, images, priceUnits: images };
  }
  if (IMAGE_NODE_TYPES.has(def.type)) {
    const p = parsedOrRaw(def, params);
    const defaults = imageDefaults('sdxl');
    const images = typeof p.num_images === 'number' && p.num_images > 0 ? Math.floor(p.num_images) : defaults.num_images;
    const sampler = typeof p.sampler === 'string' ? p.sampler : defaults.sampler;
    return { ...NOTHING, imageCalls: 1, images, priceUnits: images * samplerPriceUnits(sampler) };
  }
  if (CHAT_NODE_TYPES.has(def.type)) {
    const p = parsedOrRaw(def, params);
    return { ...NOTHING, chatCalls: 1, ...(typeof p.max_tokens === 'number' ? { maxTokens: p.max_tokens } : {}) };
  }
  return { ...NOTHING, known: false };
}
