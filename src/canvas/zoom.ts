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

/** How far beyond the visible canvas (in view widths and heights) a node still counts as near. */
const NEAR = 0.5;

/**
 * Whether the node `id` is drawn as the overview draws it: below the low zoom, or while it lies
 * well outside the view. React Flow draws every node once, in view or not, to learn its ports'
 * places; a node far outside the view is drawn then without its form, which it gets once it
 * comes near (React Flow draws only the nodes in view after that).
 */
export function isCompactNode(id: string): (s: ReactFlowState) => boolean {
  return (s) => {
    if (isLowZoom(s)) return true;
    const node = s.nodeLookup.get(id);
    if (!node) return false;
    const [tx, ty, zoom] = s.transform;
    const { x, y } = node.internals.positionAbsolute;
    const width = node.measured.width ?? 300;
    const height = node.measured.height ?? 360;
    const left = x * zoom + tx;
    const top = y * zoom + ty;
    return left + width * zoom < -NEAR * s.width || left > (1 + NEAR) * s.width || top + height * zoom < -NEAR * s.height || top > (1 + NEAR) * s.height;
  };
}
