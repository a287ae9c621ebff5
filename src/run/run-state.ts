/**
 * What the page knows about runs: per node a status (phase, timings, progress, streamed text,
 * the error) and a result (outputs, images behind object URLs), each in its own keyed store so
 * a text chunk never re-renders an image; and an overview of the run for the run panel. Plain
 * module, no React: `applyEvent` is the one place executor events change the page's state.
 */
import type { NodeError, RunSummary } from '../../workers/events';
import type { UiEvent } from '../../workers/transfer';
import type { CachedResult } from '../../workers/worker-api';
import type { WorkflowProblem } from '../../workers/validate';
import { describeCount } from '../../nodes/list-flow';
import { gatherShown, releaseOutputs, toShownOutputs, type ShownValue, type UrlFactory } from '../results/object-urls';
import { createKeyedStore, createSmallStore, type KeyedStore, type SmallStore } from '../ui/small-store';
import { withPoolStatus, type PoolView } from './servers-state';

export type NodePhase = 'invalid' | 'queued' | 'running' | 'done' | 'cached' | 'bypassed' | 'failed' | 'skipped' | 'cancelled';

export interface NodeRunState {
  runId: string;
  phase: NodePhase;
  /** Page clock (performance.now) when the node began running, for the elapsed time. */
  startedAt?: number;
  durationMs?: number;
  /** 0 to 1, with what the node says it is doing. */
  progress?: number;
  message?: string;
  /** Chat text streamed in so far (kept when the node fails or is cancelled). */
  text: string;
  error?: NodeError;
  /** The upstream node that caused a skip, and why in words. */
  because?: string;
  reason?: string;
  /** A bypassed node: which input each output passed on, and outputs left without a value (why). */
  passed?: Record<string, string>;
  unavailable?: Record<string, string>;
  /** The retry under way, when a request failed in a way worth retrying. */
  retry?: { attempt: number; maxAttempts: number; reason: string };
  apiCallsSaved?: number;
  /** Validation problems on this node when the run was refused. */
  problems?: WorkflowProblem[];
  /** A node that runs once per item: how many runs ("8 × 3 = 24"), and how far they are. */
  fanOut?: FanOutProgress;
  /** What its result carries that the reader should know: "stopped at max_tokens: 50". */
  notes?: string[];
}

export interface FanOutProgress {
  count: number;
  /** "8", or "8 × 3 = 24" for every combination of two lists. */
  description: string;
  done: number;
  cached: number;
  /** Items that failed, by index, with why. */
  failed: Record<number, NodeError>;
}

/** One item of a node that ran once per item: its outputs, or why it failed. */
export type ItemResult = { outputs: Record<string, ShownValue>; cached: boolean } | { error: NodeError };

export interface NodeResult {
  runId: string;
  /** For a node that ran once per item, its items' outputs put together, in item order. */
  outputs: Record<string, ShownValue>;
  cached: boolean;
  /** A node that runs once per item: each item as it ends (a hole until then). */
  items?: (ItemResult | undefined)[];
  /**
   * Shown again from the cache, not made by a run of this page (after a reload, or on opening a
   * workflow whose results are cached): when it was made (ms since the epoch), null if unknown.
   */
  restored?: { at: number | null };
  /** A component instance's: its images are its inner nodes' (component-rollup.ts), released by them, never through it. */
  borrowed?: true;
}

/** The run id of results shown from the cache without a run. */
export const RESTORED_RUN = 'restored';

export interface RunOverview {
  running: boolean;
  runId?: string;
  /** Page clock when the run was asked for. */
  startedAt?: number;
  /** Every validation problem of the last run asked for; empty once a valid run starts. */
  problems: WorkflowProblem[];
  /** The last finished run's summary. */
  summary?: RunSummary;
  /** Why the last run could not happen at all (the worker failed), never a node's failure. */
  error?: string;
}

export interface RunState {
  status: KeyedStore<NodeRunState>;
  results: KeyedStore<NodeResult>;
  overview: SmallStore<RunOverview>;
  /** The servers of each pool as last reported (servers-state.ts). */
  pools: SmallStore<readonly PoolView[]>;
}

export function createRunState(): RunState {
  return {
    status: createKeyedStore<NodeRunState>(),
    results: createKeyedStore<NodeResult>(),
    overview: createSmallStore<RunOverview>({ running: false, problems: [] }),
    pools: createSmallStore<readonly PoolView[]>([]),
  };
}

export interface ApplyDeps {
  urls: UrlFactory;
  now(): number;
}

function update(state: RunState, nodeId: string, runId: string, change: (prev: NodeRunState) => NodeRunState): void {
  const prev = state.status.get(nodeId);
  state.status.set(nodeId, change(prev?.runId === runId ? prev : { runId, phase: 'queued', text: '' }));
}

/** Marks a run as asked for, before the worker has said anything about it. */
export function beginRun(state: RunState, runId: string, startedAt: number): void {
  state.overview.set({ ...state.overview.get(), running: true, runId, startedAt, problems: [], error: undefined });
}

/**
 * Applies one executor event to the page's state. Events of any run but the one asked for last
 * (`beginRun`) are ignored: a late event must not overwrite the current run's state.
 */
export function applyEvent(state: RunState, event: UiEvent, deps: ApplyDeps): void {
  const { runId } = event;
  if (runId !== state.overview.get().runId) return;
  switch (event.type) {
    case 'run-started': {
      // Statuses from an earlier run no longer describe the graph; results stay until replaced.
      const planned = new Set(event.nodeIds);
      for (const id of [...state.status.keys()]) if (!planned.has(id)) state.status.set(id, undefined);
      return;
    }
    case 'node-queued':
      state.status.set(event.nodeId, { runId, phase: 'queued', text: '' });
      return;
    case 'node-started':
      update(state, event.nodeId, runId, (p) => ({ ...p, phase: 'running', startedAt: deps.now(), progress: 0 }));
      return;
    case 'node-progress':
      // An item's progress shows as the share of items done (node-item-done), not as its own.
      if (event.item !== undefined) return;
      update(state, event.nodeId, runId, (p) => ({ ...p, progress: event.fraction, message: event.message, retry: undefined }));
      return;
    case 'node-partial-text':
      if (event.item !== undefined) return;
      update(state, event.nodeId, runId, (p) => ({ ...p, text: p.text + event.delta, retry: undefined }));
      return;
    case 'node-fan-out':
      update(state, event.nodeId, runId, (p) => ({
        ...p, fanOut: { count: event.count, description: describeCount(event), done: 0, cached: 0, failed: {} },
      }));
      return;
    case 'node-item-started':
      return;
    case 'node-item-done':
      update(state, event.nodeId, runId, (p) => {
        const f = p.fanOut ?? { count: event.count, description: String(event.count), done: 0, cached: 0, failed: {} };
        const done = f.done + 1;
        return { ...p, progress: done / f.count, fanOut: { ...f, done, cached: f.cached + (event.cached ? 1 : 0) } };
      });
      setItem(state, event.nodeId, runId, event.item, event.count, { outputs: toShownOutputs(event.outputs, deps.urls), cached: event.cached }, deps.urls);
      return;
    case 'node-item-failed':
      update(state, event.nodeId, runId, (p) => {
        const f = p.fanOut ?? { count: event.count, description: String(event.count), done: 0, cached: 0, failed: {} };
        return { ...p, fanOut: { ...f, failed: { ...f.failed, [event.item]: event.error } } };
      });
      setItem(state, event.nodeId, runId, event.item, event.count, { error: event.error }, deps.urls);
      return;
    case 'node-retry':
      update(state, event.nodeId, runId, (p) => ({ ...p, retry: { attempt: event.attempt, maxAttempts: event.maxAttempts, reason: event.reason } }));
      return;
    case 'node-cached':
      update(state, event.nodeId, runId, (p) => ({ ...p, phase: 'cached', apiCallsSaved: event.apiCallsSaved }));
      return;
    case 'node-done': {
      update(state, event.nodeId, runId, (p) => ({
        ...p, phase: event.cached ? 'cached' : 'done', durationMs: event.durationMs, progress: 1, retry: undefined, notes: event.notes,
      }));
      const previous = state.results.get(event.nodeId);
      if (event.items !== undefined) {
        // Its items came one by one (node-item-done) and are shown already.
        if (previous?.runId === runId) state.results.set(event.nodeId, { ...previous, cached: event.cached });
        return;
      }
      state.results.set(event.nodeId, { runId, outputs: toShownOutputs(event.outputs, deps.urls), cached: event.cached });
      if (previous) releaseOutputs(previous.outputs, deps.urls);
      return;
    }
    case 'node-failed':
      update(state, event.nodeId, runId, (p) => ({ ...p, phase: 'failed', error: event.error, durationMs: event.durationMs, retry: undefined }));
      return;
    case 'node-cancelled':
      update(state, event.nodeId, runId, (p) => ({ ...p, phase: 'cancelled', retry: undefined }));
      return;
    case 'node-skipped':
      update(state, event.nodeId, runId, (p) => ({ ...p, phase: 'skipped', because: event.because, reason: event.reason }));
      return;
    case 'node-bypassed':
      update(state, event.nodeId, runId, (p) => ({ ...p, phase: 'bypassed', passed: event.passed, unavailable: event.unavailable }));
      return;
    case 'node-request':
      return;
    case 'pool-status':
      state.pools.set(withPoolStatus(state.pools.get(), event));
      return;
    case 'run-finished':
      finishRun(state, event.summary);
      return;
    default: {
      // A new kind of event must be given a place here: the type check says so.
      const unhandled: never = event;
      void unhandled;
    }
  }
}

/**
 * Puts one item's ending into the node's result: the first item of a run replaces the earlier
 * run's result (releasing its images); the outputs are the items so far, put together.
 */
function setItem(state: RunState, nodeId: string, runId: string, item: number, count: number, result: ItemResult, urls: UrlFactory): void {
  const previous = state.results.get(nodeId);
  const fresh = previous?.runId !== runId || previous.items === undefined;
  const items = fresh ? new Array<ItemResult | undefined>(count).fill(undefined) : [...previous.items!];
  items[item] = result;
  const outputs = gatherShown(items.map((i) => (i !== undefined && 'outputs' in i ? i.outputs : undefined)));
  state.results.set(nodeId, { runId, outputs, cached: false, items });
  if (fresh && previous) releaseOutputs(previous.outputs, urls);
}

/** Records a finished run: its summary, and on each node the problems that refused it. */
export function finishRun(state: RunState, summary: RunSummary): void {
  const overview = state.overview.get();
  // The summary arrives twice (the last event and the run's result): the first one counts.
  if (summary.runId !== overview.runId || overview.summary?.runId === summary.runId) return;
  if (summary.status === 'invalid') {
    const byNode = new Map<string, WorkflowProblem[]>();
    for (const p of summary.problems) byNode.set(p.nodeId, [...(byNode.get(p.nodeId) ?? []), p]);
    for (const [nodeId, problems] of byNode) state.status.set(nodeId, { runId: summary.runId, phase: 'invalid', text: '', problems });
  }
  state.overview.set({ ...overview, running: false, summary, problems: summary.problems, error: undefined });
}

/**
 * Ends a run the worker could not finish (it crashed or stopped answering): nodes still queued
 * or running are marked cancelled, and the reason is kept for the run panel.
 */
export function abandonRun(state: RunState, runId: string, reason: string): void {
  if (runId !== state.overview.get().runId) return;
  for (const id of [...state.status.keys()]) {
    const s = state.status.get(id);
    if (s && s.runId === runId && (s.phase === 'queued' || s.phase === 'running')) state.status.set(id, { ...s, phase: 'cancelled' });
  }
  state.overview.set({ ...state.overview.get(), running: false, error: reason });
}

/** Forgets nodes that are no longer in the workflow, revoking their images' object URLs. */
export function pruneNodes(state: RunState, keep: ReadonlySet<string>, urls: UrlFactory): void {
  // A component's inner nodes (`instance/inner`) stay while their instance does.
  const kept = (id: string) => keep.has(id) || keep.has(id.split('/', 1)[0]!);
  for (const id of [...state.results.keys()]) {
    if (kept(id)) continue;
    const result = state.results.get(id);
    state.results.set(id, undefined);
    if (result && !result.borrowed) releaseOutputs(result.outputs, urls);
  }
  for (const id of [...state.status.keys()]) if (!kept(id)) state.status.set(id, undefined);
}

/** Forgets every result, revoking every object URL (the provider unmounts). */
export function releaseAll(state: RunState, urls: UrlFactory): void {
  pruneNodes(state, new Set(), urls);
}

/**
 * Shows cached results on nodes that have none (a run's own results always win), marked as
 * restored. Not during a run: its results are on their way.
 */
export function restoreResults(state: RunState, found: readonly CachedResult[], urls: UrlFactory): void {
  if (state.overview.get().running) return;
  for (const { nodeId, outputs, at } of found) {
    if (state.results.get(nodeId) !== undefined) continue;
    state.results.set(nodeId, { runId: RESTORED_RUN, outputs: toShownOutputs(outputs, urls), cached: true, restored: { at: at ?? null } });
  }
}

/** Takes back restored results of nodes the cache no longer answers for (an edit made them stale). */
export function dropRestored(state: RunState, stillCached: ReadonlySet<string>, urls: UrlFactory): void {
  for (const id of [...state.results.keys()]) {
    const result = state.results.get(id);
    if (!result?.restored || stillCached.has(id)) continue;
    state.results.set(id, undefined);
    releaseOutputs(result.outputs, urls);
  }
}
