/**
 * The connection check: whether an output may be wired to an input, and if not,
 * why, in words a person can act on. React Flow's isValidConnection asks it while a wire is drawn,
 * the hint beside the cursor shows its reason, and the store asks it again before connecting.
 */
import { registry as defaultRegistry, type NodeRegistry } from '../../nodes/index';
import { portAccepts } from '../../nodes/values';
import type { PortRef, Workflow, WorkflowEdge } from '../../workflow/schema';
import { KIND_LABEL, kindsTakenBy, listKinds, portsOf } from './ports';

export type ConnectCheck =
  | { ok: true; /** The edge the new one replaces: an input takes one wire. */ replaces?: WorkflowEdge }
  | { ok: false; reason: string };

type Graph = Pick<Workflow, 'nodes' | 'edges'>;

function titleOf(graph: Graph, id: string, registry: NodeRegistry): string {
  const node = graph.nodes.find((n) => n.id === id);
  if (!node) return id;
  return node.title || registry.get(node.type)?.title || node.type;
}

/** Whether `from` can reach `to` following edges forward. */
function reaches(graph: Graph, from: string, to: string): boolean {
  const next = new Map<string, string[]>();
  for (const e of graph.edges) {
    const list = next.get(e.source.node);
    if (list) list.push(e.target.node);
    else next.set(e.source.node, [e.target.node]);
  }
  const seen = new Set([from]);
  const stack = [from];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (id === to) return true;
    for (const n of next.get(id) ?? []) {
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(n);
      }
    }
  }
  return false;
}

/** Whether the output `from` may be wired to the input `to`, or the reason it may not. */
export function canConnect(graph: Graph, from: PortRef, to: PortRef, registry: NodeRegistry = defaultRegistry): ConnectCheck {
  const source = graph.nodes.find((n) => n.id === from.node);
  const target = graph.nodes.find((n) => n.id === to.node);
  if (!source) return { ok: false, reason: `there is no node '${from.node}'` };
  if (!target) return { ok: false, reason: `there is no node '${to.node}'` };
  if (source.id === target.id) return { ok: false, reason: 'a node cannot feed its own input' };

  const sourcePorts = portsOf(source, registry);
  const targetPorts = portsOf(target, registry);
  if (!sourcePorts.def) return { ok: false, reason: `'${titleOf(graph, source.id, registry)}' is an unknown node type (${source.type}); it cannot be wired` };
  if (!targetPorts.def) return { ok: false, reason: `'${titleOf(graph, target.id, registry)}' is an unknown node type (${target.type}); it cannot be wired` };

  const output = sourcePorts.outputs.find((p) => p.name === from.port);
  if (!output) return { ok: false, reason: `'${titleOf(graph, source.id, registry)}' has no output '${from.port}'` };
  const input = targetPorts.inputs.find((p) => p.name === to.port);
  if (!input) return { ok: false, reason: `'${titleOf(graph, target.id, registry)}' has no input '${to.port}'` };

  if (!portAccepts(input, output.kind)) {
    return {
      ok: false,
      reason: `${output.label} gives ${KIND_LABEL[output.kind]}, but ${input.label} takes ${listKinds(kindsTakenBy(input))}`,
    };
  }
  if (reaches(graph, target.id, source.id)) {
    let [upstream, downstream] = [titleOf(graph, target.id, registry), titleOf(graph, source.id, registry)];
    // Two nodes of the same type would read "'Image to image' already feeds 'Image to image'".
    if (upstream === downstream) [upstream, downstream] = [`${upstream}' (${target.id})`, `${downstream}' (${source.id})`];
    else [upstream, downstream] = [`${upstream}'`, `${downstream}'`];
    return { ok: false, reason: `this would make a loop: '${upstream} already feeds '${downstream}` };
  }
  const existing = graph.edges.find((e) => e.target.node === to.node && e.target.port === to.port);
  if (existing && existing.source.node === from.node && existing.source.port === from.port) {
    return { ok: false, reason: 'these two ports are already connected' };
  }
  return existing ? { ok: true, replaces: existing } : { ok: true };
}
