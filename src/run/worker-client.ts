/**
 * The page's end of the executor's web worker (CONVENTIONS 7: a thin adapter). The worker is
 * started on the first run, so it costs nothing at start-up, and replaced when it fails, so one
 * crash does not leave the editor unable to run.
 */
import { proxy, wrap, type Remote } from 'comlink';
import type { RunSummary } from '../../workers/events';
import type { UiEvent } from '../../workers/transfer';
import type { WorkerApi, WorkerRunOptions, WorkerSettings } from '../../workers/worker-api';
import type { Workflow } from '../../workflow/schema';

export interface RunClient {
  /**
   * Sends the settings and a snapshot of the workflow; resolves with the summary after the last
   * event. Rejects only when the worker itself fails (it could not start, or crashed).
   */
  run(workflow: Workflow, settings: WorkerSettings, options: WorkerRunOptions, onEvent: (event: UiEvent) => void): Promise<RunSummary>;
  /** Cancels the run in progress; a worker that does not stop within `graceMs` is replaced. */
  cancel(graceMs?: number): void;
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
    failed.catch(() => undefined);
    return { worker, api: wrap<WorkerApi>(worker), failed };
  }

  return {
    async run(workflow, settings, options, onEvent) {
      if (running) throw new Error('a run is already in progress: cancel it or wait for it to finish');
      live ??= start();
      const current = live;
      let fail!: (reason: Error) => void;
      const stopped = new Promise<never>((_, reject) => (fail = reject));
      running = { fail };
      try {
        const work = (async () => {
          await current.api.configure(settings);
          return await current.api.run(workflow, options, proxy(onEvent));
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

    dispose() {
      stop(new Error('the editor closed the run'));
    },
  };
}
