/**
 * Lookups derived from the document, rebuilt after each change. Entries for nodes whose edges did
 * not change keep their identity, so a node view subscribed to its own entry does not re-render
 * when another node is edited (500 nodes, one keystroke, one node re-rendered).
 */
import type { Workflow, WorkflowEdge, WorkflowNode } from '../../workflow/schema';

/** Edges into one node, by input port name. */
export type InboundEdges = ReadonlyMap<string, WorkflowEdge>;

export interface GraphIndex {
  nodeById: ReadonlyMap<string, WorkflowNode>;
  /** Node id → its connected inputs. Nodes with none are absent. */
  inbound: ReadonlyMap<string, InboundEdges>;
  /** Node id → edges leaving it, in document order. Nodes with none are absent. */
  outbound: ReadonlyMap<string, readonly WorkflowEdge[]>;
  edgeById: ReadonlyMap<string, WorkflowEdge>;
}

export const EMPTY_INDEX: GraphIndex = { nodeById: new Map(), inbound: new Map(), outbound: new Map(), edgeById: new Map() };

function sameInbound(a: InboundEdges | undefined, b: Map<string, WorkflowEdge>): boolean {
  if (a === undefined || a.size !== b.size) return false;
  for (const [port, edge] of b) if (a.get(port) !== edge) return false;
  return true;
}

function sameList(a: readonly WorkflowEdge[] | undefined, b: readonly WorkflowEdge[]): boolean {
  return a !== undefined && a.length === b.length && a.every((edge, i) => edge === b[i]);
}

/** The index of `doc`, reusing the entries of `previous` that are unchanged. */
export function buildIndex(doc: Pick<Workflow, 'nodes' | 'edges'>, previous: GraphIndex = EMPTY_INDEX): GraphIndex {
  const nodeById = new Map<string, WorkflowNode>();
  for (const node of doc.nodes) nodeById.set(node.id, node);

  const inboundNew = new Map<string, Map<string, WorkflowEdge>>();
  const outboundNew = new Map<string, WorkflowEdge[]>();
  const edgeById = new Map<string, WorkflowEdge>();
  for (const edge of doc.edges) {
    edgeById.set(edge.id, edge);
    let into = inboundNew.get(edge.target.node);
    if (!into) inboundNew.set(edge.target.node, (into = new Map()));
    into.set(edge.target.port, edge);
    let out = outboundNew.get(edge.source.node);
    if (!out) outboundNew.set(edge.source.node, (out = []));
    out.push(edge);
  }

  const inbound = new Map<string, InboundEdges>();
  for (const [id, edges] of inboundNew) {
    const before = previous.inbound.get(id);
    inbound.set(id, sameInbound(before, edges) ? before! : edges);
  }
  const outbound = new Map<string, readonly WorkflowEdge[]>();
  for (const [id, edges] of outboundNew) {
    const before = previous.outbound.get(id);
    outbound.set(id, sameList(before, edges) ? before! : edges);
  }
  return { nodeById, inbound, outbound, edgeById };
}
