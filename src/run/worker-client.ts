/**
 * The page's end of the executor's web worker (a thin adapter around the executor). The worker is
 * started on the first run, so it costs nothing at start-up, and replaced when it fails, so one
 * crash does not leave the editor unable to run.
 */
import { proxy, wrap, type Remote } from 'comlink';
import type { CacheStats } from '../../workers/cache';
import type { BatchPlan } from '../../workers/seeds';
import type { RunEstimate } from '../../workers/estimate';
import type { RunSummary } from '../../workers/events';
import type { PlanOptions } from '../../workers/plan';
import type { UiEvent } from '../../workers/transfer';
import type { BackendNamesAnswer, CachedResult, FanOutConfirm, WorkerApi, WorkerRunOptions, WorkerSettings } from '../../workers/worker-api';
import type { BackendConfig } from '../../api/backends/config';
import type { Workflow } from '../../workflow/schema';

export interface RunClient {
  /**
   * Sends the settings and a snapshot of the workflow; resolves with the summary after the last
   * event. Rejects only when the worker itself fails (it could not start, or crashed).
   */
  run(workflow: Workflow, settings: WorkerSettings, options: WorkerRunOptions, onEvent: (event: UiEvent) => void, confirmFanOut?: FanOutConfirm): Promise<RunSummary>;
  /** Cancels the run in progress; a worker that does not stop within `graceMs` is replaced. */
  cancel(graceMs?: number): void;
  /**
   * What running `options`'s part of the workflow would cost with these settings and the cache as
   * it is; sends nothing. Starts the worker if it is not running.
   */
  estimate(workflow: Workflow, settings: WorkerSettings, options: PlanOptions): Promise<RunEstimate>;
  /** The cached results of the nodes of `workflow` as it is now, with these settings; sends nothing. */
  cachedResults(workflow: Workflow, settings: WorkerSettings): Promise<CachedResult[]>;
  /** How full the result cache is, and whether it survives a reload. */
  cacheStats(): Promise<CacheStats>;
  /** Forgets every cached result. */
  clearCache(): Promise<void>;
  /** The CLIP tokens of each prompt (for the prompt fields' count). */
  countPromptTokens(prompts: readonly string[]): Promise<number[]>;
  /** A batch's snapshots, each with the seeds the run before it leaves (the worker plans it). */
  planBatch(workflow: Workflow, count: number, options: PlanOptions): Promise<BatchPlan>;
  /** The workflow with the seeds a run used fixed where they would not repeat (the worker decides which). */
  pinSeeds(workflow: Workflow, used: ReadonlyMap<string, number>): Promise<Workflow>;
  /** What a backend has, for the settings' suggestions (asked of that backend's URL only). */
  listBackendNames(config: BackendConfig, credential?: string): Promise<BackendNamesAnswer>;
  /** Stops the worker. */
  dispose(): void;
}

/** The real worker; tests give a MessagePort-backed fake that behaves the same. */
export type SpawnWorker = () => Worker;

const spawnExecutorWorker: SpawnWorker = () =>
  new Worker(new URL('../../workers/worker.ts', import.meta.url), { type: 'module', name: 'atelier-executor' });

interface Live {
  worker: Worker;
  api: Remote<WorkerApi>;
  /** Rejects when the worker reports an error it cannot recover from. */
  failed: Promise<never>;
  /** Set once `failed` has rejected. */
  dead: boolean;
}

export function createWorkerClient(spawn: SpawnWorker = spawnExecutorWorker): RunClient {
  let live: Live | undefined;
  let running: { fail(reason: Error): void } | undefined;
  let watchdog: ReturnType<typeof setTimeout> | undefined;

  function stop(reason: Error): void {
    clearTimeout(watchdog);
    live?.worker.terminate();
    live = undefined;
    running?.fail(reason);
  }

  function start(): Live {
    const worker = spawn();
    const failed = new Promise<never>((_, reject) => {
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        const detail = event.message ? `: ${event.message}` : ' (it could not be loaded, or threw outside any node)';
        reject(new Error(`the run's web worker failed${detail}`));
      });
      worker.addEventListener('messageerror', () => reject(new Error("the run's web worker sent a message the page could not read")));
    });
    const entry: Live = { worker, api: wrap<WorkerApi>(worker), failed, dead: false };
    failed.catch(() => {
      entry.dead = true;
    });
    return entry;
  }

  /** A call to the worker that fails, rather than hangs, when the worker dies under it. */
  async function ask<T>(call: (api: Remote<WorkerApi>) => Promise<T>): Promise<T> {
    live ??= start();
    const current = live;
    try {
      return await Promise.race([call(current.api), current.failed]);
    } catch (error) {
      // Only a dead worker is replaced; an estimate that failed for its own reasons leaves it be.
      if (live === current && current.dead && !running) {
        live.worker.terminate();
        live = undefined;
      }
      throw error;
    }
  }

  return {
    async run(workflow, settings, options, onEvent, confirmFanOut) {
      if (running) throw new Error('a run is already in progress: cancel it or wait for it to finish');
      live ??= start();
      const current = live;
      let fail!: (reason: Error) => void;
      const stopped = new Promise<never>((_, reject) => (fail = reject));
      running = { fail };
      try {
        const work = (async () => {
          await current.api.configure(settings);
          return await current.api.run(workflow, options, proxy(onEvent), confirmFanOut === undefined ? undefined : proxy(confirmFanOut));
        })();
        return await Promise.race([work, current.failed, stopped]);
      } catch (error) {
        // A worker that failed is not trusted with the next run.
        if (live === current) {
          live.worker.terminate();
          live = undefined;
        }
        throw error;
      } finally {
        clearTimeout(watchdog);
        running = undefined;
      }
    },

    cancel(graceMs = 3000) {
      if (!live || !running) return;
      void live.api.cancel().catch(() => undefined);
      clearTimeout(watchdog);
      watchdog = setTimeout(() => stop(new Error(`the run did not stop within ${graceMs / 1000} s of Cancel; its worker was stopped`)), graceMs);
    },

    estimate(workflow, settings, options) {
      return ask(async (api) => {
        // Settings first, on the same channel: comlink keeps the order of calls.
        await api.configure(settings);
        return api.estimate(workflow, options);
      });
    },

    cacheStats() {
      return ask((api) => api.cacheStats());
    },

    cachedResults(workflow, settings) {
      return ask(async (api) => {
        await api.configure(settings);
        return api.cachedResults(workflow);
      });
    },

    clearCache() {
      return ask((api) => api.clearCache());
    },

    countPromptTokens(prompts) {
      return ask((api) => api.countPromptTokens(prompts));
    },

    planBatch(workflow, count, options) {
      return ask((api) => api.planBatch(workflow, count, options));
    },

    pinSeeds(workflow, used) {
      return ask((api) => api.pinSeeds(workflow, used));
    },

    listBackendNames(config, credential) {
      return ask<BackendNamesAnswer>((api) => api.listBackendNames(config, credential));
    },

    dispose() {
      stop(new Error('the editor closed the run'));
    },
  };
}
