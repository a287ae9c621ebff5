/**
 * What the run components share: the controller (run state and worker) and the few things they
 * need from the editor (where a node's field is, what a node is called). The provider fills it.
 */
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { PlanOptions } from '../../workers/plan';
import type { SessionUsage } from '../../api/usage';
import type { RunController } from './controller';
import type { EditorLink } from './editor-link';
import type { Estimator, EstimateState } from './estimator';
import type { SmallStore } from '../ui/small-store';
import type { BatchProgress, BatchRecord, RunQueue } from './queue';
import type { RunMenus } from './run-menus';
import type { NodeResult, NodeRunState, RunOverview } from './run-state';
import type { SessionUsageStore } from './session-usage';

/** How a node is named on screen and in downloaded files. */
export interface NodeDescription {
  /** The user's title, or the node type's title, or the id. */
  label: string;
  /** A file name the user chose on the node (Preview's `filename`), without extension. */
  filename?: string;
  /** How the node's form or ports name one of its fields (`negative_prompt` → "Negative prompt"). */
  fieldLabel?(field: string): string;
}

export interface RunContextValue {
  controller: RunController;
  link: EditorLink;
  queue: RunQueue;
  estimator: Estimator;
  session: SessionUsageStore;
  /** How many times Run runs (the batch count beside the Run button). */
  runCount: SmallStore<number>;
  /** Which node's run menu is open. */
  runMenus: RunMenus;
  /** Runs the current workflow (or the part `options` selects), `count` times (the batch count by default). */
  start(options: PlanOptions, count?: number): void;
  /** Selects the node, shows it, and focuses the field when one is named. */
  focusNode(nodeId: string, field?: string): void;
  describeNode(nodeId: string): NodeDescription;
  /** The workflow's title, for file names. */
  workflowTitle(): string;
}

export const RunContext = createContext<RunContextValue | null>(null);

export function useRunContext(): RunContextValue {
  const value = useContext(RunContext);
  if (!value) throw new Error('run components must be inside <RunProvider> (src/run/index.ts)');
  return value;
}

/** The run status of one node; re-renders only when that node's status changes. */
export function useNodeRunState(nodeId: string): NodeRunState | undefined {
  const { status } = useRunContext().controller.state;
  const subscribe = useCallback((listener: () => void) => status.subscribe(nodeId, listener), [status, nodeId]);
  return useSyncExternalStore(subscribe, () => status.get(nodeId));
}

/** Only the phase of one node: streamed text does not wake components that use this. */
export function useNodePhase(nodeId: string): NodeRunState['phase'] | undefined {
  const { status } = useRunContext().controller.state;
  const subscribe = useCallback((listener: () => void) => status.subscribe(nodeId, listener), [status, nodeId]);
  return useSyncExternalStore(subscribe, () => status.get(nodeId)?.phase);
}

export function useNodeResult(nodeId: string): NodeResult | undefined {
  const { results } = useRunContext().controller.state;
  const subscribe = useCallback((listener: () => void) => results.subscribe(nodeId, listener), [results, nodeId]);
  return useSyncExternalStore(subscribe, () => results.get(nodeId));
}

export function useRunOverview(): RunOverview {
  const { overview } = useRunContext().controller.state;
  return useSyncExternalStore(overview.subscribe, overview.get);
}

function useValue<T>(store: SmallStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}

export function useBatchProgress(): BatchProgress | undefined {
  return useValue(useRunContext().queue.progress);
}

export function useLastBatch(): BatchRecord | undefined {
  return useValue(useRunContext().queue.lastBatch);
}

export function useEstimate(): EstimateState {
  return useValue(useRunContext().estimator.state);
}

export function useSessionUsage(): SessionUsage {
  return useValue(useRunContext().session);
}

export function useRunCount(): number {
  return useValue(useRunContext().runCount);
}
