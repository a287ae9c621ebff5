/**
 * The executor: a plain module that plans a workflow, schedules its nodes,
 * runs each with the cache (or passes a bypassed node's inputs on) and reports everything as one
 * stream of events. The worker entry, the CLI and the tests wrap it in a few lines each; it knows
 * neither the DOM nor Node.
 */
import { nodeName } from '../nodes/labels';
import type { RunContext } from '../nodes/types';
import type { Workflow } from '../workflow/schema';
import { bypassOutputs, type PassThrough, type Unavailable } from './bypass';
import { createMemoryCache, type CacheStore } from './cache';
import { toNodeError, type ExecutorEvent, type FanOutCounts, type NodeCounts, type NodeOutputs, type RunSummary } from './events';
import { planRun, type PlanOptions, type PlannedNode, type PortRef } from './plan';
import { cacheContextOf } from './prepare';
import { createAssetResolver } from './assets';
import { createMemoryAssetStore, type AssetStore } from '../assets/store';
import { DEFAULT_MAX_FAN_OUT, type FanOutAsk, type FanOutEnv } from './run-fan-out';
import { runNode } from './run-node';
import { schedule, type TaskSkipped, type TaskStatus } from './schedule';
import { createSlots } from './slots';
import { addUsage, emptyUsage } from '../api/usage';
import { reviewOf } from './backend-review';
import type { NodeRegistry } from './validate';
import { keyedRecord } from '../workflow/keys';

export const DEFAULT_CONCURRENCY = 4;

export interface ExecutorDeps {
  registry: NodeRegistry;
  /** The API clients; the executor gives each node a counting, cancellable view of them. */
  api: RunContext['api'];
  settings: RunContext['settings'];
  /** How many nodes may run at once (a user setting). Default 4. */
  concurrency?: number;
  /**
   * Where the images that parameters refer to (`asset:sha256:…`) are read from: the IndexedDB
   * store the page shares in the editor's worker, an in-memory one elsewhere (the default).
   */
  assets?: AssetStore;
  /** Where results are kept between runs; an in-memory LRU by default. */
  cache?: CacheStore;
  /** Milliseconds from a monotonic clock, for durations. */
  now?: () => number;
  /** Strings never to let into an error message or event (the token). */
  secrets?: readonly string[];
  /**
   * Names the service behind `api` (its base URLs, never the token), so results from the local
   * engines are not served once the user points the editor at the real ones.
   */
  cacheScope?: string;
  /** Seeds for nodes whose seed is random; from `crypto.getRandomValues` by default. */
  randomSeed?: () => number;
  /** Runs one fan-out of a node that calls an API may make without asking; 64 by default. */
  maxFanOut?: number;
}

/** A uniformly random seed in the range every engine takes (0 to 2^32 - 1). */
function cryptoSeed(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/** What to run, plus how to watch and stop it. */
export type RunOptions = PlanOptions & {
  /** Told of every event as it happens, synchronously. */
  onEvent?: (event: ExecutorEvent) => void;
  /** Aborting it cancels this run only; `cancel()` cancels every run. */
  signal?: AbortSignal;
  /** Overrides the executor's concurrency for this run. */
  concurrency?: number;
  /** Names the run in its events; a counter by default. */
  runId?: string;
  /** Overrides the executor's fan-out limit for this run. */
  maxFanOut?: number;
  /**
   * Asked when a node would run more times than the limit allows, before it sends anything; the
   * node fails saying why when this is absent or answers no.
   */
  confirmFanOut?: (ask: FanOutAsk) => Promise<boolean>;
};

export interface Executor {
  /**
   * Runs the workflow (or the part `options` selects) and resolves with its summary once every
   * node has ended; never rejects for a node's failure, an invalid workflow or a cancel.
   */
  run(workflow: Workflow, options?: RunOptions): Promise<RunSummary>;
  /** Cancels every run in progress at once: requests in flight are aborted. */
  cancel(): void;
  readonly cache: CacheStore;
}

export function createExecutor(deps: ExecutorDeps): Executor {
  const cache = deps.cache ?? createMemoryCache();
  const assets = createAssetResolver(deps.assets ?? createMemoryAssetStore());
  const now = deps.now ?? (() => performance.now());
  const secrets = deps.secrets ?? [];
  const active = new Set<AbortController>();
  let runs = 0;

  async function run(workflow: Workflow, options: RunOptions = { mode: 'all' }): Promise<RunSummary> {
    const runId = options.runId ?? `run-${++runs}`;
    const started = now();
    const warnings: string[] = [];
    const emit = (event: ExecutorEvent) => {
      try {
        options.onEvent?.(event);
      } catch (error) {
        // A listener's bug must not corrupt the run; it is reported with the summary.
        warnings.push(`the event listener failed on '${event.type}': ${toNodeError(error, secrets).message}`);
      }
    };
    const counts: NodeCounts = { planned: 0, done: 0, cached: 0, bypassed: 0, failed: 0, skipped: 0, cancelled: 0 };
    const usage = emptyUsage();
    const usageSaved = emptyUsage();
    const summary = (status: RunSummary['status'], extra: Partial<RunSummary> = {}): RunSummary => ({
      runId, status, problems: [], failures: [], nodes: counts, apiCalls: 0, apiCallsSaved: 0, usage, usageSaved,
      durationMs: now() - started, warnings, ...extra,
    });

    const planOptions: PlanOptions = options.mode === 'all' ? { mode: 'all' } : { mode: options.mode, nodeId: options.nodeId };
    const planned = planRun(workflow, deps.registry, planOptions, reviewOf(deps.api.image));
    if (!planned.ok) {
      emit({ type: 'run-started', runId, mode: planOptions.mode, nodeIds: [] });
      const result = summary('invalid', { problems: planned.problems });
      emit({ type: 'run-finished', runId, summary: result });
      return result;
    }

    const controller = new AbortController();
    const onOuterAbort = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) controller.abort(options.signal.reason);
    options.signal?.addEventListener('abort', onOuterAbort, { once: true });
    active.add(controller);

    const { nodes } = planned.plan;
    const byId = new Map(nodes.map((n) => [n.id, n]));
    counts.planned = nodes.length;
    emit({ type: 'run-started', runId, mode: planOptions.mode, nodeIds: nodes.map((n) => n.id) });
    for (const n of nodes) emit({ type: 'node-queued', runId, nodeId: n.id });
    // A pool's servers, for the run panel, while this run goes (labels only: api/client-types.ts).
    const unwatch = deps.api.image.watchServers?.((report) => {
      emit({ type: 'pool-status', runId, pool: report.pool, engines: report.engines, servers: report.servers });
    });

    const outputs = new Map<string, NodeOutputs>();
    // Outputs of bypassed nodes that carry nothing, and why: the nodes wired to them are skipped.
    const unavailable = new Map<string, ReadonlyMap<string, Unavailable>>();
    const unavailableAt = (ref: PortRef) => unavailable.get(ref.node)?.get(ref.port);
    const failures: RunSummary['failures'] = [];
    let apiCalls = 0;
    let apiCallsSaved = 0;
    const fanOut: FanOutCounts = { nodes: 0, items: 0, cachedItems: 0, failedItems: 0 };
    const env: FanOutEnv = {
      runId, signal: controller.signal, api: deps.api, settings: deps.settings, cache, assets, secrets, now, emit, randomSeed: deps.randomSeed ?? cryptoSeed,
      cacheContext: cacheContextOf(deps.settings, deps.cacheScope),
      // Every call of a node's run, single or one item of many, takes a slot: the cap holds for both.
      slots: createSlots(options.concurrency ?? deps.concurrency ?? DEFAULT_CONCURRENCY, controller.signal),
      maxFanOut: options.maxFanOut ?? deps.maxFanOut ?? DEFAULT_MAX_FAN_OUT,
      ...(options.confirmFanOut === undefined ? {} : { confirmFanOut: options.confirmFanOut }),
      warn: (message) => warnings.push(message),
    };

    const bypass = (node: PlannedNode, passThrough: PassThrough): 'done' => {
      const result = bypassOutputs({ ...node, name: nodeName(node, node.def), outputs: node.outputs, passThrough }, outputs, unavailableAt);
      outputs.set(node.id, result.outputs);
      if (result.unavailable.size > 0) unavailable.set(node.id, result.unavailable);
      counts.bypassed++;
      const passed = keyedRecord([...passThrough.passed].filter(([name]) => Object.hasOwn(result.outputs, name)));
      const missing = keyedRecord([...result.unavailable].map(([name, u]) => [name, u.reason] as const));
      emit({ type: 'node-bypassed', runId, nodeId: node.id, passed, unavailable: missing });
      return 'done';
    };

    try {
      await schedule(nodes, {
        // Nodes start as soon as their inputs are ready; the slots (env.slots) cap what runs at once.
        concurrency: Number.POSITIVE_INFINITY,
        signal: controller.signal,
        async execute(id): Promise<TaskStatus | TaskSkipped> {
          const node = byId.get(id)!;
          if (node.passThrough) return bypass(node, node.passThrough);
          const blocked = [...node.bindings.values()].map(unavailableAt).find((u) => u !== undefined);
          if (blocked) {
            counts.skipped++;
            emit({ type: 'node-skipped', runId, nodeId: id, because: blocked.because, reason: blocked.reason });
            return { skipped: true, ...blocked };
          }
          const outcome = await runNode(node, outputs, env);
          apiCalls += outcome.apiCalls;
          addUsage(usage, outcome.usage);
          if (outcome.status === 'skipped') {
            counts.skipped++;
            return { skipped: true, because: outcome.because, reason: outcome.reason };
          }
          if (outcome.fanOut) {
            fanOut.nodes++;
            fanOut.items += outcome.fanOut.items;
            fanOut.cachedItems += outcome.fanOut.cachedItems;
            fanOut.failedItems += outcome.fanOut.failedItems;
          }
          if (outcome.status === 'done') {
            outputs.set(id, outcome.outputs);
            if (outcome.cached) counts.cached++;
            else counts.done++;
            apiCallsSaved += outcome.apiCallsSaved;
            if (outcome.usageSaved) addUsage(usageSaved, outcome.usageSaved);
          } else if (outcome.status === 'failed') {
            counts.failed++;
            failures.push({ nodeId: id, error: outcome.error });
          } else {
            counts.cancelled++;
          }
          return outcome.status;
        },
        skip(id, because, reason) {
          counts.skipped++;
          emit({ type: 'node-skipped', runId, nodeId: id, because, reason: reason ?? `'${because}' failed` });
        },
        cancel(id) {
          counts.cancelled++;
          emit({ type: 'node-cancelled', runId, nodeId: id });
        },
      });
    } finally {
      unwatch?.();
      active.delete(controller);
      options.signal?.removeEventListener('abort', onOuterAbort);
    }

    const status = counts.cancelled > 0 ? 'cancelled' : counts.failed > 0 ? 'failed' : 'succeeded';
    const result = summary(status, { failures, apiCalls, apiCallsSaved, ...(fanOut.nodes > 0 ? { fanOut } : {}) });
    emit({ type: 'run-finished', runId, summary: result });
    return result;
  }

  return {
    run,
    cancel() {
      for (const controller of active) controller.abort(new DOMException('The run was cancelled', 'AbortError'));
    },
    cache,
  };
}
