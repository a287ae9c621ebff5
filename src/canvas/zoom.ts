/** Zoom thresholds shared by the node views. */
import type { ReactFlowState } from '@xyflow/react';

/** Below this zoom, a big graph's nodes are drawn as title and ports only (no forms, no results). */
export const LOW_ZOOM = 0.5;
/**
 * A small graph keeps its forms and pictures further out: drawing a few dozen nodes in full costs
 * little, and an example fitted to a laptop screen should still show its images.
 */
export const SMALL_GRAPH_LOW_ZOOM = 0.3;
/** Up to this many nodes a graph counts as small. */
export const SMALL_GRAPH_NODES = 60;

export const isLowZoom = (s: ReactFlowState): boolean =>
  s.transform[2] < (s.nodeLookup.size <= SMALL_GRAPH_NODES ? SMALL_GRAPH_LOW_ZOOM : LOW_ZOOM);
