/**
 * Auto-layout with ELK's layered algorithm (elkjs): left to right, each node's inputs and outputs
 * kept in the order they are drawn, groups laid out as boxes around what they hold so frames do
 * not overlap, separate graphs packed in rows. ELK is about 1.5 MB, so it is fetched the first
 * time a layout is asked for.
 */
import type { ElkExtendedEdge, ElkNode, ElkPort } from 'elkjs/lib/elk-api';
import { boundsOf, FRAME_HEADER, FRAME_PADDING, type Rect } from '../store/frames';
import type { XY } from '../store/state';
import { keyedRecord } from '../../workflow/keys';

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

/** Space between layers (columns), between nodes in one column, and between separate graphs. */
const LAYER_GAP = 90;
const NODE_GAP = 50;
const COMPONENT_GAP = 140;
/** Separate graphs are packed in rows, into a block about this much wider than high. */
const ASPECT = 1.6;

const portId = (item: string, side: 'in' | 'out', port: string) => JSON.stringify([item, side, port]);

interface Elk {
  layout(graph: ElkNode): Promise<ElkNode>;
}

let elkPromise: Promise<Elk> | undefined;

/**
 * ELK, fetched on first use. In the page it runs in a web worker, so a big layout never freezes
 * the editor; where there are no workers (tests in Node) the bundled build runs in place.
 */
function elk(): Promise<Elk> {
  elkPromise ??= typeof Worker === 'undefined'
    ? import('elkjs/lib/elk.bundled.js').then(({ default: ELK }) => new ELK())
    : Promise.all([import('elkjs/lib/elk-api.js'), import('elkjs/lib/elk-worker.min.js?url')])
      .then(([{ default: ELK }, { default: workerUrl }]) => new ELK({ workerUrl }));
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

/** Items joined by wires or by a group, in the order they were given. */
function components(items: readonly LayoutItem[], wires: readonly LayoutWire[]): LayoutItem[][] {
  const parent = new Map(items.map((item) => [item.id, item.id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const join = (a: string, b: string) => parent.set(find(a), find(b));
  for (const w of wires) join(w.source, w.target);
  const firstOfGroup = new Map<string, string>();
  for (const item of items) {
    if (item.group === undefined) continue;
    const first = firstOfGroup.get(item.group);
    if (first === undefined) firstOfGroup.set(item.group, item.id);
    else join(first, item.id);
  }
  const byRoot = new Map<string, LayoutItem[]>();
  for (const item of items) {
    const root = find(item.id);
    byRoot.set(root, [...(byRoot.get(root) ?? []), item]);
  }
  return [...byRoot.values()];
}

/** One connected graph laid out by ELK: each item's rectangle, from (0, 0). */
async function layoutComponent(engine: Elk, items: readonly LayoutItem[], wires: readonly LayoutWire[]): Promise<Map<string, Rect>> {
  const known = new Map(items.map((item) => [item.id, item]));
  const leaf = (item: LayoutItem): ElkNode => ({
    id: item.id,
    width: item.width,
    height: item.height,
    ports: portsOf(item),
    layoutOptions: { 'elk.portConstraints': 'FIXED_ORDER' },
  });
  const groups = new Map<string, ElkNode>();
  const children: ElkNode[] = [];
  for (const item of items) {
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
  const edges: ElkExtendedEdge[] = wires
    .filter((w) => known.get(w.source)?.outputs.includes(w.sourcePort) && known.get(w.target)?.inputs.includes(w.targetPort))
    .map((w, i) => ({ id: `e${i}`, sources: [portId(w.source, 'out', w.sourcePort)], targets: [portId(w.target, 'in', w.targetPort)] }));
  const result = await engine.layout({
    id: 'root',
    children,
    edges,
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      // Wires into a group's box reach its members; it stops ELK packing separate graphs, which is done below.
      ...(groups.size > 0 ? { 'elk.hierarchyHandling': 'INCLUDE_CHILDREN' } : {}),
      'elk.layered.spacing.nodeNodeBetweenLayers': String(LAYER_GAP),
      'elk.spacing.nodeNode': String(NODE_GAP),
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.layered.nodePlacement.strategy': 'NETWORK_SIMPLEX',
      'elk.padding': '[top=0,left=0,bottom=0,right=0]',
    },
  });
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
  return placed;
}

/**
 * Where each item goes, by canvas id, with the top-left of the laid-out whole at `origin`. Items
 * never overlap one another, a group's members end up together, and separate graphs are packed
 * in rows in the order they were given.
 */
export async function computeLayout(graph: LayoutGraph, origin: XY): Promise<Record<string, XY>> {
  const engine = await elk();
  const parts = await Promise.all(components(graph.items, graph.wires).map((items) => layoutComponent(engine, items, graph.wires)));
  const boxes = parts.map((placed) => ({ placed, box: boundsOf([...placed.values()]) })).filter((p) => p.placed.size > 0);
  const area = boxes.reduce((sum, { box }) => sum + (box.width + COMPONENT_GAP) * (box.height + COMPONENT_GAP), 0);
  const rowWidth = Math.max(Math.sqrt(area * ASPECT), ...boxes.map(({ box }) => box.width));
  const out = keyedRecord<XY>();
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const { placed, box } of boxes) {
    if (x > 0 && x + box.width > rowWidth) {
      x = 0;
      y += rowHeight + COMPONENT_GAP;
      rowHeight = 0;
    }
    for (const [id, r] of placed) out[id] = { x: Math.round(origin.x + x + r.x - box.x), y: Math.round(origin.y + y + r.y - box.y) };
    x += box.width + COMPONENT_GAP;
    rowHeight = Math.max(rowHeight, box.height);
  }
  return out;
}
