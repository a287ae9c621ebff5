/**
 * A workflow's app inputs read against the node catalogue: what each one is (its kind, default,
 * choices, label) and laying values given by name over the workflow. Shared by the CLI
 * (`--input`, `run FILE --help`) and the editor's App view, so both name, describe and apply an
 * input the same way.
 */
import { z } from 'zod';
import type { App, AppInput } from '../workflow/app';
import { keyedRecord, ownValue } from '../workflow/keys';
import type { Workflow, WorkflowNode } from '../workflow/schema';
import type { NodeRegistry } from './index';

/** How an input is filled: from text, a number, a switch, one of a list, an image file, or JSON. */
export type AppFieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'image' | 'json';

export interface AppField {
  /** The input's name (`--input NAME=...`). */
  name: string;
  /** The author's label, else the node's title and the parameter's. */
  label: string;
  nodeId: string;
  param: string;
  kind: AppFieldKind;
  /** The value the workflow holds now (the file's), or the parameter's default. */
  value: unknown;
  /** The allowed values of a choice. */
  choices?: readonly unknown[];
  description?: string;
}

/** A field the app names that the workflow or the catalogue cannot give, with why. */
export interface AppFieldProblem {
  name: string;
  message: string;
}

interface JsonProp {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  anyOf?: JsonProp[];
}

const propsMemo = new WeakMap<object, ReadonlyMap<string, JsonProp>>();

function paramProps(params: z.ZodType): ReadonlyMap<string, JsonProp> {
  let props = propsMemo.get(params);
  if (!props) {
    const schema = z.toJSONSchema(params, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonProp> };
    props = new Map(Object.entries(schema.properties ?? {}));
    propsMemo.set(params, props);
  }
  return props;
}

function kindOf(prop: JsonProp): AppFieldKind {
  if (prop.enum) return 'choice';
  const main = (prop.anyOf ?? [prop]).find((v) => v.type !== 'null') ?? prop;
  if (main.enum) return 'choice';
  switch (main.type) {
    case 'string': return 'text';
    case 'number': return 'number';
    case 'integer': return 'integer';
    case 'boolean': return 'boolean';
    // The one parameter that is an object or null is an image (the Image loader's).
    case 'object': return (prop.anyOf ?? []).some((v) => v.type === 'null') ? 'image' : 'json';
    default: return 'json';
  }
}

/** The app's inputs, each described from its node type; inputs that cannot be are problems. */
export function appFields(workflow: Workflow, registry: NodeRegistry): { fields: AppField[]; problems: AppFieldProblem[] } {
  const nodes = new Map<string, WorkflowNode>(workflow.nodes.map((n) => [n.id, n]));
  const fields: AppField[] = [];
  const problems: AppFieldProblem[] = [];
  for (const input of workflow.app?.inputs ?? []) {
    const described = describe(input, nodes.get(input.node), registry);
    if (typeof described === 'string') problems.push({ name: input.name, message: described });
    else fields.push(described);
  }
  return { fields, problems };
}

function describe(input: AppInput, node: WorkflowNode | undefined, registry: NodeRegistry): AppField | string {
  if (node === undefined) return `input '${input.name}': no node '${input.node}'`;
  const def = registry.get(node.type);
  if (def === undefined) return `input '${input.name}': node '${node.id}' has type '${node.type}', which this build does not know`;
  const prop = paramProps(def.params as z.ZodType).get(input.param);
  if (prop === undefined) return `input '${input.name}': node '${node.id}' (${def.title}) has no parameter '${input.param}'`;
  const own = ownValue(node.params, input.param);
  const paramTitle = prop.title ?? input.param;
  const field: AppField = {
    name: input.name,
    label: input.label?.trim() || `${node.title?.trim() || def.title} › ${paramTitle}`,
    nodeId: node.id,
    param: input.param,
    kind: kindOf(prop),
    value: own === undefined ? prop.default : own,
  };
  const choices = prop.enum ?? prop.anyOf?.find((v) => v.enum)?.enum;
  if (choices) field.choices = choices;
  if (prop.description !== undefined) field.description = prop.description;
  return field;
}

/**
 * The workflow with `values` (input name → parameter value) laid over the parameters the inputs
 * name; a new object, the argument left alone. Names the app does not have are the caller's to
 * refuse (appFields lists those it has).
 */
export function applyAppValues(workflow: Workflow, fields: readonly AppField[], values: ReadonlyMap<string, unknown>): Workflow {
  const byNode = new Map<string, [string, unknown][]>();
  for (const field of fields) {
    if (!values.has(field.name)) continue;
    const list = byNode.get(field.nodeId) ?? [];
    list.push([field.param, values.get(field.name)]);
    byNode.set(field.nodeId, list);
  }
  if (byNode.size === 0) return workflow;
  const nodes = workflow.nodes.map((node) => {
    const mine = byNode.get(node.id);
    if (mine === undefined) return node;
    const params = keyedRecord(Object.entries(node.params));
    for (const [param, value] of mine) params[param] = value;
    return { ...node, params };
  });
  return { ...workflow, nodes };
}

/** An app entry that points at what the workflow no longer has: a node, or a parameter of its node. */
export interface StaleAppEntry {
  list: 'inputs' | 'outputs';
  /** Its place in its list. */
  index: number;
  /** An input's name; an output's label or node id. */
  name: string;
  /** What identifies it in its list whatever its place: an input's name, an output's node. */
  key: string;
  /** Which entry and why, for a toast, a warning or the app panel. */
  message: string;
}

/**
 * The app's entries that can never work again: an input or an output whose node is gone, an input
 * whose node's type (a component's face, say) has no such parameter. A node of a type this build
 * does not know is kept verbatim, so entries on it are not stale: another build may know it.
 */
export function staleAppEntries(workflow: Pick<Workflow, 'nodes'> & { app?: App | undefined }, registry: NodeRegistry): StaleAppEntry[] {
  const app = workflow.app;
  if (app === undefined || (app.inputs.length === 0 && app.outputs.length === 0)) return [];
  const nodes = new Map<string, WorkflowNode>(workflow.nodes.map((n) => [n.id, n]));
  const stale: StaleAppEntry[] = [];
  app.inputs.forEach((input, index) => {
    const node = nodes.get(input.node);
    const def = node && registry.get(node.type);
    if (node === undefined) stale.push({ list: 'inputs', index, name: input.name, key: input.name, message: `input '${input.name}': no node '${input.node}'` });
    else if (def !== undefined && !paramProps(def.params as z.ZodType).has(input.param)) {
      stale.push({ list: 'inputs', index, name: input.name, key: input.name, message: `input '${input.name}': node '${node.id}' (${def.title}) has no parameter '${input.param}'` });
    }
  });
  app.outputs.forEach((output, index) => {
    if (nodes.has(output.node)) return;
    const name = output.label?.trim() || output.node;
    stale.push({ list: 'outputs', index, name, key: output.node, message: `output '${name}': no node '${output.node}'` });
  });
  return stale;
}
