/**
 * Runs as the editor sees them, without React: one run at a time, its events applied to the
 * run state, the worker's failures turned into a reason the run panel can show.
 */
import type { RunSummary } from '../../workers/events';
import type { PlanOptions } from '../../workers/plan';
import type { WorkerSettings } from '../../workers/worker-api';
import type { Workflow } from '../../workflow/schema';
import type { UrlFactory } from '../results/object-urls';
import { abandonRun, applyEvent, beginRun, createRunState, finishRun, pruneNodes, releaseAll, type RunState } from './run-state';
import type { RunClient } from './worker-client';

export interface RunController {
  readonly state: RunState;
  /** Starts a run unless one is in progress; resolves with its summary (undefined if none ran). */
  run(workflow: Workflow, options?: PlanOptions): Promise<RunSummary | undefined>;
  cancel(): void;
  /** Forgets results of nodes not in `nodeIds`, releasing their images. */
  prune(nodeIds: Iterable<string>): void;
  dispose(): void;
}

export interface RunControllerDeps {
  client: RunClient;
  /** Read at every run, so a change in the settings applies to the next run. */
  settings(): WorkerSettings;
  urls?: UrlFactory;
  now?: () => number;
}

export function createRunController(deps: RunControllerDeps): RunController {
  const state = createRunState();
  const urls = deps.urls ?? URL;
  const now = deps.now ?? (() => performance.now());
  let runs = 0;

  return {
    state,
    async run(workflow, options = { mode: 'all' }) {
      if (state.overview.get().running) return undefined;
      // A page-chosen id: events can be matched to the run before the worker names it.
      const runId = `run-${++runs}`;
      beginRun(state, runId, now());
      try {
        const settings = deps.settings();
        const summary = await deps.client.run(workflow, settings, { ...options, runId }, (event) => {
          applyEvent(state, event, { urls, now });
        });
        finishRun(state, summary);
        return summary;
      } catch (error) {
        abandonRun(state, runId, error instanceof Error ? error.message : String(error));
        return undefined;
      }
    },
    cancel() {
      if (state.overview.get().running) deps.client.cancel();
    },
    prune(nodeIds) {
      pruneNodes(state, new Set(nodeIds), urls);
    },
    dispose() {
      deps.client.dispose();
      releaseAll(state, urls);
    },
  };
}
