/**
 * The estimate of one call of a node (the whole node, or one item of a fan-out), from the input
 * values of that call: the cache answers it, it fails before sending (a parameter from a port is
 * invalid), or it runs at its cost. A free node's result is worked out on the spot, so what it
 * feeds can still be looked up. Nothing is sent and nothing is written to the cache.
 */
import type { RunContext, Value } from '../nodes/types';
import type { CacheStore } from './cache';
import { nodeCost, type NodeCost } from './cost';
import { toNodeError, type NodeOutputs } from './events';
import type { PlannedNode } from './plan';
import { prepareRun } from './prepare';

export type CallEstimate =
  /** `at`: when the cached result was made, when the entry says. */
  | { status: 'cached'; outputs: NodeOutputs; apiCallsSaved: number; at?: number }
  /** `outputs` when the node is free and they were worked out here. */
  | { status: 'runs'; cost: NodeCost; params: Record<string, unknown>; cacheable: boolean; outputs?: NodeOutputs }
  | { status: 'fails'; reason: string };

export interface CallScope {
  cache: CacheStore;
  /** The executor's cache context (prepare.ts `cacheContextOf`). */
  context: unknown;
  /** A context that refuses every request, for running free nodes. */
  offline: RunContext;
  warn(message: string): void;
}

/** A context for running free nodes in an estimate: any request is refused, nothing is reported. */
export function offlineContext(settings: RunContext['settings']): RunContext {
  const refuse = () => Promise.reject(new Error('the estimate sends no requests'));
  return {
    signal: new AbortController().signal,
    api: {
      image: { generate: refuse },
      chat: { complete: refuse, stream: () => ({ [Symbol.asyncIterator]: () => ({ next: refuse }) }) },
    },
    settings,
    progress: () => undefined,
    partialText: () => undefined,
    randomSeed: () => 0,
  };
}

export async function estimateCall(node: PlannedNode, values: Readonly<Record<string, Value>>, scope: CallScope): Promise<CallEstimate> {
  let prepared;
  try {
    prepared = await prepareRun(node, values, scope.context);
  } catch (error) {
    return { status: 'fails', reason: toNodeError(error, []).message };
  }
  const cacheable = prepared.key !== undefined && node.reuseCached;
  if (cacheable) {
    const hit = await scope.cache.get(prepared.key!).catch((error: unknown) => {
      scope.warn(`node '${node.id}': reading the cache failed (${toNodeError(error, []).message}); counted as running`);
      return undefined;
    });
    if (hit) return { status: 'cached', outputs: hit.outputs, apiCallsSaved: hit.apiCalls, ...(hit.at === undefined ? {} : { at: hit.at }) };
  }
  const cost = nodeCost(node.def, prepared.params);
  const free = cost.known && cost.imageCalls + cost.chatCalls === 0 && node.def.localWork !== true;
  const outputs = free ? await node.def.run({ params: prepared.params, inputs: prepared.inputs, ctx: scope.offline }).catch(() => undefined) : undefined;
  return { status: 'runs', cost, params: prepared.params, cacheable, ...(outputs ? { outputs } : {}) };
}

/** The costs of several calls of one node, added up. */
export function sumCosts(costs: readonly NodeCost[]): NodeCost {
  const total: NodeCost = { known: true, imageCalls: 0, chatCalls: 0, images: 0, priceUnits: 0 };
  for (const c of costs) {
    total.known &&= c.known;
    total.imageCalls += c.imageCalls;
    total.chatCalls += c.chatCalls;
    total.images += c.images;
    total.priceUnits += c.priceUnits;
    if (c.maxTokens !== undefined) total.maxTokens = c.maxTokens;
  }
  return total;
}
