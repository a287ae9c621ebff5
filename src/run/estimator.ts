/**
 * Keeps the cost estimate of the next run up to date: asked of the worker (which knows the
 * cache) a moment after the graph or the settings stop changing, again when a run ends or the
 * cache is cleared (what is cached has changed), never while a run is under way. An answer that
 * arrives after a newer question was asked is dropped.
 */
import type { RunEstimate } from '../../workers/estimate';
import type { Workflow } from '../../workflow/schema';
import type { RunController } from './controller';
import type { EditorLink } from './editor-link';
import { createSmallStore, type SmallStore } from '../ui/small-store';

export type EstimateState =
  | { status: 'waiting' }
  /** `stale`: the graph changed since; a new estimate is on its way. */
  | { status: 'ready'; estimate: RunEstimate; workflow: Workflow; stale: boolean }
  | { status: 'unavailable'; reason: string };

export interface Estimator {
  readonly state: SmallStore<EstimateState>;
  /** Starts watching the graph, the settings and the runs; returns how to stop. */
  start(): () => void;
}

/** Quiet time after the last change before asking; typing in a prompt asks once. */
export const ESTIMATE_DELAY_MS = 400;

export function createEstimator(controller: RunController, link: EditorLink, delayMs = ESTIMATE_DELAY_MS): Estimator {
  const state = createSmallStore<EstimateState>({ status: 'waiting' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  let lastDoc: Workflow | undefined;
  let lastSettings: string | undefined;
  let live = false;

  const settingsKey = () => {
    try {
      return JSON.stringify(link.getSettings());
    } catch (error) {
      return `error:${(error as Error).message}`;
    }
  };

  const markStale = () => {
    const current = state.get();
    if (current.status === 'ready' && !current.stale) state.set({ ...current, stale: true });
  };

  const ask = async () => {
    timer = undefined;
    if (!live || controller.state.overview.get().running) return;
    const id = ++asked;
    const workflow = link.getWorkflow();
    try {
      const estimate = await controller.estimate(workflow, { mode: 'all' });
      if (id === asked && live) state.set({ status: 'ready', estimate, workflow, stale: false });
    } catch (error) {
      if (id === asked && live) state.set({ status: 'unavailable', reason: error instanceof Error ? error.message : String(error) });
    }
  };

  const schedule = () => {
    markStale();
    clearTimeout(timer);
    timer = setTimeout(() => void ask(), delayMs);
  };

  return {
    state,
    start() {
      live = true;
      const offLink = link.subscribe(() => {
        const doc = link.getWorkflow();
        const settings = settingsKey();
        // Selection and view changes reach here too; only the document and the settings matter.
        if (doc === lastDoc && settings === lastSettings) return;
        lastDoc = doc;
        lastSettings = settings;
        schedule();
      });
      let wasRunning = controller.state.overview.get().running;
      const offRuns = controller.state.overview.subscribe(() => {
        const running = controller.state.overview.get().running;
        if (wasRunning && !running) schedule();
        wasRunning = running;
      });
      const offCache = controller.onCacheCleared(schedule);
      lastDoc = link.getWorkflow();
      lastSettings = settingsKey();
      schedule();
      return () => {
        live = false;
        asked++;
        clearTimeout(timer);
        offLink();
        offRuns();
        offCache();
      };
    },
  };
}
