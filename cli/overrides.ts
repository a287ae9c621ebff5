/**
 * `--set node.param=value` and `--to/--from NODE`: finding a node by id or title, and laying
 * parameter overrides over a workflow before it is validated.
 */
import { resolveInputs, type NodeRegistry } from '../nodes/index';
import { paramShape } from '../nodes/load-options';
import { keyedRecord, ownValue } from '../workflow/keys';
import type { RenamedIds } from '../workflow/safe-ids';
import { COMPONENT_TYPE_PREFIX, type Workflow, type WorkflowNode } from '../workflow/schema';
import { withComponents } from '../nodes/component-node';
import { UsageError } from './args';

export interface Override {
  /** The node's id (resolved from an id or a title). */
  nodeId: string;
  param: string;
  value: unknown;
  /** A ComfyUI workflow node's chosen field: the value goes into its `values` under this name. */
  field?: string;
}

/** The field names a ComfyUI workflow node's file declares (checked against the node's rule, as they are data). */
function pipelineFields(node: WorkflowNode): string[] {
  const fields = node.type === 'comfy-workflow' && Array.isArray(node.params.fields) ? node.params.fields as unknown[] : [];
  return fields.flatMap((f) => {
    const c = f as { name?: unknown; as?: unknown };
    return typeof c.name === 'string' && /^[a-z][a-z0-9_]{0,47}$/.test(c.name) && c.as === 'field' ? [c.name] : [];
  });
}

/**
 * The node a command line names: by id first (an id the loader renamed, `renamed`, by its old
 * one too), else by title (exact, then ignoring case). Throws a UsageError when none or several match.
 */
export function findNode(workflow: Workflow, name: string, flag: string, renamed?: RenamedIds): WorkflowNode {
  const id = renamed?.get(name) ?? name;
  const byId = workflow.nodes.find((n) => n.id === id);
  if (byId) return byId;
  // An untitled component instance goes by its component's name ("Restyle").
  const names = new Map((workflow.components ?? []).map((c) => [COMPONENT_TYPE_PREFIX + c.id, c.name]));
  const titleOf = (n: WorkflowNode) => n.title ?? names.get(n.type);
  for (const same of [(t: string) => t === name, (t: string) => t.toLowerCase() === name.toLowerCase()]) {
    const matches = workflow.nodes.filter((n) => { const t = titleOf(n); return t !== undefined && same(t); });
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1) {
      throw new UsageError(`${flag}: ${matches.length} nodes are titled '${name}' (${matches.map((n) => n.id).join(', ')}); name one by its id`);
    }
  }
  const known = workflow.nodes.map((n) => (n.title === undefined ? n.id : `${n.id} ("${n.title}")`));
  throw new UsageError(`${flag}: no node with id or title '${name}' in this workflow; its nodes are ${known.join(', ') || 'none'}`);
}

/** The parameter schemas a node type declares, by name, where the type's schema is an object. */
/**
 * The value of `raw` for a parameter: JSON when it parses and the parameter takes it, the text
 * otherwise, so `--set t.prompt=42` gives the prompt "42" while `--set t.seed=42` gives 42.
 */
function parseValue(raw: string, schema: { safeParse(v: unknown): { success: boolean } } | undefined): unknown {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (schema === undefined || schema.safeParse(json).success || !schema.safeParse(raw).success) return json;
  return raw;
}

/** Parses each `node.param=value` against the workflow; throws a UsageError naming what is wrong. */
export function parseOverrides(workflow: Workflow, base: NodeRegistry, sets: readonly string[], renamed?: RenamedIds): Override[] {
  // A component instance's parameters are those its face shows, under their own names.
  const registry = withComponents(base, () => workflow.components);
  return sets.map((set) => {
    const eq = set.indexOf('=');
    const dot = eq === -1 ? -1 : set.lastIndexOf('.', eq);
    if (eq === -1 || dot <= 0 || dot === eq - 1) {
      throw new UsageError(`--set '${set.slice(0, 60)}' is not NODE.PARAM=VALUE (for example --set t2i.seed=42)`);
    }
    const node = findNode(workflow, set.slice(0, dot), '--set', renamed);
    const param = set.slice(dot + 1, eq);
    const shape = paramShape(registry, node.type);
    if (shape === undefined && registry.get(node.type) === undefined) {
      throw new UsageError(`--set ${node.id}.${param}: node '${node.id}' has type '${node.type}', which this build does not know`);
    }
    if (pipelineFields(node).includes(param) && (shape === undefined || !Object.hasOwn(shape, param))) {
      // A text or choice field takes the text as it is (`--set w.prompt=42` is the prompt "42").
      const kind = (node.params.fields as { name?: unknown; kind?: unknown }[]).find((f) => f.name === param)?.kind;
      const raw = set.slice(eq + 1);
      return { nodeId: node.id, param: 'values', field: param, value: kind === 'text' || kind === 'choice' ? raw : parseValue(raw, undefined) };
    }
    // Own keys only: 'toString' or 'constructor' is in every object, and no parameter of any node.
    if (shape !== undefined && !Object.hasOwn(shape, param)) {
      const fields = pipelineFields(node);
      if (node.type === 'comfy-workflow') {
        throw new UsageError(`--set ${node.id}.${param}: the ComfyUI workflow '${node.id}' has no field '${param}'; its fields are ${fields.join(', ') || 'none'}`);
      }
      throw new UsageError(`--set ${node.id}.${param}: node '${node.id}' (${node.type}) has no parameter '${param}'; its parameters are ${Object.keys(shape).join(', ')}`);
    }
    return { nodeId: node.id, param, value: parseValue(set.slice(eq + 1), ownValue(shape, param)) };
  });
}

/** The workflow with the overrides applied (a new object; the argument is left alone). */
export function applyOverrides(workflow: Workflow, overrides: readonly Override[]): Workflow {
  if (overrides.length === 0) return workflow;
  const nodes = workflow.nodes.map((node) => {
    const mine = overrides.filter((o) => o.nodeId === node.id);
    if (mine.length === 0) return node;
    // The parameter's name comes from the command line: kept as a key even if it is '__proto__'
    // (the loader the workflow goes through next then drops it, saying so).
    const params = keyedRecord(Object.entries(node.params));
    for (const o of mine) {
      if (o.field === undefined) params[o.param] = o.value;
      else params.values = keyedRecord([...Object.entries(typeof params.values === 'object' && params.values !== null ? params.values : {}), [o.field, o.value]]);
    }
    return { ...node, params };
  });
  return { ...workflow, nodes };
}

/**
 * Overrides that have no effect because a wire feeds the same parameter through its input
 * port (a connected port wins over the form), as notes for the user.
 */
export function shadowedOverrides(workflow: Workflow, registry: NodeRegistry, overrides: readonly Override[]): string[] {
  const notes: string[] = [];
  for (const o of overrides) {
    const node = workflow.nodes.find((n) => n.id === o.nodeId);
    const def = node && registry.get(node.type);
    if (!node || !def) continue;
    let ports;
    try {
      ports = resolveInputs(def, node.params);
    } catch {
      continue;
    }
    const port = ports.find((p) => p.param === o.param);
    const wired = port && workflow.edges.some((e) => e.target.node === node.id && e.target.port === port.name);
    if (wired) notes.push(`--set ${o.nodeId}.${o.param} has no effect: input '${port.name}' of '${o.nodeId}' is connected, and a connected input wins`);
  }
  return notes;
}
