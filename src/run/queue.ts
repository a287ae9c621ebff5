/**
 * Every run the editor starts goes through this queue: one run, or a batch of N (the snapshots
 * the worker plans when it is queued, run one after another). After each run that
 * happened (succeeded or failed: not refused, not cancelled) the seeds in the editor move on as
 * their `seed_mode` says, to the seeds the next run uses, and the run counts toward the session's
 * totals. Cancel stops the run under way and the rest of the batch.
 */
import { seedChangesBetween, type SeedChange } from '../../nodes/seed-control';
import type { RunSummary } from '../../workers/events';
import type { PlanOptions } from '../../workers/plan';
import type { Workflow } from '../../workflow/schema';
import type { RunController } from './controller';
import type { EditorLink } from './editor-link';
import { createSmallStore, type SmallStore } from '../ui/small-store';

/** A batch of more than one run that has ended: how many runs were asked for, the summaries of those made. */
export interface BatchRecord {
  count: number;
  summaries: readonly RunSummary[];
}

/** Where a batch is: run `index` (1-based) of `count` is under way. */
export interface BatchProgress {
  index: number;
  count: number;
}

export interface RunQueue {
  /** Runs `count` times (1 by default) unless a run or batch is under way; the summaries of the runs made. */
  start(options: PlanOptions, count?: number): Promise<RunSummary[]>;
  /** Stops the run under way and drops the rest of the batch. */
  cancel(): void;
  /** The batch under way, if any (also set for a single run). */
  readonly progress: SmallStore<BatchProgress | undefined>;
  /** The last batch of more than one run, once it has ended; cleared when another run starts. */
  readonly lastBatch: SmallStore<BatchRecord | undefined>;
}

export interface RunQueueDeps {
  controller: RunController;
  link: EditorLink;
  /** Told of each run that happened, for the session's totals. */
  onRun?(summary: RunSummary): void;
}

/** The seeds that differ between two snapshots of the same workflow. */
export function seedChanges(before: Workflow, after: Workflow, registry: EditorLink['registry']): SeedChange[] {
  return seedChangesBetween(before, after, registry);
}

/** A run that did not happen: the worker failed (the run panel says why). */
class RunNotMade extends Error {}

export function createRunQueue(deps: RunQueueDeps): RunQueue {
  const progress = createSmallStore<BatchProgress | undefined>(undefined);
  const lastBatch = createSmallStore<BatchRecord | undefined>(undefined);
  let stop: AbortController | undefined;

  return {
    progress,
    lastBatch,
    async start(asked, count = 1) {
      if (stop || deps.controller.state.overview.get().running) return [];
      // Run to / from a node the canvas shows inside an opened component: the run names it through its instance.
      const options: PlanOptions = asked.mode === 'all' ? asked : { ...asked, nodeId: deps.link.runNodeId(asked.nodeId) };
      const abort = (stop = new AbortController());
      const summaries: RunSummary[] = [];
      lastBatch.set(undefined);
      progress.set({ index: 1, count });
      try {
        // The worker plans the batch: one snapshot per run, each with the seeds the one before leaves.
        const batch = await deps.controller.planBatch(deps.link.getWorkflow(), count, options);
        for (const [index, snapshot] of batch.runs.entries()) {
          if (abort.signal.aborted) break;
          if (index > 0) progress.set({ index: index + 1, count });
          const summary = await deps.controller.run(snapshot, options);
          if (!summary) throw new RunNotMade();
          summaries.push(summary);
          // A cancelled run still spent what its requests used: the session counts it.
          if (summary.status !== 'invalid') deps.onRun?.(summary);
          if (summary.status === 'succeeded' || summary.status === 'failed') {
            deps.link.applySeeds(seedChanges(snapshot, batch.runs[index + 1] ?? batch.after, deps.link.registry));
          }
          if (summary.status === 'cancelled' || summary.status === 'invalid') break;
        }
      } catch (error) {
        if (!(error instanceof RunNotMade)) throw error;
      } finally {
        stop = undefined;
        if (count > 1 && summaries.length > 0) lastBatch.set({ count, summaries });
        progress.set(undefined);
      }
      return summaries;
    },
    cancel() {
      stop?.abort();
      deps.controller.cancel();
    },
  };
}
