/** The run actions for toolbars, menus and node context menus. */
import { useMemo } from 'react';
import type { WorkflowProblem } from '../../workers/validate';
import { useBatchProgress, useRunContext, useRunOverview } from './context';
import type { BatchProgress } from './queue';

export interface RunControls {
  /** Runs the whole workflow, as many times as the batch count says. */
  run(): void;
  /** Runs the node and everything it depends on ("run to here"), once. */
  runTo(nodeId: string): void;
  /** Runs the node and everything downstream of it afresh, once; what they need comes from the cache. */
  runFrom(nodeId: string): void;
  /** Cancels the run under way and the rest of its batch. */
  cancel(): void;
  /** A run or a batch is under way. */
  running: boolean;
  batch: BatchProgress | undefined;
  /** The validation problems of the last run asked for (empty once a valid run starts). */
  problems: readonly WorkflowProblem[];
}

export function useRunControls(): RunControls {
  const { start, queue } = useRunContext();
  const { running, problems } = useRunOverview();
  const batch = useBatchProgress();
  const actions = useMemo(
    () => ({
      run: () => start({ mode: 'all' }),
      runTo: (nodeId: string) => start({ mode: 'to', nodeId }, 1),
      runFrom: (nodeId: string) => start({ mode: 'from', nodeId }, 1),
      cancel: () => queue.cancel(),
    }),
    [start, queue],
  );
  return { ...actions, running: running || batch !== undefined, batch, problems };
}
