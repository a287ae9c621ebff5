/**
 * A component instance seen as a node type, for the editor: its ports are the definition's face
 * (each with the kind and label of the inner port it leads to) and its parameters the shown ones,
 * under their own names and labels, defaulting to the inner node's value. The registry overlay
 * (`withComponents`) answers `component:<id>` types from the document's current definitions, so
 * the canvas, the forms and the connection check treat an instance like any node. Nothing runs
 * it: the plan flattens instances into their inner nodes first (workflow/flatten.ts).
 */
import { z } from 'zod';
import type { ComponentDefinition, WorkflowNode } from '../workflow/schema';
import { COMPONENT_TYPE_PREFIX } from '../workflow/schema';
import type { NodeRegistry } from './index';
import { resolveInputs, resolveOutputs } from './ports';
import type { AnyNodeDefinition, NodeCategory, PortSpec } from './types';

/** The inner node's port spec by name, or undefined (a missing node, an unknown type). */
function innerPort(registry: NodeRegistry, def: ComponentDefinition, ref: { node: string; port: string }, side: 'inputs' | 'outputs'): PortSpec | undefined {
  const node = def.nodes.find((n) => n.id === ref.node);
  const type = node && registry.get(node.type);
  if (!node || !type) return undefined;
  const parsed = type.params.safeParse(node.params);
  const params = (parsed.success ? parsed.data : node.params) as Record<string, unknown>;
  try {
    const ports = side === 'inputs' ? resolveInputs(type, params) : resolveOutputs(type, params);
    return ports.find((p) => p.name === ref.port);
  } catch {
    return undefined;
  }
}

/** The schema of one parameter of a node type whose params are an object schema. */
function fieldSchema(type: AnyNodeDefinition | undefined, param: string): z.ZodType | undefined {
  const shape = (type?.params as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  return shape !== undefined && Object.hasOwn(shape, param) ? shape[param] : undefined;
}

/** The category the face is coloured by: that of its first output's inner node, else its first node's. */
function categoryOf(registry: NodeRegistry, def: ComponentDefinition): NodeCategory {
  const first = def.outputs[0]?.source.node ?? def.nodes[0]?.id;
  const node = def.nodes.find((n) => n.id === first);
  return (node && registry.get(node.type)?.category) ?? 'text';
}

/** The node type of a component's instances, its ports read from the inner nodes through `registry`. */
export function componentNodeDefinition(def: ComponentDefinition, registry: NodeRegistry): AnyNodeDefinition {
  const shape: Record<string, z.ZodType> = {};
  for (const shown of def.params) {
    const inner = def.nodes.find((n) => n.id === shown.node);
    const base = fieldSchema(inner && registry.get(inner.type), shown.param) ?? z.unknown();
    const value = inner?.params[shown.param];
    // Unset on the instance, a shown field holds what the definition holds.
    const field = value === undefined ? base : base.optional().default(value as never);
    shape[shown.name] = field.meta({ title: shown.label });
  }
  const inputs = (): PortSpec[] => def.inputs.map((input) => {
    const specs = input.targets.map((t) => innerPort(registry, def, t, 'inputs'));
    const first = specs.find((s) => s !== undefined);
    return {
      name: input.name,
      kind: first?.kind ?? 'text',
      label: input.label ?? first?.label ?? input.name,
      // Optional when every inner port it feeds is.
      ...(specs.every((s) => s?.optional === true) ? { optional: true } : {}),
      ...(first?.accepts ? { accepts: first.accepts } : {}),
    };
  });
  const outputs = (): PortSpec[] => def.outputs.map((output) => {
    const spec = innerPort(registry, def, output.source, 'outputs');
    return { name: output.name, kind: spec?.kind ?? 'text', label: output.label ?? spec?.label ?? output.name };
  });
  return {
    type: COMPONENT_TYPE_PREFIX + def.id,
    version: def.revision,
    title: def.name,
    category: categoryOf(registry, def),
    description: def.description ?? `A component of ${def.nodes.length} node${def.nodes.length === 1 ? '' : 's'}`,
    params: z.object(shape),
    mainFields: def.params.map((p) => p.name),
    inputs,
    outputs,
    run() {
      return Promise.reject(new Error(`component '${def.name}' runs through its inner nodes (the plan flattens it)`));
    },
  };
}

/**
 * `base` with the instances of `components()`'s definitions as node types. Definitions are read
 * when asked, so an edited definition is seen at once; the node type of one definition object is
 * made once. `list()` and `byCategory()` are the base's (the palette lists components apart).
 */
export function withComponents(base: NodeRegistry, components: () => readonly ComponentDefinition[] | undefined): NodeRegistry {
  const made = new WeakMap<ComponentDefinition, AnyNodeDefinition>();
  let lastList: readonly ComponentDefinition[] | undefined;
  let byId = new Map<string, ComponentDefinition>();
  const lookup = (type: string): ComponentDefinition | undefined => {
    if (!type.startsWith(COMPONENT_TYPE_PREFIX)) return undefined;
    const list = components();
    if (list !== lastList) {
      lastList = list;
      byId = new Map();
      for (const def of list ?? []) if (!byId.has(def.id)) byId.set(def.id, def);
    }
    return byId.get(type.slice(COMPONENT_TYPE_PREFIX.length));
  };
  const overlay: NodeRegistry = {
    get(type) {
      const def = lookup(type);
      if (def === undefined) return base.get(type);
      let node = made.get(def);
      if (!node) made.set(def, (node = componentNodeDefinition(def, overlay)));
      return node;
    },
    has: (type) => lookup(type) !== undefined || base.has(type),
    list: () => base.list(),
    byCategory: () => base.byCategory(),
  };
  return overlay;
}

/** Whether a node is a component instance (its definition may be missing). */
export function isComponentNode(node: Pick<WorkflowNode, 'type'>): boolean {
  return node.type.startsWith(COMPONENT_TYPE_PREFIX);
}
