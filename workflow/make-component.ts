/**
 * Making a component from selected nodes and unpacking an instance back into its nodes: pure
 * functions over the document, shared by the editor (each is one undo step there) and tests.
 * Make: the wires that crossed the selection's border become the instance's ports (one input per
 * outside output feeding in, one output per inside output feeding out). Unpack: the inner nodes
 * come back in place with the instance's shown values; the definition goes when nothing uses it.
 * Either way an app input on a field that stays reachable follows it: onto the instance's face when
 * Make shows that inner field there, back onto the inner node's field on Unpack.
 */
import { componentHash } from './components';
import { componentInUse } from './component-edit';
import { edgeIdFor, uniqueNodeId } from './create';
import { COMPONENT_TYPE_PREFIX, type ComponentDefinition, type ComponentParam, type PortRef, type Workflow, type WorkflowEdge, type WorkflowNode } from './schema';
import type { App, AppInput } from './app';

/** The app with each input `move` gives a new place moved there (the rest as they were). */
function moveAppInputs(app: App | undefined, move: (input: AppInput) => Pick<AppInput, 'node' | 'param'> | undefined): { app?: App } {
  if (app === undefined) return {};
  let moved = false;
  const inputs = app.inputs.map((input) => {
    const to = move(input);
    if (to === undefined) return input;
    moved = true;
    return { ...input, ...to };
  });
  return { app: moved ? { ...app, inputs } : app };
}

export interface MakeOptions {
  /** The component's name, shown on its instances. */
  name: string;
  /** Inner parameters shown on the face, each with its own name and label. */
  shown?: readonly ComponentParam[];
}

export interface Made {
  workflow: Workflow;
  instanceId: string;
  componentId: string;
}

/** `base` when free, else `base-1`, `base-2`… (as uniqueNodeId numbers new nodes). */
function freeId(taken: ReadonlySet<string>, base: string): string {
  if (!taken.has(base)) return base;
  for (let n = 1; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

const key = (ref: PortRef) => JSON.stringify([ref.node, ref.port]);
const faceName = (base: string, taken: Set<string>) => {
  const stem = base.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80) || 'port';
  let name = stem;
  for (let n = 2; taken.has(name); n++) name = `${stem}_${n}`;
  taken.add(name);
  return name;
};

/** The workflow with the nodes `selected` replaced by one instance of a new component. Throws on an empty selection. */
export function makeComponent(workflow: Workflow, selected: ReadonlySet<string>, options: MakeOptions): Made {
  const inner = workflow.nodes.filter((n) => selected.has(n.id));
  if (inner.length === 0) throw new Error('Select the nodes to make a component of');
  // The name as an id ('Restyle' → 'restyle'), numbered only when another component has it.
  const slug = options.name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'component';
  const componentId = freeId(new Set((workflow.components ?? []).map((c) => c.id)), slug);
  const instanceId = uniqueNodeId(workflow, componentId);
  const origin = { x: Math.min(...inner.map((n) => n.position.x)), y: Math.min(...inner.map((n) => n.position.y)) };

  const inputs = new Map<string, { name: string; targets: PortRef[]; from: PortRef }>();
  const outputs = new Map<string, { name: string; source: PortRef; to: PortRef[] }>();
  const inNames = new Set<string>();
  const outNames = new Set<string>();
  const innerEdges: WorkflowEdge[] = [];
  const outerEdges: WorkflowEdge[] = [];
  for (const edge of workflow.edges) {
    const fromIn = selected.has(edge.source.node);
    const toIn = selected.has(edge.target.node);
    if (fromIn && toIn) innerEdges.push(edge);
    else if (toIn) {
      const entry = inputs.get(key(edge.source)) ?? { name: faceName(edge.target.port, inNames), targets: [], from: edge.source };
      entry.targets.push(edge.target);
      inputs.set(key(edge.source), entry);
    } else if (fromIn) {
      const entry = outputs.get(key(edge.source)) ?? { name: faceName(edge.source.port, outNames), source: edge.source, to: [] };
      entry.to.push(edge.target);
      outputs.set(key(edge.source), entry);
    } else outerEdges.push(edge);
  }
  const instancePort = (port: string): PortRef => ({ node: instanceId, port });
  for (const input of inputs.values()) outerEdges.push({ id: edgeIdFor(input.from, instancePort(input.name)), source: input.from, target: instancePort(input.name) });
  for (const output of outputs.values()) {
    for (const to of output.to) outerEdges.push({ id: edgeIdFor(instancePort(output.name), to), source: instancePort(output.name), target: to });
  }

  const content = {
    nodes: inner.map((n) => ({ ...n, position: { x: n.position.x - origin.x, y: n.position.y - origin.y } })),
    edges: innerEdges,
    inputs: [...inputs.values()].map(({ name, targets }) => ({ name, targets })),
    outputs: [...outputs.values()].map(({ name, source }) => ({ name, source })),
    params: [...(options.shown ?? [])],
  };
  const def: ComponentDefinition = { id: componentId, name: options.name, revision: 1, hash: componentHash(content), ...content };
  const instance: WorkflowNode = { id: instanceId, type: COMPONENT_TYPE_PREFIX + componentId, position: origin, params: {} };
  const nodes = workflow.nodes.filter((n) => !selected.has(n.id));
  nodes.splice(workflow.nodes.findIndex((n) => selected.has(n.id)), 0, instance);
  const groups = workflow.groups?.map((g) => ({ ...g, nodes: g.nodes.filter((id) => !selected.has(id)) }));
  const face = new Map((options.shown ?? []).map((p) => [JSON.stringify([p.node, p.param]), p.name]));
  const app = moveAppInputs(workflow.app, (input) => {
    const name = selected.has(input.node) ? face.get(JSON.stringify([input.node, input.param])) : undefined;
    return name === undefined ? undefined : { node: instanceId, param: name };
  });
  return {
    workflow: { ...workflow, nodes, edges: outerEdges, ...(groups ? { groups } : {}), ...app, components: [...(workflow.components ?? []), def] },
    instanceId,
    componentId,
  };
}

/** The workflow with instance `instanceId` replaced by its inner nodes, in place. Throws when it is not an instance with a definition. */
export function unpackComponent(workflow: Workflow, instanceId: string): Workflow {
  const instance = workflow.nodes.find((n) => n.id === instanceId);
  const def = instance?.type.startsWith(COMPONENT_TYPE_PREFIX)
    ? workflow.components?.find((c) => COMPONENT_TYPE_PREFIX + c.id === instance.type)
    : undefined;
  if (instance === undefined || def === undefined) throw new Error(`'${instanceId}' is not a component with a definition in this file`);

  const rest = workflow.nodes.filter((n) => n.id !== instanceId);
  const ids = new Map<string, string>();
  const taken = new Set(rest.map((n) => n.id));
  for (const node of def.nodes) {
    const id = freeId(taken, node.id);
    ids.set(node.id, id);
    taken.add(id);
  }
  const shown = new Map(def.params.map((p) => [p.name, p]));
  const inner = def.nodes.map((node): WorkflowNode => {
    const params = { ...node.params };
    for (const [name, value] of Object.entries(instance.params)) {
      const param = shown.get(name);
      if (param?.node === node.id) params[param.param] = value;
    }
    return { ...node, id: ids.get(node.id)!, position: { x: node.position.x + instance.position.x, y: node.position.y + instance.position.y }, params };
  });
  const at = (ref: PortRef): PortRef => ({ node: ids.get(ref.node)!, port: ref.port });
  const edges: WorkflowEdge[] = [];
  const link = (source: PortRef, target: PortRef) => edges.push({ id: edgeIdFor(source, target), source, target });
  for (const edge of def.edges) link(at(edge.source), at(edge.target));
  for (const edge of workflow.edges) {
    if (edge.target.node === instanceId) {
      for (const target of def.inputs.find((i) => i.name === edge.target.port)?.targets ?? []) link(edge.source, at(target));
    } else if (edge.source.node === instanceId) {
      const output = def.outputs.find((o) => o.name === edge.source.port);
      if (output) link(at(output.source), edge.target);
    } else edges.push(edge);
  }
  const nodes = [...rest];
  nodes.splice(workflow.nodes.indexOf(instance), 0, ...inner);
  // Still used when another instance is left, in the graph or inside another definition.
  const stillUsed = componentInUse({ nodes, components: workflow.components }, def.id);
  const components = stillUsed ? workflow.components : workflow.components?.filter((c) => c !== def);
  const app = moveAppInputs(workflow.app, (input) => {
    const param = input.node === instanceId ? shown.get(input.param) : undefined;
    return param === undefined ? undefined : { node: ids.get(param.node)!, param: param.param };
  });
  const { components: _old, app: _app, ...base } = workflow;
  return { ...base, nodes, edges, ...app, ...(components && components.length > 0 ? { components } : {}) };
}
