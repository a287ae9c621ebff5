/**
 * The view follows what was just placed: a node added, a note, a paste or a duplicate that lands
 * outside the visible canvas (or partly outside) is brought into view, at the same zoom, with a
 * short pan. What is already in view leaves the view alone.
 */
import { useReactFlow, useStoreApi } from '@xyflow/react';
import { useEffect } from 'react';
import type { EditorStore } from '../store/editor-store';
import { autoFit } from './auto-fit';
import { boundsOf, itemOf, nodeRect, rectOf, type Rect } from '../store/frames';

/** Screen pixels kept between what is shown and the canvas's edges. */
const MARGIN = 40;

/** The flow rectangles of canvas items, as the document and the measured sizes say. */
function rectsOf(store: EditorStore, ids: readonly string[]): Rect[] {
  const { doc, index } = store.getState();
  const rects: Rect[] = [];
  for (const id of ids) {
    const ref = itemOf(id);
    if (ref.kind === 'node') {
      const node = index.nodeById.get(ref.id);
      if (node) rects.push(nodeRect(node.id, node.position, (key) => store.measureOf(key)));
    } else {
      const item = ref.kind === 'note' ? doc.notes?.find((n) => n.id === ref.id) : doc.groups?.find((g) => g.id === ref.id);
      if (item) rects.push(rectOf(item));
    }
  }
  return rects;
}

/** The pan (same zoom) that brings `box` into a view of `width`×`height`, or undefined when it is in view. */
export function followView(box: Rect, view: { x: number; y: number; zoom: number }, width: number, height: number): { x: number; y: number } | undefined {
  const { zoom } = view;
  const left = box.x * zoom + view.x;
  const top = box.y * zoom + view.y;
  const right = left + box.width * zoom;
  const bottom = top + box.height * zoom;
  const fitsX = right - left <= width - 2 * MARGIN;
  const fitsY = bottom - top <= height - 2 * MARGIN;
  let dx = 0;
  let dy = 0;
  // Too big to show whole: its top-left corner is shown.
  if (left < MARGIN || !fitsX) dx = MARGIN - left;
  else if (right > width - MARGIN) dx = width - MARGIN - right;
  if (top < MARGIN || !fitsY) dy = MARGIN - top;
  else if (bottom > height - MARGIN) dy = height - MARGIN - bottom;
  if (dx === 0 && dy === 0) return undefined;
  return { x: view.x + dx, y: view.y + dy };
}

export function useFollowPlaced(store: EditorStore): void {
  const rf = useReactFlow();
  const flow = useStoreApi();
  useEffect(() => {
    let seen = store.getState().placed?.seq ?? 0;
    return store.subscribe(() => {
      const placed = store.getState().placed;
      if (!placed || placed.seq === seen) return;
      seen = placed.seq;
      const rects = rectsOf(store, placed.ids);
      if (rects.length === 0) return;
      const { width, height, transform: [x, y, zoom] } = flow.getState();
      const to = followView(boundsOf(rects), { x, y, zoom }, width, height);
      if (!to) return;
      autoFit.stop();
      void rf.setViewport({ ...to, zoom }, { duration: 200 });
    });
  }, [store, rf, flow]);
}
