/**
 * Where new things go so that nothing lands on anything: the nearest shift of the new items (a
 * node, a note, a pasted or duplicated selection) that keeps every one of their boxes clear of
 * the nodes and notes already there. Group frames may be overlapped: a node placed inside one
 * joins it, and the frame grows to hold it (frame-fit.ts).
 */
import type { Workflow } from '../../workflow/schema';
import { boundsOf, nodeRect, rectOf, type Measure, type Rect } from './frames';
import type { PlacedItems, XY } from './state';

/** The room kept between a placed item and its neighbours. */
export const PLACE_GAP = 24;
/** The grid the search steps on, in flow pixels. */
const STEP = 20;
/** How far the search reaches (rings of STEP) before it gives up and goes below everything. */
const RINGS = 120;

function clear(a: Rect, b: Rect, gap: number): boolean {
  return a.x + a.width + gap <= b.x || b.x + b.width + gap <= a.x || a.y + a.height + gap <= b.y || b.y + b.height + gap <= a.y;
}

/** Whether any two of `rects` overlap (touching edges do not). */
export function anyOverlap(rects: readonly Rect[]): boolean {
  for (let i = 0; i < rects.length; i++) {
    for (let j = i + 1; j < rects.length; j++) if (!clear(rects[i]!, rects[j]!, 0)) return true;
  }
  return false;
}

/** The grid offsets of ring `k` (the square k steps out). */
function ring(k: number): [number, number][] {
  if (k === 0) return [[0, 0]];
  const cells: [number, number][] = [];
  for (let i = -k; i <= k; i++) {
    cells.push([i, -k], [i, k]);
    if (i !== -k && i !== k) cells.push([-k, i], [k, i]);
  }
  // Nearest first; of two as near, below before above and right before left (the way a graph reads).
  return cells.sort((a, b) => a[0] * a[0] + a[1] * a[1] - (b[0] * b[0] + b[1] * b[1]) || b[1] - a[1] || b[0] - a[0]);
}

/**
 * The shift nearest to none by which `items` clear every rectangle of `taken` by `gap`. When
 * nothing near is free, the items go below everything near them.
 */
export function freeShift(items: readonly Rect[], taken: readonly Rect[], gap = PLACE_GAP): XY {
  if (items.length === 0 || taken.length === 0) return { x: 0, y: 0 };
  const box = boundsOf(items);
  const reach = RINGS * STEP + gap;
  const near = taken.filter((r) => r.x < box.x + box.width + reach && r.x + r.width > box.x - reach
    && r.y < box.y + box.height + reach && r.y + r.height > box.y - reach);
  let blocker: Rect | undefined;
  const fits = (dx: number, dy: number) => {
    for (const item of items) {
      const moved = { x: item.x + dx, y: item.y + dy, width: item.width, height: item.height };
      // The rectangle that stopped the last try usually stops this one: asked first.
      if (blocker && !clear(moved, blocker, gap)) return false;
      for (const r of near) {
        if (!clear(moved, r, gap)) {
          blocker = r;
          return false;
        }
      }
    }
    return true;
  };
  for (let k = 0; k <= RINGS; k++) {
    for (const [i, j] of ring(k)) if (fits(i * STEP, j * STEP)) return { x: i * STEP, y: j * STEP };
  }
  const bottom = Math.max(...near.map((r) => r.y + r.height));
  return { x: 0, y: bottom + gap - box.y };
}

/** The boxes of the document's nodes and notes (what new items must keep clear of). */
export function occupied(doc: Pick<Workflow, 'nodes' | 'notes'>, measure: Measure): Rect[] {
  return [
    ...doc.nodes.map((n) => nodeRect(n.id, n.position, measure)),
    ...(doc.notes ?? []).map((n) => rectOf(n)),
  ];
}

/** Where one new item of `size` wanted at `at` (its top-left corner) goes. */
export function freePosition(at: XY, size: { width: number; height: number }, doc: Pick<Workflow, 'nodes' | 'notes'>, measure: Measure): XY {
  const shift = freeShift([{ ...at, ...size }], occupied(doc, measure));
  return { x: at.x + shift.x, y: at.y + shift.y };
}


let placements = 0;
/** The `placed` mark for items just put where there was room (each mark distinct). */
export function placedMark(ids: readonly string[]): PlacedItems {
  placements += 1;
  return { ids, seq: placements };
}
