/**
 * Editing a definition from inside (the editor's opened component): after each change to its inner
 * nodes and edges, the face is brought back in line with them and the file stays valid, as one
 * step with the change. Face ports and shown parameters whose inner node is gone are dropped, an
 * input whose inner port now has an inner wire stops feeding it, and every instance loses the
 * wires and values of what was dropped. The hash follows the content, the revision counts edits.
 * The functions mutate what they are given (immer drafts in the editor) and touch nothing else.
 */
import { componentHash } from './components';
import { COMPONENT_TYPE_PREFIX, type ComponentDefinition, type ComponentParam, type Workflow, type WorkflowEdge, type WorkflowNode } from './schema';

/** What an edit took off a definition's face, by face name. */
export interface FaceDrops {
  inputs: ReadonlySet<string>;
  outputs: ReadonlySet<string>;
  params: ReadonlySet<string>;
}

/** Brings `def`'s face in line with its inner graph; returns what it dropped. Mutates `def`. */
export function reconcileFace(def: ComponentDefinition): FaceDrops {
  const inner = new Set(def.nodes.map((n) => n.id));
  const fedInside = new Set(def.edges.map((e) => JSON.stringify([e.target.node, e.target.port])));
  const inputs = new Set<string>();
  for (const input of def.inputs) {
    const keep = input.targets.filter((t) => inner.has(t.node) && !fedInside.has(JSON.stringify([t.node, t.port])));
    if (keep.length !== input.targets.length) input.targets = keep;
    if (keep.length === 0) inputs.add(input.name);
  }
  if (inputs.size > 0) def.inputs = def.inputs.filter((i) => !inputs.has(i.name));
  const outputs = new Set(def.outputs.filter((o) => !inner.has(o.source.node)).map((o) => o.name));
  if (outputs.size > 0) def.outputs = def.outputs.filter((o) => !outputs.has(o.name));
  const params = new Set(def.params.filter((p) => !inner.has(p.node)).map((p) => p.name));
  if (params.size > 0) def.params = def.params.filter((p) => !params.has(p.name));
  return { inputs, outputs, params };
}

/** Takes the dropped face off every instance of `type` in one graph: its wires to those ports, its values of those parameters. */
function dropOnInstances(graph: { nodes: WorkflowNode[]; edges: WorkflowEdge[] }, type: string, drops: FaceDrops): void {
  const instances = new Set(graph.nodes.filter((n) => n.type === type).map((n) => n.id));
  if (instances.size === 0) return;
  if (drops.params.size > 0) {
    for (const node of graph.nodes) {
      if (!instances.has(node.id)) continue;
      for (const name of drops.params) if (Object.hasOwn(node.params, name)) delete node.params[name];
    }
  }
  if (drops.inputs.size > 0 || drops.outputs.size > 0) {
    const gone = (e: WorkflowEdge) => (instances.has(e.target.node) && drops.inputs.has(e.target.port))
      || (instances.has(e.source.node) && drops.outputs.has(e.source.port));
    if (graph.edges.some(gone)) graph.edges = graph.edges.filter((e) => !gone(e));
  }
}

/**
 * After an edit of definition `id`'s inner graph inside `root`: its face reconciled, its hash and
 * revision moved on when its content changed, and its instances everywhere (the file's graph and
 * other definitions) cleared of what the face dropped. Mutates `root`.
 */
export function afterDefinitionEdit(root: Workflow, id: string): void {
  const def = root.components?.find((c) => c.id === id);
  if (def === undefined) return;
  const drops = reconcileFace(def);
  const hash = componentHash(def);
  if (hash !== def.hash) {
    def.hash = hash;
    def.revision += 1;
  }
  if (drops.inputs.size + drops.outputs.size + drops.params.size === 0) return;
  const type = COMPONENT_TYPE_PREFIX + id;
  dropOnInstances(root, type, drops);
  for (const other of root.components ?? []) if (other !== def) dropOnInstances(other, type, drops);
}

/** Whether any node of the file's graph or of a definition is an instance of `id`. */
export function componentInUse(root: Pick<Workflow, 'nodes' | 'components'>, id: string): boolean {
  const type = COMPONENT_TYPE_PREFIX + id;
  return root.nodes.some((n) => n.type === type) || (root.components ?? []).some((c) => c.nodes.some((n) => n.type === type));
}

/** What is wrong with `params` as the shown parameters of `def`, or undefined when nothing is. */
export function faceParamsProblem(def: ComponentDefinition, params: readonly ComponentParam[]): string | undefined {
  const inner = new Set(def.nodes.map((n) => n.id));
  const seen = new Set<string>();
  for (const p of params) {
    if (seen.has(p.name)) return `two shown fields are named '${p.name}'`;
    seen.add(p.name);
    if (!inner.has(p.node)) return `shown field '${p.name}' names '${p.node}', which is not a node of '${def.name}'`;
  }
  return undefined;
}

/**
 * Gives definition `id` inside `root` the shown parameters `params` (Edit face): its hash and
 * revision move on, and every instance (the file's graph and other definitions) loses its values
 * of the names no longer shown, or now naming another field. Mutates `root`; returns the names
 * dropped, or throws saying what is wrong with `params` (faceParamsProblem).
 */
export function setFaceParams(root: Workflow, id: string, params: readonly ComponentParam[]): ReadonlySet<string> {
  const def = root.components?.find((c) => c.id === id);
  if (def === undefined) throw new Error(`there is no component '${id}' in this workflow`);
  const problem = faceParamsProblem(def, params);
  if (problem !== undefined) throw new Error(problem);
  const next = new Map(params.map((p) => [p.name, p]));
  const dropped = new Set(def.params.filter((p) => next.get(p.name)?.node !== p.node || next.get(p.name)?.param !== p.param).map((p) => p.name));
  def.params = params.map(({ name, label, node, param }) => ({ name, label, node, param }));
  const hash = componentHash(def);
  if (hash !== def.hash) {
    def.hash = hash;
    def.revision += 1;
  }
  if (dropped.size > 0) {
    const drops: FaceDrops = { inputs: new Set(), outputs: new Set(), params: dropped };
    const type = COMPONENT_TYPE_PREFIX + id;
    dropOnInstances(root, type, drops);
    for (const other of root.components ?? []) if (other !== def) dropOnInstances(other, type, drops);
  }
  return dropped;
}
