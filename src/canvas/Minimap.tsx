/**
 * A minimap that stays light at 500 nodes. React Flow's own MiniMap is an SVG of one rectangle
 * per node whose viewBox follows the view, so every frame of a pan repaints all of them (44 → 31
 * fps measured here at 500 nodes). Here the nodes are drawn once into a canvas bitmap when they
 * change; panning only moves the rectangle that shows the view. Click or drag in it to move the
 * view there; the wheel zooms.
 */
import { Panel, useReactFlow, useStore, type Node, type ReactFlowState } from '@xyflow/react';
import { memo, useEffect, useMemo, useRef, type PointerEvent } from 'react';
import type { Rect } from '../store/frames';

const WIDTH = 220;
const HEIGHT = 150;
/** Room around the graph, as a share of its size. */
const MARGIN = 0.08;
const FALLBACK = { width: 300, height: 200 };

function color(node: Node): string {
  if (node.type === 'frame') return 'rgba(137, 180, 250, 0.22)';
  if (node.type === 'note') return '#f9e2af';
  return '#7f849c';
}

/** Drawn sizes by node id, as the canvas measured them (a node object carries one only sometimes). */
type Sizes = ReadonlyMap<string, { width: number; height: number }>;

function rectOfNode(node: Node, sizes: Sizes): Rect {
  const size = sizes.get(node.id);
  return {
    x: node.position.x,
    y: node.position.y,
    width: size?.width ?? node.measured?.width ?? node.width ?? FALLBACK.width,
    height: size?.height ?? node.measured?.height ?? node.height ?? FALLBACK.height,
  };
}

/** The part of the flow the minimap shows, and the scale from flow to minimap pixels. */
function frameOf(nodes: readonly Node[], sizes: Sizes): { world: Rect; scale: number } {
  const rects = nodes.map((node) => rectOfNode(node, sizes));
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const w = Math.max(1, Math.max(...rects.map((r) => r.x + r.width)) - left);
  const h = Math.max(1, Math.max(...rects.map((r) => r.y + r.height)) - top);
  const scale = Math.min(WIDTH / (w * (1 + 2 * MARGIN)), HEIGHT / (h * (1 + 2 * MARGIN)));
  // Centred in the minimap.
  const world = { x: left + w / 2 - WIDTH / scale / 2, y: top + h / 2 - HEIGHT / scale / 2, width: WIDTH / scale, height: HEIGHT / scale };
  return { world, scale };
}

const viewSelector = (s: ReactFlowState) => `${s.transform[0]},${s.transform[1]},${s.transform[2]},${s.width},${s.height}`;

/** The view's rectangle: the only part redrawn while the canvas pans. */
function ViewBox({ world, scale }: { world: Rect; scale: number }) {
  const view = useStore(viewSelector);
  const [tx, ty, zoom, width, height] = view.split(',').map(Number) as [number, number, number, number, number];
  const x = (-tx / zoom - world.x) * scale;
  const y = (-ty / zoom - world.y) * scale;
  const w = (width / zoom) * scale;
  const h = (height / zoom) * scale;
  const clamp = (v: number, max: number) => Math.max(-2, Math.min(max + 2, v));
  const left = clamp(x, WIDTH);
  const topEdge = clamp(y, HEIGHT);
  return (
    <div
      className="minimap-view"
      style={{ transform: `translate(${left}px, ${topEdge}px)`, width: Math.max(4, clamp(x + w, WIDTH) - left), height: Math.max(4, clamp(y + h, HEIGHT) - topEdge) }}
    />
  );
}

function MinimapImpl({ nodes, sizes }: { nodes: readonly Node[]; sizes: Sizes }) {
  const rf = useReactFlow();
  const canvas = useRef<HTMLCanvasElement>(null);
  const dragging = useRef(false);
  const frame = useMemo(() => (nodes.length > 0 ? frameOf(nodes, sizes) : null), [nodes, sizes]);

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    const ratio = window.devicePixelRatio || 1;
    el.width = WIDTH * ratio;
    el.height = HEIGHT * ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, WIDTH, HEIGHT);
    if (!frame) return;
    for (const node of nodes) {
      const r = rectOfNode(node, sizes);
      ctx.fillStyle = color(node);
      ctx.fillRect((r.x - frame.world.x) * frame.scale, (r.y - frame.world.y) * frame.scale, Math.max(1, r.width * frame.scale), Math.max(1, r.height * frame.scale));
    }
  }, [nodes, sizes, frame]);

  const moveTo = (event: PointerEvent<HTMLDivElement>) => {
    if (!frame) return;
    const box = event.currentTarget.getBoundingClientRect();
    const x = frame.world.x + (event.clientX - box.left) / frame.scale;
    const y = frame.world.y + (event.clientY - box.top) / frame.scale;
    void rf.setCenter(x, y, { zoom: rf.getViewport().zoom });
  };

  return (
    <Panel position="top-right" className="minimap" aria-label="Minimap">
      <div
        className="minimap-surface"
        role="group"
        aria-label="Minimap"
        data-items={nodes.length}
        title="Click or drag to move the view; the wheel zooms"
        style={{ width: WIDTH, height: HEIGHT }}
        onPointerDown={(e) => {
          dragging.current = true;
          e.currentTarget.setPointerCapture(e.pointerId);
          moveTo(e);
        }}
        onPointerMove={(e) => {
          if (dragging.current) moveTo(e);
        }}
        onPointerUp={() => {
          dragging.current = false;
        }}
        onWheel={(e) => {
          if (e.deltaY < 0) void rf.zoomIn({ duration: 100 });
          else void rf.zoomOut({ duration: 100 });
        }}
      >
        <canvas ref={canvas} style={{ width: WIDTH, height: HEIGHT }} aria-hidden="true" />
        {frame && <ViewBox world={frame.world} scale={frame.scale} />}
      </div>
    </Panel>
  );
}

export const Minimap = memo(MinimapImpl);
