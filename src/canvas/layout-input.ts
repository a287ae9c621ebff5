/**
 * What auto-layout is given: the nodes to place (all, or the selection) with their drawn sizes
 * and port order, the wires between them, and the groups they sit in. Sizes come from the canvas
 * at full zoom (a node drawn small in the overview must not be laid out small).
 *
 * A free note (in no group) written beside a node is about that node: it travels with it. The
 * node is laid out as one box around itself and its notes, so the note keeps its place beside
 * the node and nothing else is put on top of it. A note far from every node stays where it is.
 */
import type { NodeRegistry } from '../../nodes/index';
import type { Workflow, WorkflowNote } from '../../workflow/schema';
import { boundsOf, membership, noteItem, rectOf, type Rect } from '../store/frames';
import type { Selection, XY } from '../store/state';
import type { LayoutGraph, LayoutItem } from './auto-layout';
import { portsOf } from '../store/ports';
import type { SizeBook } from './size-book';
import { keyedRecord } from '../../workflow/keys';

/** How far (flow px, edge to edge) a free note may be from a node and still be about it. */
export const NOTE_REACH = 160;

/** A canvas item laid out inside another's box, at this offset from the box's top-left. */
interface Carried {
  id: string;
  dx: number;
  dy: number;
}

export interface LayoutRequest {
  graph: LayoutGraph;
  /** Where the laid-out whole starts: the top-left of what it replaces. */
  origin: XY;
  /** Whether the selection alone is laid out. */
  partial: boolean;
  /** Layout items that are a node with its free notes: what each box holds, the node included. */
  boxes: ReadonlyMap<string, readonly Carried[]>;
}

/** Edge-to-edge distance between two rectangles (0 when they touch or overlap). */
function gap(a: Rect, b: Rect): number {
  const dx = Math.max(0, a.x - (b.x + b.width), b.x - (a.x + a.width));
  const dy = Math.max(0, a.y - (b.y + b.height), b.y - (a.y + a.height));
  return Math.hypot(dx, dy);
}

const centreDistance = (a: Rect, b: Rect) => Math.hypot(a.x + a.width / 2 - b.x - b.width / 2, a.y + a.height / 2 - b.y - b.height / 2);

/** The node a free note is about: the nearest within NOTE_REACH (overlapping ones by centre), if any. */
function anchorOf(note: Rect, nodes: ReadonlyMap<string, Rect>): string | undefined {
  let best: { id: string; gap: number; centre: number } | undefined;
  for (const [id, rect] of nodes) {
    const g = gap(note, rect);
    if (g > NOTE_REACH) continue;
    const c = centreDistance(note, rect);
    if (!best || g < best.gap || (g === best.gap && c < best.centre)) best = { id, gap: g, centre: c };
  }
  return best?.id;
}

export function layoutRequest(doc: Workflow, selection: Selection, registry: NodeRegistry, sizes: SizeBook): LayoutRequest | undefined {
  const selectedNodes = doc.nodes.filter((n) => selection.nodes.has(n.id));
  const partial = selectedNodes.length >= 2;
  const nodes = partial ? selectedNodes : doc.nodes;
  if (nodes.length === 0) return undefined;
  const ids = new Set(nodes.map((n) => n.id));
  const owner = membership(doc);
  const inbound = new Map<string, Set<string>>();
  const outbound = new Map<string, Set<string>>();
  for (const e of doc.edges) {
    if (!ids.has(e.source.node) || !ids.has(e.target.node)) continue;
    (outbound.get(e.source.node) ?? outbound.set(e.source.node, new Set()).get(e.source.node)!).add(e.source.port);
    (inbound.get(e.target.node) ?? inbound.set(e.target.node, new Set()).get(e.target.node)!).add(e.target.port);
  }

  // Every node counts as an anchor, laid out or not: a note beside a node left in place stays too.
  const nodeRects = new Map(doc.nodes.map((n) => [n.id, { ...n.position, ...sizes.size(n.id, n.type) }]));
  const notesOf = new Map<string, WorkflowNote[]>();
  for (const note of doc.notes ?? []) {
    if (owner.has(noteItem(note.id))) continue;
    const anchor = anchorOf(rectOf(note), nodeRects);
    if (anchor !== undefined && ids.has(anchor)) notesOf.set(anchor, [...(notesOf.get(anchor) ?? []), note]);
  }

  const items: LayoutItem[] = [];
  const before: Rect[] = [];
  const boxes = new Map<string, Carried[]>();
  for (const node of nodes) {
    const ports = portsOf(node, registry);
    // A wire to a port the node no longer declares still counts, after the declared ones.
    const inputs = [...ports.inputs.map((p) => p.name), ...[...(inbound.get(node.id) ?? [])].filter((p) => !ports.inputs.some((q) => q.name === p))];
    const outputs = [...ports.outputs.map((p) => p.name), ...[...(outbound.get(node.id) ?? [])].filter((p) => !ports.outputs.some((q) => q.name === p))];
    const own = nodeRects.get(node.id)!;
    const notes = notesOf.get(node.id) ?? [];
    const box = boundsOf([own, ...notes.map(rectOf)]);
    if (notes.length > 0) {
      boxes.set(node.id, [{ id: node.id, dx: own.x - box.x, dy: own.y - box.y }, ...notes.map((n) => ({ id: noteItem(n.id), dx: n.position.x - box.x, dy: n.position.y - box.y }))]);
    }
    const group = owner.get(node.id);
    items.push({ id: node.id, width: box.width, height: box.height, inputs, outputs, ...(group !== undefined ? { group } : {}) });
    before.push(box);
  }
  // Notes in a group travel with it: laid out inside it when the whole group is.
  const placedGroups = new Set(items.flatMap((i) => (i.group === undefined ? [] : [i.group])));
  for (const note of doc.notes ?? []) {
    const group = owner.get(noteItem(note.id));
    if (group === undefined || !placedGroups.has(group)) continue;
    if (partial && !selection.nodes.has(noteItem(note.id))) continue;
    items.push({ id: noteItem(note.id), width: note.size.width, height: note.size.height, inputs: [], outputs: [], group });
    before.push(rectOf(note));
  }
  const wires = doc.edges
    .filter((e) => ids.has(e.source.node) && ids.has(e.target.node))
    .map((e) => ({ source: e.source.node, sourcePort: e.source.port, target: e.target.node, targetPort: e.target.port }));
  const box = boundsOf(before);
  return { graph: { items, wires }, origin: { x: box.x, y: box.y }, partial, boxes };
}

/** Where each canvas item goes, from where each layout item's box went: a node's notes beside it. */
export function placeLaidOut(request: Pick<LayoutRequest, 'boxes'>, laidOut: Readonly<Record<string, XY>>): Record<string, XY> {
  const out = keyedRecord<XY>();
  for (const [id, at] of Object.entries(laidOut)) {
    const carried = request.boxes.get(id);
    if (!carried) out[id] = at;
    else for (const c of carried) out[c.id] = { x: at.x + c.dx, y: at.y + c.dy };
  }
  return out;
}
