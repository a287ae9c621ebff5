/**
 * Components flattened away: one pure step before planning (workers/plan.ts) turns every instance
 * into its inner nodes, so caching, fan-out, bypass, cost and errors stay per inner node. An inner
 * node's id is its path through the instances (`restyle-1/img2img`; '/' is never in a node id, so
 * it cannot meet a node of the file), and its title names the way in ("Restyle › Image to image").
 * Nothing here trusts the file: a missing definition, a component inside itself, shown values
 * without a shown parameter and a graph that would grow past the limit are refused with reasons.
 */
import { COMPONENT_TYPE_PREFIX, type ComponentDefinition, type PortRef, type Workflow, type WorkflowEdge, type WorkflowNode } from './schema';
import { edgeIdFor } from './create';

/** Nodes a flattened workflow may have, at most: a component is no way round the run's size. */
export const MAX_FLAT_NODES = 10_000;
/** Components inside components, at most this deep. */
export const MAX_COMPONENT_DEPTH = 16;

export interface FlattenOptions {
  /** A node type's title, for the names of inner nodes without their own title. */
  typeTitle?: (type: string) => string | undefined;
  maxNodes?: number;
}

/** A reason the workflow cannot be flattened, on the top-level node it concerns. */
export interface FlattenProblem {
  nodeId: string;
  message: string;
}

export type FlattenResult =
  | { ok: true; workflow: Workflow; instances: ReadonlyMap<string, readonly string[]> }
  | { ok: false; problems: FlattenProblem[] };

/** Where an instance's face leads inside it, in flat ids. */
interface Face {
  inputs: Map<string, PortRef[]>;
  outputs: Map<string, PortRef>;
}

const idOf = (type: string) => (type.startsWith(COMPONENT_TYPE_PREFIX) ? type.slice(COMPONENT_TYPE_PREFIX.length) : undefined);

/**
 * The workflow with every component instance replaced by its inner nodes and the wires through its
 * face joined up; `instances` lists each top-level instance's flat node ids (for "run to here" on
 * an instance, and to show progress on it). A workflow without instances comes back as it is.
 */
export function flattenComponents(workflow: Workflow, options: FlattenOptions = {}): FlattenResult {
  if (!workflow.nodes.some((n) => idOf(n.type) !== undefined)) return { ok: true, workflow, instances: new Map() };
  const defs = new Map<string, ComponentDefinition>();
  for (const def of workflow.components ?? []) if (!defs.has(def.id)) defs.set(def.id, def);
  const limit = options.maxNodes ?? MAX_FLAT_NODES;

  const problems: FlattenProblem[] = [];
  const sizes = new Map<string, number>();
  // Counted before anything is built, capped past the limit, so nesting cannot blow up memory or time.
  const sizeOf = (defId: string, trail: readonly string[]): number => {
    const known = sizes.get(defId);
    if (known !== undefined) return known;
    const def = defs.get(defId);
    if (def === undefined) return 1;
    if (trail.includes(defId)) throw new Error(`component '${defId}' contains itself through ${[...trail, defId].map((c) => `'${c}'`).join(' › ')}`);
    if (trail.length >= MAX_COMPONENT_DEPTH) throw new Error(`components are nested more than ${MAX_COMPONENT_DEPTH} deep`);
    let size = 0;
    for (const node of def.nodes) {
      const inner = idOf(node.type);
      size = Math.min(limit + 1, size + (inner === undefined ? 1 : sizeOf(inner, [...trail, defId])));
    }
    sizes.set(defId, size);
    return size;
  };
  let total = 0;
  for (const node of workflow.nodes) {
    const defId = idOf(node.type);
    try {
      total = Math.min(limit + 1, total + (defId === undefined ? 1 : sizeOf(defId, [])));
    } catch (error) {
      problems.push({ nodeId: node.id, message: (error as Error).message });
    }
  }
  if (problems.length === 0 && total > limit) {
    problems.push({ nodeId: workflow.nodes.find((n) => idOf(n.type) !== undefined)!.id, message: `its components would make a run of more than ${limit} nodes, the limit` });
  }
  if (problems.length > 0) return { ok: false, problems };

  const nodes: WorkflowNode[] = [];
  const edges: WorkflowEdge[] = [];
  const instances = new Map<string, string[]>();
  const faces = new Map<string, Face>();
  const title = (node: WorkflowNode) => node.title ?? options.typeTitle?.(node.type) ?? node.type;

  /** Adds `graph`'s nodes under `prefix`, expanding instances and recording each one's face by its flat id. */
  const expand = (graph: { nodes: WorkflowNode[]; edges: WorkflowEdge[] }, prefix: string, names: string, bypass: boolean, top: string | undefined): void => {
    for (const node of graph.nodes) {
      const flatId = prefix + node.id;
      const owner = top ?? node.id;
      const defId = idOf(node.type);
      const def = defId === undefined ? undefined : defs.get(defId);
      if (defId !== undefined && def === undefined) {
        problems.push({ nodeId: owner, message: `${names}${node.title ?? node.id}: the definition of component '${defId}' is not in this file, so it cannot run` });
        continue;
      }
      if (def === undefined) {
        const flat: WorkflowNode = { ...node, id: flatId, params: node.params };
        if (names !== '') flat.title = names + title(node);
        if (bypass) flat.bypass = true;
        nodes.push(flat);
        if (top !== undefined) instances.get(top)!.push(flatId);
        continue;
      }
      if (top === undefined) instances.set(node.id, []);
      const inner = applyShown(def, node, names + (node.title ?? def.name), problems, owner);
      expand(inner, `${flatId}/`, `${names}${node.title ?? def.name} › `, bypass || node.bypass === true, owner);
      const face: Face = { inputs: new Map(), outputs: new Map() };
      for (const input of def.inputs) face.inputs.set(input.name, input.targets.map((t) => resolveTarget(`${flatId}/`, t)).flat());
      for (const output of def.outputs) face.outputs.set(output.name, resolveSource(`${flatId}/`, output.source));
      faces.set(flatId, face);
    }
    for (const edge of graph.edges) {
      const source = resolveSource(prefix, edge.source);
      for (const target of resolveTarget(prefix, edge.target)) edges.push({ id: edgeIdFor(source, target), source, target });
    }
  };
  const resolveSource = (prefix: string, ref: PortRef): PortRef => {
    const id = prefix + ref.node;
    const face = faces.get(id);
    if (face === undefined) return { node: id, port: ref.port };
    // An output the face does not offer: kept as a dangling port so validation names it.
    return face.outputs.get(ref.port) ?? { node: id, port: ref.port };
  };
  const resolveTarget = (prefix: string, ref: PortRef): PortRef[] => {
    const id = prefix + ref.node;
    const face = faces.get(id);
    if (face === undefined) return [{ node: id, port: ref.port }];
    return face.inputs.get(ref.port) ?? [{ node: id, port: ref.port }];
  };

  // In the file's order, so plans of files without components do not move and an instance's inner
  // nodes stand where it stood. The file's wires are joined after every face is known.
  expand({ nodes: workflow.nodes, edges: [] }, '', '', false, undefined);
  for (const edge of workflow.edges) {
    const source = resolveSource('', edge.source);
    for (const target of resolveTarget('', edge.target)) edges.push({ id: edgeIdFor(source, target), source, target });
  }
  if (problems.length > 0) return { ok: false, problems };
  const { components: _drop, ...rest } = workflow;
  return { ok: true, workflow: { ...rest, nodes, edges }, instances };
}

/**
 * Inner node `node` of `def` with the parameters an instance shows laid over its own: the
 * instance's value of each shown field that names this node. Its own params when none applies,
 * else a copy without a prototype (parameter names come from the file).
 */
export function layShown(def: ComponentDefinition, node: WorkflowNode, instanceParams: Readonly<Record<string, unknown>>): Record<string, unknown> {
  let laid: Record<string, unknown> | undefined;
  for (const shown of def.params) {
    if (shown.node !== node.id || !Object.hasOwn(instanceParams, shown.name)) continue;
    laid ??= Object.assign(Object.create(null) as Record<string, unknown>, node.params);
    laid[shown.param] = instanceParams[shown.name];
  }
  return laid ?? node.params;
}

/** The definition's inner nodes with the instance's shown values laid over their parameters. */
function applyShown(def: ComponentDefinition, instance: WorkflowNode, name: string, problems: FlattenProblem[], owner: string): { nodes: WorkflowNode[]; edges: WorkflowEdge[] } {
  for (const key of Object.keys(instance.params)) {
    if (!def.params.some((p) => p.name === key)) {
      problems.push({ nodeId: owner, message: `${name}: '${key}' is not a parameter it shows (it shows ${def.params.map((p) => `'${p.name}'`).join(', ') || 'none'})` });
    }
  }
  const nodes = def.nodes.map((node) => {
    const params = layShown(def, node, instance.params);
    return params === node.params ? node : { ...node, params };
  });
  return { nodes, edges: def.edges };
}
