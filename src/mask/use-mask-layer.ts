/**
 * The painting layer and its history as a React hook: strokes drawn as the pointer moves and
 * recorded when it lifts (one undo step each), clear and invert as steps of their own, undo by
 * replaying the steps still in effect over the starting image, and export to the API's mask.
 */
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { MaskPaint } from '../../nodes/inpaint';
import { applyOp, context2d, copyInto, createCanvas, drawStroke, exportMask, layerCoverage, loadMask, replay } from './mask-canvas';
import { MaskHistory, strokeWidth, toMaskPoint, type MaskOp, type MaskTool, type StrokePoint } from './mask-model';

export interface MaskLayerStatus {
  canUndo: boolean;
  canRedo: boolean;
  /** Share of the image marked for repainting, 0 to 1. */
  coverage: number;
  /** False while a saved mask is being read in. */
  ready: boolean;
  /** Why the saved mask could not be read (painting starts empty). */
  loadError?: string;
}

export interface BrushSettings {
  tool: MaskTool;
  size: number;
  usePressure: boolean;
}

interface Stroke {
  tool: MaskTool;
  points: StrokePoint[];
}

export function useMaskLayer(size: { width: number; height: number }, initial: MaskPaint | null, brush: BrushSettings) {
  const layerRef = useRef<HTMLCanvasElement>(null);
  // The layer as it was before the oldest step that can still be undone.
  const [start] = useState(() => createCanvas(size.width, size.height));
  const [history] = useState(() => new MaskHistory());
  const stroke = useRef<Stroke | null>(null);
  const brushRef = useRef(brush);
  brushRef.current = brush;
  const [status, setStatus] = useState<MaskLayerStatus>({ canUndo: false, canRedo: false, coverage: 0, ready: initial === null });

  const refresh = useCallback(() => {
    const layer = layerRef.current;
    setStatus((s) => ({ ...s, canUndo: history.canUndo, canRedo: history.canRedo, coverage: layer ? layerCoverage(layer) : 0 }));
  }, [history]);

  useEffect(() => {
    if (initial === null) return;
    let live = true;
    loadMask(start, initial.b64).then(
      () => {
        if (!live || !layerRef.current) return;
        copyInto(layerRef.current, start);
        setStatus((s) => ({ ...s, ready: true }));
        refresh();
      },
      (error: unknown) => {
        if (!live) return;
        context2d(start).clearRect(0, 0, start.width, start.height);
        setStatus((s) => ({ ...s, ready: true, loadError: `The saved mask could not be read (${error instanceof Error ? error.message : String(error)}); painting starts from an empty one.` }));
      },
    );
    return () => {
      live = false;
    };
    // The saved mask is read once, when the painter opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Records a finished step; steps beyond the undo limit are drawn into the starting image. */
  const record = useCallback((op: MaskOp) => {
    for (const old of history.push(op)) applyOp(start, old);
    refresh();
  }, [history, start, refresh]);

  const perform = useCallback((op: MaskOp) => {
    const layer = layerRef.current;
    if (!layer || !status.ready) return;
    if (op.type === 'clear' && layerCoverage(layer) === 0) return;
    applyOp(layer, op);
    record(op);
  }, [record, status.ready]);

  const pointOf = (e: PointerEvent, layer: HTMLCanvasElement): StrokePoint => {
    const p = toMaskPoint({ x: e.clientX, y: e.clientY }, layer.getBoundingClientRect(), size);
    return { ...p, w: strokeWidth(brushRef.current.size, e, brushRef.current.usePressure) };
  };

  const finish = useCallback(() => {
    const done = stroke.current;
    stroke.current = null;
    if (done) record({ type: 'stroke', tool: done.tool, points: done.points });
  }, [record]);

  const handlers = {
    onPointerDown(e: ReactPointerEvent<HTMLCanvasElement>) {
      const layer = e.currentTarget;
      if (!status.ready || e.button !== 0 || stroke.current) return;
      e.preventDefault();
      layer.setPointerCapture(e.pointerId);
      const first = pointOf(e.nativeEvent, layer);
      stroke.current = { tool: brushRef.current.tool, points: [first] };
      drawStroke(context2d(layer), brushRef.current.tool, stroke.current.points);
    },
    onPointerMove(e: ReactPointerEvent<HTMLCanvasElement>) {
      const current = stroke.current;
      if (!current) return;
      const layer = e.currentTarget;
      // Coalesced events carry the positions between frames: a fast stroke stays a curve.
      const events = e.nativeEvent.getCoalescedEvents?.() ?? [];
      const from = current.points.length;
      for (const event of events.length > 0 ? events : [e.nativeEvent]) {
        const p = pointOf(event, layer);
        const last = current.points.at(-1)!;
        if (Math.abs(p.x - last.x) < 0.5 && Math.abs(p.y - last.y) < 0.5) continue;
        current.points.push(p);
      }
      if (current.points.length > from) drawStroke(context2d(layer), current.tool, current.points, from);
    },
    onPointerUp: finish,
    onPointerCancel: finish,
    onLostPointerCapture: finish,
  };

  const undo = useCallback(() => {
    const layer = layerRef.current;
    if (!layer || stroke.current || !history.undo()) return;
    replay(layer, start, history.ops);
    refresh();
  }, [history, start, refresh]);

  const redo = useCallback(() => {
    const layer = layerRef.current;
    if (!layer || stroke.current) return;
    const op = history.redo();
    if (!op) return;
    applyOp(layer, op);
    refresh();
  }, [history, refresh]);

  const save = useCallback(async (): Promise<MaskPaint | undefined> => {
    const layer = layerRef.current;
    return layer ? exportMask(layer) : undefined;
  }, []);

  return {
    layerRef,
    status,
    handlers,
    undo,
    redo,
    invert: () => perform({ type: 'invert' }),
    clear: () => perform({ type: 'clear' }),
    save,
  };
}
