/** The run actions for toolbars, menus and node context menus. */
import { useMemo } from 'react';
import type { WorkflowProblem } from '../../workers/validate';
import { useRunContext, useRunOverview } from './context';

export interface RunControls {
  /** Runs the whole workflow. */
  run(): void;
  /** Runs the node and everything it depends on ("run to here"). */
  runTo(nodeId: string): void;
  /** Runs the node and everything downstream of it afresh; what they need comes from the cache. */
  runFrom(nodeId: string): void;
  cancel(): void;
  running: boolean;
  /** The validation problems of the last run asked for (empty once a valid run starts). */
  problems: readonly WorkflowProblem[];
}

export function useRunControls(): RunControls {
  const { start, controller } = useRunContext();
  const { running, problems } = useRunOverview();
  const actions = useMemo(
    () => ({
      run: () => start({ mode: 'all' }),
      runTo: (nodeId: string) => start({ mode: 'to', nodeId }),
      runFrom: (nodeId: string) => start({ mode: 'from', nodeId }),
      cancel: () => controller.cancel(),
    }),
    [start, controller],
  );
  return { ...actions, running, problems };
}
