/**
 * Fitting the view to a workflow: before its nodes are drawn (from positions and nominal sizes, so
 * a big file is drawn once at its final zoom), and the rule for whether a refit is worth making.
 */
import type { Viewport } from '@xyflow/react';
import type { XY } from '../store/state';
import { LOW_ZOOM } from './zoom';

export const FIT_VIEW_OPTIONS = { padding: 0.15, maxZoom: 1 };
export const MIN_ZOOM = 0.05;

/**
 * Roughly how big a node is before it is measured, for fitting a workflow before it is drawn:
 * with its form, and as the overview draws it (title and ports) below LOW_ZOOM.
 */
const NOMINAL_NODE = { width: 300, height: 360 };
const NOMINAL_OVERVIEW_NODE = { width: 300, height: 90 };

/** The view that shows every node, from positions and nominal sizes (the same rule as fitView). */
export function estimateFit(nodes: readonly { position: XY }[], width: number, height: number): { x: number; y: number; zoom: number } {
  const xs = nodes.map((n) => n.position.x);
  const ys = nodes.map((n) => n.position.y);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  const fit = (node: { width: number; height: number }) => {
    const w = Math.max(...xs) + node.width - left;
    const h = Math.max(...ys) + node.height - top;
    const pad = 1 + 2 * FIT_VIEW_OPTIONS.padding;
    const zoom = Math.max(MIN_ZOOM, Math.min(FIT_VIEW_OPTIONS.maxZoom, width / (w * pad), height / (h * pad)));
    return { x: (width - w * zoom) / 2 - left * zoom, y: (height - h * zoom) / 2 - top * zoom, zoom };
  };
  const full = fit(NOMINAL_NODE);
  if (full.zoom >= LOW_ZOOM) return full;
  // So far out the nodes are drawn as the overview draws them, smaller.
  const overview = fit(NOMINAL_OVERVIEW_NODE);
  return overview.zoom < LOW_ZOOM ? overview : full;
}

/** Whether two views differ by less than anyone would see (a pixel or so, a percent of zoom). */
export function nearlySameView(a: Viewport, b: Viewport): boolean {
  return Math.abs(a.zoom - b.zoom) <= a.zoom * 0.01 && Math.abs(a.x - b.x) <= 2 && Math.abs(a.y - b.y) <= 2;
}

