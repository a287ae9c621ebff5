/**
 * What a run will cost, before it runs: per node and in total, the requests and
 * images it will make, their relative price, and which nodes the cache will answer for nothing.
 *
 * It walks the same plan the executor runs, in the same order, and asks the cache with the
 * executor's own keys (prepare.ts). A key needs the node's input values, so they are followed
 * down the graph: a cached node's stored outputs, a free node's outputs (text, a loaded image:
 * computed here, they call no API), a bypassed node's pass-through. Below a node that must call
 * an API, the inputs exist only once it has run: those nodes are counted as running, flagged
 * `unknownUntilUpstreamRuns`. A node that runs once per item is estimated item by item, each
 * with its own key (estimate-call.ts), when its list is known; when it is not, it is flagged
 * `fansOut` and counted once. Nothing is sent and nothing is written to the cache.
 */
import type { TranslationNote } from '../api/backends/types';
import type { CallFigures } from '../api/usage';
import { nodeName } from '../nodes/labels';
import { fanningNodes } from '../nodes/list-flow';
import type { RunContext, Value } from '../nodes/types';
import { reviewNode, type ReviewRequest } from './backend-review';
import { priceNode, priceTotals, type NodePrice, type PriceRequest, type PriceTotals } from './estimate-price';
import { bypassOutputs, type Unavailable } from './bypass';
import type { CacheStore } from './cache';
import { nodeCost, type NodeCost } from './cost';
import { estimateCall, offlineContext, sumCosts, type CallEstimate, type CallScope } from './estimate-call';
import { toNodeError, type NodeOutputs } from './events';
import { describeCount } from '../nodes/list-flow';
import { fanOutOf, gatherOutputs, type FanOut } from './fan-out';
import { parseParams } from './params';
import { planRun, type PlanOptions, type PlannedNode, type PortRef } from './plan';
import { cacheContextOf, upstreamValues } from './prepare';
import type { NodeRegistry, WorkflowProblem } from './validate';
import type { Workflow } from '../workflow/schema';

export interface EstimateDeps {
  cache: CacheStore;
  settings: RunContext['settings'];
  /** As the executor's `cacheScope`: the service the results came from. */
  cacheScope?: string;
  /** The image backends' review (the image client's `review`): what they approximate, leave out or refuse. */
  review?: ReviewRequest;
  /** What the image backends quote (the image client's `price`), where they do. */
  price?: PriceRequest;
  /**
   * Told of each node the cache answers whole (every item, for a node that runs once per item):
   * its outputs, and when they were made if the cache knows (the newest of its items).
   */
  onCached?(nodeId: string, outputs: NodeOutputs, at: number | undefined): void;
}

/**
 * - `cached`: the cache answers; it costs nothing.
 * - `runs`: it will run (and make the requests its cost says; 0 for a free node).
 * - `bypassed`: not run; its inputs pass on.
 * - `skipped`: an upstream node will fail, or was bypassed with nothing to pass on (`reason`).
 * - `fails`: it would fail before sending anything (`reason`): a parameter from a port is invalid.
 */
export type NodeEstimateStatus = 'cached' | 'runs' | 'bypassed' | 'skipped' | 'fails';

export interface NodeEstimate extends Omit<NodeCost, 'known'> {
  nodeId: string;
  status: NodeEstimateStatus;
  cached: boolean;
  /** Its inputs come from a node that must run first: whether the cache has it cannot be known until then. */
  unknownUntilUpstreamRuns: boolean;
  /** False when the cache is never used for it: a random seed, or a node "run from here" re-makes. */
  cacheable: boolean;
  /** False when the cost of this node type is not known (a type the cost table lacks). */
  costKnown: boolean;
  /** Requests sent: image and chat together. */
  apiCalls: number;
  /** Requests the cache answers for it (what its cached result cost when it was made). */
  apiCallsSaved: number;
  reason?: string;
  /** For an image node that will run on a backend that changes its request: which, and how. */
  backend?: { label: string; notes: TranslationNote[] };
  /** For an image node whose backend quotes a price: the quote, and each image's price where it gives one. */
  price?: NodePrice;
  /** For an image node whose backend is a pool: how many servers share its requests. */
  servers?: number;
  /** It runs once per item of a list: how many times ("8 × 3 = 24" in `itemsDescription`); its figures count them all. */
  items?: number;
  itemsDescription?: string;
  /** Of those, how many the cache answers. */
  cachedItems?: number;
  /** It will run once per item of a list whose length is known only once something upstream has run. */
  fansOut?: boolean;
}

export interface EstimateTotals {
  apiCalls: number;
  imageCalls: number;
  chatCalls: number;
  images: number;
  priceUnits: number;
  /** The sum of the chat calls' `max_tokens`; null when a chat call has none (no cap). */
  chatMaxTokens: number | null;
  cachedNodes: number;
  callsSavedByCache: number;
  /** Nodes counted as running only because something upstream must run first. */
  unknownNodes: number;
  /** Present when a node runs once per item: such nodes, their items where known, and those counted once for want of their list. */
  fanOut?: { nodes: number; items: number; unknownNodes: number };
  /** Present when a backend quotes a price: the money of the nodes that run. */
  price?: PriceTotals;
  /** Present when image nodes that run go to a pool: the most servers that share them. */
  servers?: number;
}

/** The figures of a run that a batch adds up. */
export type BatchFigures = CallFigures;

/** What each run of a batch after the first adds (workers/batch-estimate.ts), and which nodes it re-makes. */
export interface LaterRuns {
  perLaterRun: BatchFigures;
  rerun: string[];
}

export type RunEstimate =
  | { ok: true; nodes: NodeEstimate[]; totals: EstimateTotals; warnings: string[]; laterRuns?: LaterRuns }
  | { ok: false; problems: WorkflowProblem[] };

const FREE = { imageCalls: 0, chatCalls: 0, images: 0, priceUnits: 0, apiCalls: 0, apiCallsSaved: 0 };

/** A node that will run: `base` with the figures of `cost`. */
function runs(base: Omit<NodeEstimate, 'status'>, cost: NodeCost, extra: Partial<NodeEstimate>): NodeEstimate {
  const { known: costKnown, ...figures } = cost;
  return { ...base, ...figures, costKnown, apiCalls: cost.imageCalls + cost.chatCalls, status: 'runs', ...extra };
}

/** Estimates the run `options` selects, as `Executor.run` would plan it; pure but for cache reads. */
export async function estimateRun(
  workflow: Workflow,
  registry: NodeRegistry,
  options: PlanOptions,
  deps: EstimateDeps,
): Promise<RunEstimate> {
  const planned = planRun(workflow, registry, options, deps.review);
  if (!planned.ok) return { ok: false, problems: planned.problems };
  const warnings: string[] = [];
  const scope: CallScope = {
    cache: deps.cache, context: cacheContextOf(deps.settings, deps.cacheScope), offline: offlineContext(deps.settings), warn: (m) => warnings.push(m),
  };
  const fanning = fanningNodes(new Map(planned.plan.nodes.map((n) => [n.id, { inputs: n.inputs, outputs: n.outputs, bindings: n.bindings }])));
  // Outputs known now; nodes whose outputs exist only after a request; why some cannot run at all.
  const known = new Map<string, NodeOutputs>();
  const pending = new Set<string>();
  const dead = new Map<string, Unavailable>();
  const unavailable = new Map<string, ReadonlyMap<string, Unavailable>>();
  const unavailableAt = (ref: PortRef) => unavailable.get(ref.node)?.get(ref.port);
  const backendOf = (node: PlannedNode, params: Record<string, unknown>): Partial<NodeEstimate> => {
    const connected = new Set(node.bindings.keys());
    const review = reviewNode(node.def, params, connected, deps.review);
    const price = priceNode(node.def, params, connected, deps.price);
    return {
      ...(review === undefined || review.notes.length === 0 ? {} : { backend: { label: review.label, notes: review.notes } }),
      ...(review?.servers === undefined ? {} : { servers: review.servers }),
      ...(price === undefined ? {} : { price }),
    };
  };

  const estimateNode = async (node: PlannedNode): Promise<NodeEstimate> => {
    const base = { nodeId: node.id, cached: false, unknownUntilUpstreamRuns: false, cacheable: true, costKnown: true, ...FREE };
    const deadUpstream = node.dependsOn.map((id) => dead.get(id)).find((d) => d !== undefined);
    if (deadUpstream) {
      dead.set(node.id, deadUpstream);
      return { ...base, status: 'skipped', reason: deadUpstream.reason };
    }
    if (node.cannotRun !== undefined) {
      dead.set(node.id, { because: node.id, reason: `'${node.id}' cannot run on this backend` });
      return { ...base, status: 'fails', reason: node.cannotRun };
    }
    const waiting = node.dependsOn.some((id) => pending.has(id));
    if (node.passThrough) {
      if (waiting) {
        pending.add(node.id);
        // What it cannot pass is known already: the nodes it would feed are skipped either way.
        unavailable.set(node.id, new Map([...node.passThrough.unavailable].map(([name, reason]) => [name, { because: node.id, reason }])));
      } else {
        const result = bypassOutputs({ ...node, name: nodeName(node, node.def), outputs: node.outputs, passThrough: node.passThrough }, known, unavailableAt);
        known.set(node.id, result.outputs);
        unavailable.set(node.id, result.unavailable);
      }
      return { ...base, status: 'bypassed', cacheable: false, unknownUntilUpstreamRuns: waiting };
    }
    const blocked = [...node.bindings.values()].map(unavailableAt).find((u) => u !== undefined);
    if (blocked) {
      dead.set(node.id, blocked);
      return { ...base, status: 'skipped', reason: blocked.reason };
    }
    if (waiting) {
      pending.add(node.id);
      const params = parseParams(node.def, node.params) ?? node.params;
      const cacheable = node.reuseCached && (node.def.cacheable?.(params) ?? true);
      const fansOut = fanning.has(node.id) ? { fansOut: true } : {};
      return runs(base, nodeCost(node.def, node.params), { unknownUntilUpstreamRuns: true, cacheable, ...fansOut, ...backendOf(node, params) });
    }

    let fan: FanOut | undefined;
    let values: Record<string, Value>;
    try {
      values = upstreamValues(node, known);
      fan = fanOutOf(node.inputs, values, node.fanOut);
    } catch (error) {
      dead.set(node.id, { because: node.id, reason: `'${node.id}' failed` });
      return { ...base, status: 'fails', reason: toNodeError(error, []).message };
    }
    if (fan?.count === 0) {
      const empty = fan.lists.find((l) => l.length === 0)!;
      const reason = `input '${empty.label}' gets an empty list: nothing to run`;
      dead.set(node.id, { because: node.id, reason });
      return { ...base, status: 'skipped', reason };
    }
    const count = fan?.count ?? 1;
    const items = fan === undefined ? {} : { items: count, itemsDescription: describeCount(fan) };
    const calls = await Promise.all(Array.from({ length: count }, (_, i) => estimateCall(node, fan?.itemInputs(i) ?? values, scope)));
    const failing = calls.findIndex((c) => c.status === 'fails');
    if (failing >= 0) {
      const { reason } = calls[failing] as Extract<CallEstimate, { status: 'fails' }>;
      dead.set(node.id, { because: node.id, reason: `'${node.id}' failed` });
      return { ...base, ...items, status: 'fails', reason: fan === undefined ? reason : `item ${failing + 1} of ${count}: ${reason}` };
    }
    const done = calls as Exclude<CallEstimate, { status: 'fails' }>[];
    const outputs = done.map((c) => c.outputs);
    const apiCallsSaved = done.reduce((n, c) => n + (c.status === 'cached' ? c.apiCallsSaved : 0), 0);
    const cachedItems = done.filter((c) => c.status === 'cached').length;
    if (outputs.every((o) => o !== undefined)) {
      try {
        known.set(node.id, fan === undefined ? outputs[0]! : gatherOutputs(outputs));
      } catch {
        pending.add(node.id);
      }
    } else {
      pending.add(node.id);
    }
    if (cachedItems === count) {
      const whole = known.get(node.id);
      if (whole !== undefined && deps.onCached) {
        const times = done.flatMap((c) => (c.status === 'cached' && c.at !== undefined ? [c.at] : []));
        deps.onCached(node.id, whole, times.length === count ? Math.max(...times) : undefined);
      }
      return { ...base, ...items, ...(fan ? { cachedItems } : {}), status: 'cached', cached: true, apiCallsSaved };
    }
    const running = done.filter((c): c is Extract<CallEstimate, { status: 'runs' }> => c.status === 'runs');
    const cacheable = running.every((c) => c.cacheable);
    const extra = { ...items, ...(fan ? { cachedItems } : {}), apiCallsSaved, cacheable, ...backendOf(node, running[0]!.params) };
    return runs(base, sumCosts(running.map((c) => c.cost)), extra);
  };

  // Each node starts once the nodes it depends on are estimated, so independent branches hash
  // and read the cache at the same time; the plan's order makes every dependency known first.
  const estimates = new Map<string, Promise<NodeEstimate>>();
  for (const node of planned.plan.nodes) {
    estimates.set(node.id, Promise.all(node.dependsOn.map((id) => estimates.get(id)!)).then(() => estimateNode(node)));
  }
  const nodes = await Promise.all(estimates.values());
  return { ok: true, nodes, totals: totalsOf(nodes), warnings };
}

function totalsOf(nodes: readonly NodeEstimate[]): EstimateTotals {
  const totals: EstimateTotals = {
    apiCalls: 0, imageCalls: 0, chatCalls: 0, images: 0, priceUnits: 0, chatMaxTokens: 0, cachedNodes: 0, callsSavedByCache: 0, unknownNodes: 0,
  };
  for (const n of nodes) {
    totals.apiCalls += n.apiCalls;
    totals.imageCalls += n.imageCalls;
    totals.chatCalls += n.chatCalls;
    totals.images += n.images;
    totals.priceUnits += n.priceUnits;
    if (n.chatCalls > 0) totals.chatMaxTokens = n.maxTokens === undefined || totals.chatMaxTokens === null ? null : totals.chatMaxTokens + n.maxTokens * n.chatCalls;
    if (n.cached) totals.cachedNodes++;
    if (n.servers !== undefined && n.imageCalls > 0) totals.servers = Math.max(totals.servers ?? 0, n.servers);
    totals.callsSavedByCache += n.apiCallsSaved;
    if (n.unknownUntilUpstreamRuns) totals.unknownNodes++;
    if (n.items !== undefined || n.fansOut === true) {
      totals.fanOut ??= { nodes: 0, items: 0, unknownNodes: 0 };
      totals.fanOut.nodes++;
      totals.fanOut.items += n.items ?? 0;
      if (n.fansOut === true) totals.fanOut.unknownNodes++;
    }
  }
  const price = priceTotals(nodes);
  if (price !== undefined) totals.price = price;
  return totals;
}
