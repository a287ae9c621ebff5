/**
 * Where lists flow in the document being edited (nodes/list-flow.ts), worked out once per
 * version of its nodes and edges: the wires that carry lists are drawn as lists, and a node that
 * takes two or more lists one item at a time offers the choice of zipping or crossing them.
 */
import type { NodeRegistry } from '../../nodes/index';
import { listFlow, type FlowNode, type ListFlow } from '../../nodes/list-flow';
import type { Workflow } from '../../workflow/schema';
import { portsOf } from '../store/ports';

const memo = new WeakMap<Workflow['nodes'], WeakMap<Workflow['edges'], ListFlow>>();

export function listFlowOf(doc: Pick<Workflow, 'nodes' | 'edges'>, registry: NodeRegistry): ListFlow {
  let byEdges = memo.get(doc.nodes);
  if (!byEdges) memo.set(doc.nodes, (byEdges = new WeakMap()));
  const known = byEdges.get(doc.edges);
  if (known) return known;
  const bindings = new Map<string, [string, { node: string; port: string }][]>();
  for (const e of doc.edges) {
    const list = bindings.get(e.target.node) ?? [];
    list.push([e.target.port, e.source]);
    bindings.set(e.target.node, list);
  }
  const nodes = new Map<string, FlowNode>();
  for (const node of doc.nodes) {
    const ports = portsOf(node, registry);
    nodes.set(node.id, { inputs: ports.inputs, outputs: ports.outputs, bindings: bindings.get(node.id) ?? [] });
  }
  const flow = listFlow(nodes);
  byEdges.set(doc.edges, flow);
  return flow;
}
