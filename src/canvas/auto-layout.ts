/**
 * Auto-layout with ELK's layered algorithm (elkjs): left to right, each node's inputs and outputs
 * kept in the order they are drawn, groups laid out as boxes around what they hold so frames do
 * not overlap. ELK is about 1.5 MB, so it is fetched the first time a layout is asked for.
 */
import type { ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api';
import { FRAME_HEADER, FRAME_PADDING, type Rect } from '../store/frames';
import type { XY } from '../store/state';

export interface LayoutItem {
  /** Canvas id: a node's id, or `note:<id>` for a note inside a group. */
  id: string;
  width: number;
  height: number;
  /** Input and output port names in the order they are drawn, top to bottom. */
  inputs: readonly string[];
  outputs: readonly string[];
  /** The group it is laid out in, if any. */
  group?: string;
}

export interface LayoutWire {
  source: string;
  sourcePort: string;
  target: string;
  targetPort: string;
}

export interface LayoutGraph {
  items: readonly LayoutItem[];
  wires: readonly LayoutWire[];
}

/** Space between layers (columns) and between nodes in one column. */
const LAYER_GAP = 90;
const NODE_GAP = 50;

const portId = (item: string, side: 'in' | 'out', port: string) => JSON.stringify([item, side, port]);

let elkPromise: Promise<{ layout(graph: ElkNode): Promise<ElkNode> }> | undefined;

function elk() {
  elkPromise ??= import('elkjs/lib/elk.bundled.js').then(({ default: ELK }) => new ELK());
  return elkPromise;
}

/**
 * ELK's fixed port order runs clockwise from the top-left corner: down the right side (outputs,
 * top first), then up the left side (inputs, bottom first).
 */
function portsOf(item: LayoutItem): ElkPort[] {
  const outs = item.outputs.map((name, i) => ({
    id: portId(item.id, 'out', name), width: 1, height: 1,
    layoutOptions: { 'elk.port.side': 'EAST', 'elk.port.index': String(i) },
  }));
  const ins = item.inputs.map((name, i) => ({
    id: portId(item.id, 'in', name), width: 1, height: 1,
    layoutOptions: { 'elk.port.side': 'WEST', 'elk.port.index': String(item.outputs.length + item.inputs.length - 1 - i) },
  }));
  return [...outs, ...ins];
}

/**
 * Where each item goes, by canvas id, with the top-left of the laid-out whole at `origin`. Items
 * never overlap one another, and a group's members end up together.
 */
export async function computeLayout(graph: LayoutGraph, origin: XY): Promise<Record<string, XY>> {
  const known = new Map(graph.items.map((item) => [item.id, item]));
  const leaf = (item: LayoutItem): ElkNode => ({
    id: item.id,
    width: item.width,
    height: item.height,
    ports: portsOf(item),
    layoutOptions: { 'elk.portConstraints': 'FIXED_ORDER' },
  });
  const groups = new Map<string, ElkNode>();
  const children: ElkNode[] = [];
  for (const item of graph.items) {
    if (item.group === undefined) {
      children.push(leaf(item));
      continue;
    }
    let box = groups.get(item.group);
    if (!box) {
      box = {
        id: JSON.stringify(['group', item.group]),
        children: [],
        layoutOptions: {
          'elk.padding': `[top=${FRAME_PADDING + FRAME_HEADER},left=${FRAME_PADDING},bottom=${FRAME_PADDING},right=${FRAME_PADDING}]`,
        },
      };
      groups.set(item.group, box);
      children.push(box);
    }
    box.children!.push(leaf(item));
  }
  const edges: ElkExtendedEdge[] = graph.wires
    .filter((w) => known.get(w.source)?.outputs.includes(w.sourcePort) && known.get(w.target)?.inputs.includes(w.targetPort))
    .map((w, i) => ({ id: `e${i}`, sources: [portId(w.source, 'out', w.sourcePort)], targets: [portId(w.target, 'in', w.targetPort)] }));

  const root: ElkNode = {
    id: 'root',
    children,
    edges,
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.layered.spacing.nodeNodeBetweenLayers': String(LAYER_GAP),
      'elk.spacing.nodeNode': String(NODE_GAP),
      'elk.spacing.componentComponent': String(NODE_GAP * 2),
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
    },
  };
  const result = await (await elk()).layout(root);

  const placed = new Map<string, Rect>();
  const walk = (node: ElkNode, dx: number, dy: number) => {
    for (const child of node.children ?? []) {
      const x = dx + (child.x ?? 0);
      const y = dy + (child.y ?? 0);
      if (known.has(child.id)) placed.set(child.id, { x, y, width: child.width ?? 0, height: child.height ?? 0 });
      else walk(child, x, y);
    }
  };
  walk(result, 0, 0);
  const rects = [...placed.values()];
  if (rects.length === 0) return {};
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const out: Record<string, XY> = {};
  for (const [id, r] of placed) out[id] = { x: Math.round(origin.x + r.x - left), y: Math.round(origin.y + r.y - top) };
  return out;
}
