/** Zoom thresholds shared by the node views. */
import type { ReactFlowState } from '@xyflow/react';

/** Below this zoom, nodes are drawn as title and ports only (no forms, no results). */
export const LOW_ZOOM = 0.5;

export const isLowZoom = (s: ReactFlowState): boolean => s.transform[2] < LOW_ZOOM;
