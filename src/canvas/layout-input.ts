/**
 * What auto-layout is given: the nodes to place (all, or the selection) with their drawn sizes
 * and port order, the wires between them, and the groups they sit in. Sizes come from the canvas
 * at full zoom (a node drawn small in the overview must not be laid out small).
 */
import type { NodeRegistry } from '../../nodes/index';
import type { Workflow } from '../../workflow/schema';
import { boundsOf, membership, noteItem, rectOf, type Rect } from '../store/frames';
import type { Selection, XY } from '../store/state';
import type { LayoutGraph, LayoutItem } from './auto-layout';
import { portsOf } from './ports';
import type { SizeBook } from './size-book';

export interface LayoutRequest {
  graph: LayoutGraph;
  /** Where the laid-out whole starts: the top-left of what it replaces. */
  origin: XY;
  /** Whether the selection alone is laid out. */
  partial: boolean;
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

  const items: LayoutItem[] = [];
  const before: Rect[] = [];
  for (const node of nodes) {
    const ports = portsOf(node, registry);
    // A wire to a port the node no longer declares still counts, after the declared ones.
    const inputs = [...ports.inputs.map((p) => p.name), ...[...(inbound.get(node.id) ?? [])].filter((p) => !ports.inputs.some((q) => q.name === p))];
    const outputs = [...ports.outputs.map((p) => p.name), ...[...(outbound.get(node.id) ?? [])].filter((p) => !ports.outputs.some((q) => q.name === p))];
    const { width, height } = sizes.size(node.id, node.type);
    const group = owner.get(node.id);
    items.push({ id: node.id, width, height, inputs, outputs, ...(group !== undefined ? { group } : {}) });
    before.push({ ...node.position, width, height });
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
  return { graph: { items, wires }, origin: { x: box.x, y: box.y }, partial };
}
