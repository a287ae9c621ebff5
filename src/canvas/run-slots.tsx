/**
 * Where the run side (src/run) draws inside each node: its status line and its results. The app
 * passes the run module's components in; the node view renders whatever it is given, so the
 * canvas never imports src/run itself.
 */
import { createContext, useContext, type ComponentType } from 'react';

/**
 * `stage`: the node makes pictures, so its status line and a picture-sized results area are
 * there before its first run, and a run that ends does not change the node's size. `fans`: it
 * runs once per item of a list, so its status has a line for the items too.
 */
export interface NodeSlotProps {
  nodeId: string;
  stage?: boolean;
  fans?: boolean;
}

export interface RunSlots {
  /** Status badge, elapsed time, streamed text, error: inside every node. */
  NodeRunStatus?: ComponentType<NodeSlotProps>;
  /** Image/text results area inside the node. */
  NodeResults?: ComponentType<NodeSlotProps>;
  /** Run to here / run from here: a button in the node's title bar. */
  NodeRunMenu?: ComponentType<{ nodeId: string }>;
}

const RunSlotsContext = createContext<RunSlots>({});

export const RunSlotsProvider = RunSlotsContext.Provider;

export function useRunSlots(): RunSlots {
  return useContext(RunSlotsContext);
}
