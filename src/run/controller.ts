/**
 * Runs as the editor sees them, without React: one run at a time, its events applied to the
 * run state, the worker's failures turned into a reason the run panel can show. It keeps, for
 * every run whose results are still shown, the workflow snapshot it ran and the requests each
 * node sent, so a download can carry the workflow as it was run and the request that made it.
 */
import type { CacheStats } from '../../workers/cache';
import type { RunEstimate } from '../../workers/estimate';
import type { ApiCallRecord, RunSummary } from '../../workers/events';
import type { PlanOptions } from '../../workers/plan';
import { seedUsed } from '../../nodes/seed-used';
import type { UiEvent } from '../../workers/transfer';
import type { FanOutConfirm, WorkerSettings } from '../../workers/worker-api';
import type { Workflow } from '../../workflow/schema';
import type { UrlFactory } from '../results/object-urls';
import { RESTORED_RUN, abandonRun, applyEvent, beginRun, createRunState, dropRestored, finishRun, pruneNodes, releaseAll, restoreResults, type RunState } from './run-state';
import type { RunClient } from './worker-client';
import { faceSources, rollUp, type FaceSources } from './component-rollup';
import { flattenComponents } from '../../workflow/flatten';

/** What the page keeps about one run: what was sent, and what each node asked of the APIs. */
export interface RunRecord {
  runId: string;
  /** The snapshot the worker ran (edits made during the run are not in it). */
  workflow: Workflow;
  options: PlanOptions;
  /** Requests each node sent, in order (image data elided by the executor). */
  calls: Map<string, ApiCallRecord[]>;
  /**
   * The seed each node that made images used, as it ended: with it a download and the history
   * carry the workflow with its seeds pinned (workers/seeds.ts `pinSeedsUsed`), so it runs
   * again to the same pictures while the edited document keeps "random each run".
   */
  seeds: Map<string, number>;
}

/** Told of every event of every run, after the run state has taken it in. */
export type RunListener = (event: UiEvent, run: RunRecord) => void;

export interface RunController {
  readonly state: RunState;
  /** Starts a run unless one is in progress; resolves with its summary (undefined if none ran). */
  run(workflow: Workflow, options?: PlanOptions): Promise<RunSummary | undefined>;
  cancel(): void;
  /** The run a shown result came from, while any of its results are shown. */
  runOf(runId: string): RunRecord | undefined;
  listen(listener: RunListener): () => void;
  /** The cost of running `options`'s part of `workflow` now; rejects when the settings stop runs. */
  estimate(workflow: Workflow, options: PlanOptions): Promise<RunEstimate>;
  cacheStats(): Promise<CacheStats>;
  /** Forgets every cached result, then tells the `onCacheCleared` listeners. */
  clearCache(): Promise<void>;
  /** Told after the cache was cleared (the estimate asks again); returns how to stop. */
  onCacheCleared(listener: () => void): () => void;
  /**
   * Shows the cache's results for the nodes of `workflow` that show none (after a reload, or on
   * opening a workflow run before), marked as restored; sends nothing. Not during a run.
   */
  restoreCached(workflow: Workflow): Promise<void>;
  /** Takes back restored results of nodes not in `stillCached` (an edit made them stale). */
  dropRestored(stillCached: ReadonlySet<string>): void;
  /** Forgets results of nodes not in `nodeIds`, releasing their images. */
  prune(nodeIds: Iterable<string>): void;
  /**
   * Another document replaced the one that ran: every node's status and result and the last
   * run's summary are forgotten (a node of the new one may share an id with one that ran). Not
   * during a run, which goes on with the snapshot it was given and reports as usual.
   */
  forgetRuns(): void;
  /** The prompt fields' token count, by the worker, which holds the CLIP word list. */
  countPromptTokens: RunClient['countPromptTokens'];
  /** A batch's snapshots and the seeds after it, planned by the worker (RunClient.planBatch). */
  planBatch: RunClient['planBatch'];
  /** A run's workflow with its seeds pinned, by the worker (RunClient.pinSeeds). */
  pinSeeds: RunClient['pinSeeds'];
  /** A backend's names for the settings' suggestions (RunClient.listBackendNames). */
  listBackendNames: RunClient['listBackendNames'];
  dispose(): void;
}

export interface RunControllerDeps {
  client: RunClient;
  /** Read at every run, so a change in the settings applies to the next run. */
  settings(): WorkerSettings;
  urls?: UrlFactory;
  now?: () => number;
  /** Asks the person whether a fan-out above the limit may run; without it such a fan-out fails, saying why. */
  confirmFanOut?: FanOutConfirm;
}

export function createRunController(deps: RunControllerDeps): RunController {
  const state = createRunState();
  const urls = deps.urls ?? URL;
  const now = deps.now ?? (() => performance.now());
  const records = new Map<string, RunRecord>();
  const listeners = new Set<RunListener>();
  const cacheListeners = new Set<() => void>();
  let runs = 0;

  /** Keeps the records of runs whose results are still shown, and of the current run. */
  const forgetUnused = () => {
    const used = new Set<string>();
    for (const id of state.results.keys()) {
      const result = state.results.get(id);
      if (result) used.add(result.runId);
    }
    const current = state.overview.get().runId;
    for (const runId of records.keys()) if (!used.has(runId) && runId !== current) records.delete(runId);
  };

  /** What a workflow's instances show of their inner nodes, worked out once per snapshot. */
  const componentViews = new WeakMap<Workflow, { faces: FaceSources; titles: Map<string, string> }>();
  const rollUpFor = (workflow: Workflow, nodeId: string, runId: string) => {
    let views = componentViews.get(workflow);
    if (!views) {
      const flat = flattenComponents(workflow);
      const titles = new Map(flat.ok ? flat.workflow.nodes.flatMap((n) => (n.title === undefined ? [] : [[n.id, n.title] as const])) : []);
      componentViews.set(workflow, (views = { faces: faceSources(workflow), titles }));
    }
    rollUp(state, nodeId, runId, views.faces, views.titles);
  };

  const observe = (event: UiEvent, record: RunRecord) => {
    if (event.type === 'node-request') {
      const list = record.calls.get(event.nodeId) ?? [];
      list.push(event.call);
      record.calls.set(event.nodeId, list);
    }
    if (event.type === 'node-done') {
      const seed = seedUsed(event.outputs);
      if (seed !== undefined) record.seeds.set(event.nodeId, seed);
    }
    applyEvent(state, event, { urls, now });
    if ('nodeId' in event && event.nodeId.includes('/')) rollUpFor(record.workflow, event.nodeId, record.runId);
    for (const listener of [...listeners]) {
      try {
        listener(event, record);
      } catch (error) {
        // A listener (the run history) must never break the run's own display.
        console.error('a run listener failed', error);
      }
    }
  };

  return {
    state,
    async run(workflow, options = { mode: 'all' }) {
      if (state.overview.get().running) return undefined;
      // A page-chosen id: events can be matched to the run before the worker names it.
      const runId = `run-${++runs}`;
      const record: RunRecord = { runId, workflow, options, calls: new Map(), seeds: new Map() };
      records.set(runId, record);
      beginRun(state, runId, now());
      try {
        const settings = deps.settings();
        const summary = await deps.client.run(workflow, settings, { ...options, runId }, (event) => observe(event, record), deps.confirmFanOut);
        finishRun(state, summary);
        // Problems on inner nodes show on their instance too.
        if (summary.status === 'invalid') for (const p of summary.problems) if (p.nodeId.includes('/')) rollUpFor(workflow, p.nodeId, runId);
        return summary;
      } catch (error) {
        abandonRun(state, runId, error instanceof Error ? error.message : String(error));
        return undefined;
      } finally {
        forgetUnused();
      }
    },
    cancel() {
      if (state.overview.get().running) deps.client.cancel();
    },
    runOf: (runId) => records.get(runId),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async estimate(workflow, options) {
      return deps.client.estimate(workflow, deps.settings(), options);
    },
    cacheStats: () => deps.client.cacheStats(),
    async clearCache() {
      await deps.client.clearCache();
      for (const listener of [...cacheListeners]) listener();
    },
    onCacheCleared(listener) {
      cacheListeners.add(listener);
      return () => cacheListeners.delete(listener);
    },
    async restoreCached(workflow) {
      if (state.overview.get().running) return;
      // Nothing to show is no failure: an unreadable cache or refused settings leave the nodes empty.
      const found = await deps.client.cachedResults(workflow, deps.settings()).catch(() => []);
      restoreResults(state, found, urls);
      for (const { nodeId } of found) if (nodeId.includes('/')) rollUpFor(workflow, nodeId, RESTORED_RUN);
    },
    dropRestored(stillCached) {
      dropRestored(state, stillCached, urls);
    },
    prune(nodeIds) {
      pruneNodes(state, new Set(nodeIds), urls);
      forgetUnused();
    },
    forgetRuns() {
      if (state.overview.get().running) return;
      pruneNodes(state, new Set(), urls);
      forgetUnused();
      state.overview.set({ running: false, problems: [] });
    },
    countPromptTokens: (prompts) => deps.client.countPromptTokens(prompts),
    planBatch: (workflow, count, options) => deps.client.planBatch(workflow, count, options),
    pinSeeds: (workflow, used) => deps.client.pinSeeds(workflow, used),
    listBackendNames: (config, credential) => deps.client.listBackendNames(config, credential),
    dispose() {
      deps.client.dispose();
      releaseAll(state, urls);
      records.clear();
    },
  };
}
