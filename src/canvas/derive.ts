/**
 * React Flow's nodes and edges, derived from the document and the UI state. Objects are reused
 * while their inputs are unchanged, so React Flow (which compares by identity) does no work for
 * the 499 nodes that did not move when one did; the same array comes back when nothing changed.
 *
 * A node's measured size is React Flow's own (it measures every node it draws, and keeps the size
 * while it is given the same object); it is written into a node object only when that object is
 * made again for another reason, so that React Flow does not forget it. Measuring 500 freshly
 * opened nodes thus makes no new objects, and React Flow does not adopt them all a second time.
 *
 * A node not measured yet carries its estimated size and handle places (`Unmeasured`): React Flow
 * otherwise draws every node once, in view or not, to measure it, which made opening a 2,000-node
 * workflow draw 2,000 nodes to show a dozen. Measured sizes win as soon as there are some.
 */
import { shownName } from '../store/names';
import type { Edge, Node, NodeHandle } from '@xyflow/react';
import type { NodeRegistry } from '../../nodes/index';
import type { Workflow, WorkflowEdge, WorkflowNode } from '../../workflow/schema';
import type { Selection, XY } from '../store/state';
import { listFlowOf } from './list-flow';
import { portsOf } from '../store/ports';

export interface NodeData extends Record<string, unknown> {
  /** The workflow node type (the React Flow type only says known or unknown). */
  workflowType: string;
}

export type CanvasNode = Node<NodeData, 'atelier' | 'unknown'>;
export type CanvasEdge = Edge;

export interface Size {
  width: number;
  height: number;
}

/** Where a node not drawn yet will be drawn: its size and its handles, in its box. */
export interface Unmeasured extends Size {
  handles: NodeHandle[];
}

interface NodeEntry {
  source: WorkflowNode;
  selected: boolean;
  drag: XY | undefined;
  known: boolean;
  out: CanvasNode;
}

interface EdgeEntry {
  source: WorkflowEdge;
  selected: boolean;
  className: string;
  out: CanvasEdge;
}

export function createDeriver(registry: NodeRegistry) {
  let nodeCache = new Map<string, NodeEntry>();
  let lastNodes: CanvasNode[] = [];
  let edgeCache = new Map<string, EdgeEntry>();
  const data = new Map<string, NodeData>();

  function nodes(doc: Workflow, selection: Selection, drag: ReadonlyMap<string, XY> | null, measured: ReadonlyMap<string, Size>,
    unmeasured: (id: string) => Unmeasured | undefined = () => undefined): CanvasNode[] {
    const next = new Map<string, NodeEntry>();
    let changed = doc.nodes.length !== lastNodes.length;
    const out = doc.nodes.map((node, i) => {
      const selected = selection.nodes.has(node.id);
      const dragAt = drag?.get(node.id);
      const known = registry.has(node.type);
      const before = nodeCache.get(node.id);
      if (before && before.source === node && before.selected === selected && before.drag === dragAt && before.known === known) {
        next.set(node.id, before);
        if (lastNodes[i] !== before.out) changed = true;
        return before.out;
      }
      changed = true;
      const size = measured.get(node.id);
      let d = data.get(node.id);
      if (!d || d.workflowType !== node.type) data.set(node.id, (d = { workflowType: node.type }));
      const title = shownName(node, registry);
      // Measured, it has React Flow's own handle places; else estimated ones, so that it is drawn only once in view.
      const guess = size ? undefined : unmeasured(node.id);
      const rf: CanvasNode = {
        id: node.id,
        type: known ? 'atelier' : 'unknown',
        position: dragAt ?? node.position,
        data: d,
        selected,
        ariaLabel: `${title} node`,
        ...(size ? { measured: size } : {}),
        ...(guess ? { initialWidth: guess.width, initialHeight: guess.height, handles: guess.handles } : {}),
      };
      next.set(node.id, { source: node, selected, drag: dragAt, known, out: rf });
      return rf;
    });
    nodeCache = next;
    for (const id of data.keys()) if (!next.has(id)) data.delete(id);
    if (!changed) return lastNodes;
    lastNodes = out;
    return out;
  }

  function edges(doc: Workflow, selection: Selection, nodeById: ReadonlyMap<string, WorkflowNode>): CanvasEdge[] {
    const next = new Map<string, EdgeEntry>();
    const flow = listFlowOf(doc, registry);
    const out = doc.edges.map((edge) => {
      const selected = selection.edges.has(edge.id);
      const from = nodeById.get(edge.source.node);
      const to = nodeById.get(edge.target.node);
      const output = from && portsOf(from, registry).outputs.find((p) => p.name === edge.source.port);
      const kind = output?.kind;
      // A single-value output of a node that runs once per item carries a list: drawn as one.
      const carried = kind === undefined ? undefined : flow.carried(edge.source);
      const className = `edge-kind-${carried ?? kind ?? 'unknown'}${carried !== undefined && carried !== kind ? ' edge-list' : ''}`;
      const before = edgeCache.get(edge.id);
      // Named by titles and port labels, so a renamed node renames its wires.
      const input = to && portsOf(to, registry).inputs.find((p) => p.name === edge.target.port);
      const ariaLabel = `Wire from ${from ? shownName(from, registry) : edge.source.node}: ${output?.label ?? edge.source.port} to ${to ? shownName(to, registry) : edge.target.node}: ${input?.label ?? edge.target.port}`;
      if (before && before.source === edge && before.selected === selected && before.className === className && before.out.ariaLabel === ariaLabel) {
        next.set(edge.id, before);
        return before.out;
      }
      const rf: CanvasEdge = {
        id: edge.id,
        source: edge.source.node,
        sourceHandle: edge.source.port,
        target: edge.target.node,
        targetHandle: edge.target.port,
        selected,
        className,
        ariaLabel,
      };
      next.set(edge.id, { source: edge, selected, className, out: rf });
      return rf;
    });
    edgeCache = next;
    return out;
  }

  return { nodes, edges };
}
