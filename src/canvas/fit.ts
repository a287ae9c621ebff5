/**
 * Fitting the view to a workflow: before its nodes are drawn (from positions and nominal sizes, so
 * a big file is drawn once at its final zoom), and the rule for whether a refit is worth making.
 */
import type { Viewport } from '@xyflow/react';
import { boundsOf, NODE_WIDTH, type Rect } from '../store/frames';
import type { XY } from '../store/state';

export const FIT_VIEW_OPTIONS = { padding: 0.15, maxZoom: 1 };
/**
 * React Flow's fitView counts only the nodes it has measured, unless told to count hidden ones
 * too, by their given sizes. A node never drawn yet carries its estimated size (derive.ts) and
 * the editor hides no node, so this makes every node count, drawn or not.
 */
export const EVERY_NODE = { includeHiddenNodes: true } as const;
export const MIN_ZOOM = 0.05;

/** The smallest text drawn in a node, in CSS pixels at 100% (node.css, form.css, results.css). */
export const NODE_TEXT_MIN_PX = 12;
/** The smallest a node's text may be on screen when a workflow opens. */
export const READABLE_TEXT_PX = 11;
/** Opening a workflow never zooms out further than this: its smallest text stays readable. */
export const READABLE_ZOOM = READABLE_TEXT_PX / NODE_TEXT_MIN_PX;
/** The first fit React Flow makes before the nodes are measured: never below the readable zoom. */
export const OPENING_FIT_OPTIONS = { ...FIT_VIEW_OPTIONS, ...EVERY_NODE, minZoom: READABLE_ZOOM };
/** Screen pixels between the start of a graph too big to fit and the canvas's left edge. */
const START_MARGIN = 40;

/**
 * The view a workflow opens in: all of it, fitted, when that keeps its text readable; otherwise
 * at the readable zoom, showing where it starts: its leftmost nodes near the left edge, centred
 * from top to bottom (the whole graph when it is short enough, else its first column).
 */
export function readableView(rects: readonly Rect[], width: number, height: number): Viewport {
  const box = boundsOf(rects);
  const pad = 1 + 2 * FIT_VIEW_OPTIONS.padding;
  const fitZoom = Math.min(FIT_VIEW_OPTIONS.maxZoom, width / (box.width * pad), height / (box.height * pad));
  if (fitZoom >= READABLE_ZOOM) {
    return { x: (width - box.width * fitZoom) / 2 - box.x * fitZoom, y: (height - box.height * fitZoom) / 2 - box.y * fitZoom, zoom: fitZoom };
  }
  const zoom = READABLE_ZOOM;
  const x = START_MARGIN - box.x * zoom;
  if (box.height * zoom + 2 * START_MARGIN <= height) return { x, y: (height - box.height * zoom) / 2 - box.y * zoom, zoom };
  const first = boundsOf(rects.filter((r) => r.x < box.x + NODE_WIDTH));
  const y = first.height * zoom + 2 * START_MARGIN <= height
    ? (height - first.height * zoom) / 2 - first.y * zoom
    : START_MARGIN - first.y * zoom;
  return { x, y, zoom };
}

/** Roughly how big a node is before it is measured, for placing the view before it is drawn. */
const NOMINAL_NODE = { width: 300, height: 360 };

/** A node's measured size, or the nominal one when it has not been drawn. */
export function sizeOrNominal(measured: { width?: number; height?: number }): { width: number; height: number } {
  return measured.width && measured.height ? { width: measured.width, height: measured.height } : NOMINAL_NODE;
}

/**
 * The view a workflow opens in (readableView), from positions and nominal sizes, before its
 * nodes are drawn. The readable zoom is above LOW_ZOOM, so nodes are drawn in full.
 */
export function estimateFit(nodes: readonly { position: XY }[], width: number, height: number): Viewport {
  return readableView(nodes.map((n) => ({ ...n.position, ...NOMINAL_NODE })), width, height);
}

/** Whether two views differ by less than anyone would see (a pixel or so, a percent of zoom). */
export function nearlySameView(a: Viewport, b: Viewport): boolean {
  return Math.abs(a.zoom - b.zoom) <= a.zoom * 0.01 && Math.abs(a.x - b.x) <= 2 && Math.abs(a.y - b.y) <= 2;
}

