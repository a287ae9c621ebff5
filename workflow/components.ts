/**
 * Components: a group of nodes stored once in the file's `components` section and used as one node
 * (`type: "component:<id>"`) any number of times. The definition holds the inner nodes and edges,
 * which of their ports the component's face offers (inputs, outputs) and which inner parameters it
 * shows, under names of its own; an instance's `params` hold the shown parameters' values only, so
 * editing the definition changes every instance. The executor never runs a component as such: it
 * flattens instances into their inner nodes first (flatten.ts).
 */
import { sha256Hex } from '../api/image-data';
import { COMPONENT_TYPE_PREFIX, type ComponentDefinition, type Workflow } from './schema';

export {
  COMPONENT_TYPE_PREFIX, ComponentDefinitionSchema, type ComponentDefinition, type ComponentInput, type ComponentOutput, type ComponentParam,
} from './schema';

/** The definition id an instance node refers to, or undefined for any other node. */
export function componentIdOf(type: string): string | undefined {
  return type.startsWith(COMPONENT_TYPE_PREFIX) ? type.slice(COMPONENT_TYPE_PREFIX.length) : undefined;
}

/** The definitions by id (the first of a repeated id; the schema refuses repeats). */
export function componentsById(workflow: Pick<Workflow, 'components'>): ReadonlyMap<string, ComponentDefinition> {
  const byId = new Map<string, ComponentDefinition>();
  for (const def of workflow.components ?? []) if (!byId.has(def.id)) byId.set(def.id, def);
  return byId;
}

/** JSON with every object's keys sorted: the same content gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The content hash of a definition: what it runs and offers (positions of inner nodes included,
 * since opening it shows them), not its name, revision or description.
 */
export function componentHash(def: Pick<ComponentDefinition, 'nodes' | 'edges' | 'inputs' | 'outputs' | 'params'>): string {
  return sha256Hex(canonical({ nodes: def.nodes, edges: def.edges, inputs: def.inputs, outputs: def.outputs, params: def.params }));
}
