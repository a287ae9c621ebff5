/**
 * A component as a file of its own (export, import, My components): a workflow file whose graph
 * is one instance of the component and whose `components` hold it and those it uses. Reading one
 * is reading a workflow (the same parse, limits, credential scrub and checks that refuse hostile
 * definitions, each with where), plus the rule that it holds exactly one instance of a component
 * it defines. Such a file also opens as a workflow, showing the component.
 */
import { createWorkflow } from './create';
import { componentHash, componentsById } from './components';
import { loadWorkflow, type LoadOptions } from './load';
import { COMPONENT_TYPE_PREFIX, type ComponentDefinition, type Workflow } from './schema';
import { WorkflowLoadError, type WorkflowWarning } from './errors';

/** A component read from its file: the definition, and those it uses inside (nested components). */
export interface ComponentPack {
  main: ComponentDefinition;
  /** `main` first, then what it uses, each once. */
  definitions: ComponentDefinition[];
}

/** `id` and every definition it uses, in `components`, `id` first. */
export function definitionsFor(components: readonly ComponentDefinition[] | undefined, id: string): ComponentDefinition[] {
  const byId = componentsById({ components: components ? [...components] : [] });
  const out: ComponentDefinition[] = [];
  const seen = new Set<string>();
  const visit = (at: string) => {
    const def = byId.get(at);
    if (def === undefined || seen.has(at)) return;
    seen.add(at);
    out.push(def);
    for (const node of def.nodes) if (node.type.startsWith(COMPONENT_TYPE_PREFIX)) visit(node.type.slice(COMPONENT_TYPE_PREFIX.length));
  };
  visit(id);
  return out;
}

/** The workflow a component's file holds: one instance of it, with the definitions it needs. */
export function componentWorkflow(pack: ComponentPack, clock?: () => Date): Workflow {
  const base = createWorkflow({ title: pack.main.name, description: pack.main.description ?? '' }, clock);
  return {
    ...base,
    version: 2,
    nodes: [{ id: pack.main.id, type: COMPONENT_TYPE_PREFIX + pack.main.id, position: { x: 0, y: 0 }, params: {} }],
    edges: [],
    components: pack.definitions,
  };
}

/** Reads a component's file; throws a WorkflowLoadError saying what is wrong and where. */
export function readComponentFile(text: string, options: LoadOptions = {}): ComponentPack & { warnings: WorkflowWarning[] } {
  const { workflow, warnings } = loadWorkflow(text, options);
  const refuse = (message: string): never => {
    throw new WorkflowLoadError('This is not a component file', [{ path: 'nodes', message }]);
  };
  if (!workflow.components?.length) refuse('it defines no component (a component file holds one, as Export component writes it)');
  if (workflow.nodes.length !== 1) refuse(`it holds ${workflow.nodes.length} nodes; a component file holds one instance of its component`);
  const only = workflow.nodes[0]!;
  if (!only.type.startsWith(COMPONENT_TYPE_PREFIX)) refuse(`its node '${only.id}' is not a component instance`);
  const definitions = definitionsFor(workflow.components, only.type.slice(COMPONENT_TYPE_PREFIX.length));
  if (definitions.length === 0) refuse(`its node '${only.id}' is an instance of '${only.type.slice(COMPONENT_TYPE_PREFIX.length)}', which it does not define`);
  return { main: definitions[0]!, definitions, warnings };
}

/**
 * The definitions of `pack` added to `existing`: one already there with the same content is used
 * as it is; one whose id is taken by other content comes in under a free id (`restyle-2`), with
 * the instances inside the others renamed to match. Returns the list and the main definition's id.
 */
export function mergeDefinitions(existing: readonly ComponentDefinition[] | undefined, pack: ComponentPack): { components: ComponentDefinition[]; mainId: string } {
  const have = componentsById({ components: existing ? [...existing] : [] });
  const taken = new Set(have.keys());
  const ids = new Map<string, string>();
  for (const def of pack.definitions) {
    const there = have.get(def.id);
    if (there === undefined || there.hash === def.hash) {
      ids.set(def.id, def.id);
      taken.add(def.id);
      continue;
    }
    let n = 2;
    while (taken.has(`${def.id}-${n}`)) n++;
    ids.set(def.id, `${def.id}-${n}`);
    taken.add(`${def.id}-${n}`);
  }
  const renamed = (type: string) => {
    if (!type.startsWith(COMPONENT_TYPE_PREFIX)) return type;
    const to = ids.get(type.slice(COMPONENT_TYPE_PREFIX.length));
    return to === undefined ? type : COMPONENT_TYPE_PREFIX + to;
  };
  const components = [...(existing ?? [])];
  for (const def of pack.definitions) {
    const id = ids.get(def.id)!;
    if (have.get(id)?.hash === def.hash) continue;
    const nodes = def.nodes.map((node) => (renamed(node.type) === node.type ? node : { ...node, type: renamed(node.type) }));
    const moved = { ...def, id, nodes };
    components.push({ ...moved, hash: componentHash(moved) });
  }
  return { components, mainId: ids.get(pack.main.id)! };
}
