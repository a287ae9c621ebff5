/**
 * Where lists flow in a graph, from the port kinds alone (no values): which nodes will run once
 * per item because a list reaches an input of theirs that takes one value, and so which wires
 * carry lists. The editor draws those wires as lists; the estimate flags such nodes when the
 * length of the list is not known before the run. At run time a list of one is its item, so a
 * node found here may still run once.
 */
import type { PortKind, PortSpec } from './types';
import { listKindOf, splitsList } from './values';

/** A node as the analysis needs it: its ports and what feeds each input. */
export interface FlowNode {
  inputs: readonly PortSpec[];
  outputs: readonly PortSpec[];
  /** Input port name → the output that feeds it. */
  bindings: Iterable<readonly [string, { node: string; port: string }]>;
}

export interface ListFlow {
  /** Nodes that run once per item. */
  fanning: Set<string>;
  /** For each of them, its inputs that take a list one item at a time, in input order. */
  splitting: Map<string, string[]>;
  /** What an output carries: its own kind, or the list of it when its node runs once per item. */
  carried(from: { node: string; port: string }): PortKind | undefined;
}

/** Where lists flow in `nodes` (see fanningNodes). */
export function listFlow(nodes: ReadonlyMap<string, FlowNode>): ListFlow {
  const fanning = fanningNodes(nodes);
  const carried = (from: { node: string; port: string }) => carriedKind(from, nodes, (id) => fanning.has(id));
  const splitting = new Map<string, string[]>();
  for (const id of fanning) {
    const node = nodes.get(id)!;
    const ports: string[] = [];
    for (const port of node.inputs) {
      const from = [...node.bindings].find(([name]) => name === port.name)?.[1];
      const kind = from && carried(from);
      if (kind !== undefined && splitsList(port, kind)) ports.push(port.name);
    }
    splitting.set(id, ports);
  }
  return { fanning, splitting, carried };
}

/**
 * The ids of the nodes that run once per item. `nodes` may hold a cycle (a graph being edited):
 * a node met again while it is being decided counts as not fanning out.
 */
export function fanningNodes(nodes: ReadonlyMap<string, FlowNode>): Set<string> {
  const decided = new Map<string, boolean>();
  const fans = (id: string): boolean => {
    const known = decided.get(id);
    if (known !== undefined) return known;
    decided.set(id, false);
    const node = nodes.get(id);
    let result = false;
    if (node) {
      for (const [portName, from] of node.bindings) {
        const port = node.inputs.find((p) => p.name === portName);
        const kind = port && carriedKind(from, nodes, fans);
        if (port && kind !== undefined && splitsList(port, kind)) {
          result = true;
          break;
        }
      }
    }
    decided.set(id, result);
    return result;
  };
  const out = new Set<string>();
  for (const id of nodes.keys()) if (fans(id)) out.add(id);
  return out;
}

/** What an output carries: its own kind, or the list of it when its node runs once per item. */
function carriedKind(from: { node: string; port: string }, nodes: ReadonlyMap<string, FlowNode>, fans: (id: string) => boolean): PortKind | undefined {
  const kind = nodes.get(from.node)?.outputs.find((p) => p.name === from.port)?.kind;
  if (kind === undefined) return undefined;
  return fans(from.node) ? listKindOf(kind) ?? kind : kind;
}

/** "8 × 3 = 24" for a cross product, "8" for a zip or a single list. */
export function describeCount(fan: { count: number; mode: 'zip' | 'cross'; lists: readonly { length: number }[] }): string {
  if (fan.mode === 'cross' && fan.lists.length > 1) return `${fan.lists.map((l) => l.length).join(' × ')} = ${fan.count}`;
  return String(fan.count);
}
