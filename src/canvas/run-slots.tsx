/**
 * Where the run side (src/run) draws inside each node: its status line and its results. The app
 * passes the run module's components in; the node view renders whatever it is given, so the
 * canvas never imports src/run itself.
 */
import { createContext, useContext, type ComponentType } from 'react';

export interface RunSlots {
  /** Status badge, elapsed time, streamed text, error: inside every node. */
  NodeRunStatus?: ComponentType<{ nodeId: string }>;
  /** Image/text results area inside the node. */
  NodeResults?: ComponentType<{ nodeId: string }>;
  /** Run to here / run from here: a button in the node's title bar. */
  NodeRunMenu?: ComponentType<{ nodeId: string }>;
}

const RunSlotsContext = createContext<RunSlots>({});

export const RunSlotsProvider = RunSlotsContext.Provider;

export function useRunSlots(): RunSlots {
  return useContext(RunSlotsContext);
}
