/**
 * Writing a workflow file: the schema's field order for known objects, sorted
 * keys inside params (at every depth), two-space indent, a trailing newline, and nothing volatile (fields the
 * schema does not have, such as selection or measured sizes, are never written). The same
 * workflow always gives the same bytes, so files diff cleanly and load → save is byte-stable.
 */
import { type WorkflowIssue, WorkflowSaveError } from './errors';
import { componentHash } from './components';
import { versionFor } from './format';
import { DEFAULT_LIMITS } from './limits';
import { type PathLink, extendPath, formatLink, formatPath } from './path';
import { AppInputSchema, AppOutputSchema, hasApp } from './app';
import { UNSAFE_KEYS } from './sanitize';
import {
  ComponentDefinitionSchema, ComponentInputSchema, ComponentOutputSchema, ComponentParamSchema,
  PortRefSchema, PositionSchema, SizeSchema, type Workflow, WorkflowEdgeSchema, WorkflowGroupSchema, WorkflowMetadataSchema,
  WorkflowNodeSchema, WorkflowNoteSchema, WorkflowSchema, WorkflowShapeSchema,
} from './schema';

type Obj = Record<string, unknown>;

const keysOf = (shape: object): readonly string[] => Object.keys(shape);
const ROOT_KEYS = keysOf(WorkflowShapeSchema.shape);
const METADATA_KEYS = keysOf(WorkflowMetadataSchema.shape);
const NODE_KEYS = keysOf(WorkflowNodeSchema.shape);
const POSITION_KEYS = keysOf(PositionSchema.shape);
const EDGE_KEYS = keysOf(WorkflowEdgeSchema.shape);
const PORT_KEYS = keysOf(PortRefSchema.shape);
const NOTE_KEYS = keysOf(WorkflowNoteSchema.shape);
const GROUP_KEYS = keysOf(WorkflowGroupSchema.shape);
const SIZE_KEYS = keysOf(SizeSchema.shape);
const COMPONENT_KEYS = keysOf(ComponentDefinitionSchema.shape);
const INPUT_KEYS = keysOf(ComponentInputSchema.shape);
const OUTPUT_KEYS = keysOf(ComponentOutputSchema.shape);
const PARAM_KEYS = keysOf(ComponentParamSchema.shape);
const APP_INPUT_KEYS = keysOf(AppInputSchema.shape);
const APP_OUTPUT_KEYS = keysOf(AppOutputSchema.shape);

/** The schema's fields of `value`, in the schema's order; anything else is left behind. */
function pick(value: unknown, keys: readonly string[]): Obj {
  const out: Obj = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const key of keys) {
    const field = (value as Obj)[key];
    if (field !== undefined) out[key] = field;
  }
  return out;
}

const pickNodes = (nodes: unknown): unknown => (Array.isArray(nodes)
  ? nodes.map((node: Obj) => ({ ...pick(node, NODE_KEYS), position: pick(node.position, POSITION_KEYS) }))
  : nodes);
const pickEdges = (edges: unknown): unknown => (Array.isArray(edges)
  ? edges.map((edge: Obj) => ({ ...pick(edge, EDGE_KEYS), source: pick(edge.source, PORT_KEYS), target: pick(edge.target, PORT_KEYS) }))
  : edges);

/** A definition's fields in the schema's order, its hash computed afresh from what it holds. */
function pickComponent(def: Obj): Obj {
  const out = pick(def, COMPONENT_KEYS);
  out.nodes = pickNodes(def.nodes);
  out.edges = pickEdges(def.edges);
  const list = (items: unknown, keys: readonly string[], ref?: (item: Obj) => Obj) => (Array.isArray(items)
    ? items.map((item: Obj) => ({ ...pick(item, keys), ...ref?.(item) }))
    : items ?? []);
  out.inputs = list(def.inputs, INPUT_KEYS, (item) => ({ targets: Array.isArray(item.targets) ? item.targets.map((t) => pick(t, PORT_KEYS)) : item.targets }));
  out.outputs = list(def.outputs, OUTPUT_KEYS, (item) => ({ source: pick(item.source, PORT_KEYS) }));
  out.params = list(def.params, PARAM_KEYS);
  try {
    out.hash = componentHash(out as Parameters<typeof componentHash>[0]);
  } catch {
    // Content the parse refuses next, with its path.
  }
  return out;
}

function pickWorkflow(workflow: Workflow): Obj {
  const root = pick(workflow, ROOT_KEYS);
  root.version = versionFor(workflow);
  root.metadata = pick(workflow.metadata, METADATA_KEYS);
  root.nodes = pickNodes(workflow.nodes);
  root.edges = pickEdges(workflow.edges);
  if (Array.isArray(workflow.components)) {
    if (workflow.components.length > 0) root.components = workflow.components.map((def) => pickComponent(def as unknown as Obj));
    else delete root.components;
  }
  // Empty lists are not written, so a file without notes or groups keeps its bytes.
  const framed = (item: unknown, keys: readonly string[]) => ({
    ...pick(item, keys), position: pick((item as Obj).position, POSITION_KEYS), size: pick((item as Obj).size, SIZE_KEYS),
  });
  if (Array.isArray(workflow.notes)) {
    if (workflow.notes.length > 0) root.notes = workflow.notes.map((note) => framed(note, NOTE_KEYS));
    else delete root.notes;
  }
  if (Array.isArray(workflow.groups)) {
    if (workflow.groups.length > 0) root.groups = workflow.groups.map((group) => framed(group, GROUP_KEYS));
    else delete root.groups;
  }
  // An app with nothing in it is not written, so a file without one keeps its bytes.
  if (hasApp(workflow.app)) {
    root.app = {
      inputs: workflow.app.inputs.map((input) => pick(input, APP_INPUT_KEYS)),
      outputs: workflow.app.outputs.map((output) => pick(output, APP_OUTPUT_KEYS)),
    };
  } else delete root.app;
  return root;
}

/**
 * The workflow as file text. Throws a WorkflowSaveError naming each problem when the workflow
 * would not open again (a broken edge, a value that is not JSON, nesting past the limit).
 */
export function serializeWorkflow(workflow: Workflow): string {
  const checked = WorkflowSchema.safeParse(pickWorkflow(workflow));
  if (!checked.success) {
    throw new WorkflowSaveError('The workflow cannot be saved', checked.error.issues.map((issue) => ({
      path: formatPath(issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))),
      message: issue.message,
    })));
  }
  // The parse kept only the schema's fields, in the schema's order; params are people's names.
  const issues: WorkflowIssue[] = [];
  const sortNodes = (list: Workflow['nodes'], base: PathLink | undefined) => list.map((node, i) => {
    const at = extendPath(extendPath(extendPath(base, 'nodes'), i), 'params');
    return { ...node, params: sortedCopy(node.params, at, issues) };
  });
  const nodes = sortNodes(checked.data.nodes, undefined);
  const components = checked.data.components?.map((def, i) => ({ ...def, nodes: sortNodes(def.nodes, extendPath(extendPath(undefined, 'components'), i)) }));
  if (issues.length > 0) throw new WorkflowSaveError('The workflow cannot be saved', issues);
  return `${JSON.stringify({ ...checked.data, nodes, ...(components === undefined ? {} : { components }) }, null, 2)}\n`;
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A copy of a params value with every object's keys sorted, refusing what JSON cannot hold
 * exactly. JavaScript puts array-index keys ('0', '10') first, in numeric order, whatever the
 * insertion order; the order is still a function of the keys alone, so the bytes are stable.
 */
function sortedCopy(value: unknown, path: PathLink, issues: WorkflowIssue[]): unknown {
  const fail = (message: string) => {
    issues.push({ path: formatLink(path), message });
    return null;
  };
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : fail('a number that JSON cannot hold');
  if (typeof value === 'string') {
    return value.length <= DEFAULT_LIMITS.maxStringChars ? value : fail(`a text longer than ${DEFAULT_LIMITS.maxStringChars} characters`);
  }
  if (path.depth >= DEFAULT_LIMITS.maxDepth) return fail(`nested deeper than ${DEFAULT_LIMITS.maxDepth} levels`);
  if (Array.isArray(value)) return value.map((item, i) => sortedCopy(item, extendPath(path, i), issues));
  if (!isPlainObject(value)) {
    const kind = value === undefined ? 'undefined' : typeof value === 'object' ? 'an object of a class' : `a ${typeof value}`;
    return fail(`not a JSON value (${kind})`);
  }
  const out: Obj = {};
  for (const key of Object.keys(value).sort(byCodeUnit)) {
    const field = value[key];
    if (field === undefined) continue;
    const at = extendPath(path, key);
    if (UNSAFE_KEYS.has(key)) {
      issues.push({ path: formatLink(at), message: 'this key is never read from a file' });
      continue;
    }
    out[key] = sortedCopy(field, at, issues);
  }
  return out;
}

function isPlainObject(value: unknown): value is Obj {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
