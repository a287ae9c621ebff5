/**
 * A ComfyUI pipeline: an API-format workflow (`{ id: { class_type, inputs, _meta? } }`, a link
 * being `[node id, output index]`), read from untrusted JSON into Maps (ids and input names are
 * data, never keys of a plain object), checked (links to missing nodes, cycles, size), and stored
 * in a normalised, deterministic form whose hash names the pipeline's content.
 */
import { sha256Hex } from '../../../image-data';

/** Limits that keep a hostile file from costing the editor: a real workflow has a few hundred nodes. */
export const PIPELINE_LIMITS = { maxNodes: 5000, maxInputsPerNode: 500, maxTextChars: 20 * 1024 * 1024, maxDepth: 32 } as const;

/** An input of a node: a link to another node's output, or a literal value. */
export type PipelineInput = { kind: 'link'; from: string; output: number } | { kind: 'value'; value: unknown };

export interface PipelineNode {
  id: string;
  classType: string;
  /** `_meta.title`, when the file gave one. */
  title?: string;
  inputs: Map<string, PipelineInput>;
}

/** A parsed pipeline, in the file's node order. */
export interface PipelineGraph {
  nodes: Map<string, PipelineNode>;
}

/** The stored form (a node's params): arrays in a fixed order, so it diffs and hashes stably. */
export interface StoredPipelineNode {
  id: string;
  class_type: string;
  title?: string;
  /** `[name, value]`, sorted by name; a link is `[node id, output index]` as ComfyUI writes it. */
  inputs: [string, unknown][];
}
export interface StoredPipeline {
  nodes: StoredPipelineNode[];
}

/** A pipeline that cannot be used, with the reason in one line. */
export class PipelineError extends Error {
  override name = 'PipelineError';
}

const ID = /^[\p{L}\p{N}_.:-]{1,64}$/u;
const INPUT_NAME = /^[\p{L}\p{N}_ .:+-]{1,128}$/u;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether an API-format input is a link: ComfyUI takes any list as one (execution.py). */
export function isLinkValue(value: unknown): value is [string, number] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Number.isInteger(value[1]);
}

function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || typeof value !== 'object' || value === null) return depth;
  let max = depth;
  for (const v of Array.isArray(value) ? value : Object.values(value)) {
    max = Math.max(max, depthOf(v, limit, depth + 1));
    if (max > limit) break;
  }
  return max;
}

/** Ids compare as numbers when both are numbers, so "9" comes before "10". */
export function compareIds(a: string, b: string): number {
  const na = /^\d+$/.test(a) ? Number(a) : NaN;
  const nb = /^\d+$/.test(b) ? Number(b) : NaN;
  if (!Number.isNaN(na) && !Number.isNaN(nb)) return na - nb || (a < b ? -1 : a > b ? 1 : 0);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Reads an API-format workflow (already JSON-parsed). Throws a PipelineError naming the node and
 * input at fault: not an object, too many nodes, a node without class_type, a bad link, a link
 * to a node that is not there, a cycle.
 */
export function parseApiWorkflow(json: unknown): PipelineGraph {
  if (!isObject(json)) throw new PipelineError('this is not an API-format ComfyUI workflow: expected an object of nodes by id');
  const ids = Object.keys(json);
  if (ids.length === 0) throw new PipelineError('the workflow has no nodes');
  if (ids.length > PIPELINE_LIMITS.maxNodes) throw new PipelineError(`the workflow has ${ids.length} nodes; Atelier takes at most ${PIPELINE_LIMITS.maxNodes}`);
  const nodes = new Map<string, PipelineNode>();
  for (const id of ids) {
    if (!ID.test(id)) throw new PipelineError(`node id '${id.slice(0, 40)}' is not a ComfyUI node id (letters, digits, _ . : - only)`);
    const raw = json[id];
    if (!isObject(raw)) throw new PipelineError(`node ${id} is not an object with class_type and inputs`);
    const classType = raw.class_type;
    if (typeof classType !== 'string' || classType === '' || classType.length > 200) throw new PipelineError(`node ${id} has no class_type`);
    const rawInputs = raw.inputs ?? {};
    if (!isObject(rawInputs)) throw new PipelineError(`node ${id} (${classType}): its inputs are not an object`);
    const names = Object.keys(rawInputs);
    if (names.length > PIPELINE_LIMITS.maxInputsPerNode) throw new PipelineError(`node ${id} (${classType}) has ${names.length} inputs; at most ${PIPELINE_LIMITS.maxInputsPerNode}`);
    const inputs = new Map<string, PipelineInput>();
    for (const name of names) {
      if (!INPUT_NAME.test(name)) throw new PipelineError(`node ${id} (${classType}): input name '${name.slice(0, 40)}' is not one ComfyUI uses`);
      const value = rawInputs[name];
      if (Array.isArray(value)) {
        if (!isLinkValue(value) || value[1] < 0) throw new PipelineError(`node ${id} (${classType}), input ${name}: a list must be a link [node id, output index]; wrap a literal list as {"__value__": [...]}`);
        inputs.set(name, { kind: 'link', from: value[0], output: value[1] });
      } else {
        if (depthOf(value, PIPELINE_LIMITS.maxDepth) > PIPELINE_LIMITS.maxDepth) throw new PipelineError(`node ${id} (${classType}), input ${name}: the value is nested too deeply`);
        inputs.set(name, { kind: 'value', value });
      }
    }
    const meta = raw._meta;
    const title = isObject(meta) && typeof meta.title === 'string' && meta.title.trim() !== '' ? meta.title.slice(0, 200) : undefined;
    nodes.set(id, { id, classType, ...(title === undefined ? {} : { title }), inputs });
  }
  const graph = { nodes };
  checkLinks(graph);
  return graph;
}

/** Every link reaches a node that exists, and no node depends on itself. */
export function checkLinks(graph: PipelineGraph): void {
  for (const node of graph.nodes.values()) {
    for (const [name, input] of node.inputs) {
      if (input.kind === 'link' && !graph.nodes.has(input.from)) {
        throw new PipelineError(`node ${node.id} (${nodeLabel(node)}), input ${name}: links to node ${input.from}, which is not in the workflow`);
      }
    }
  }
  const cycle = findCycle(graph);
  if (cycle !== undefined) throw new PipelineError(`the workflow loops back on itself: ${cycle.map((id) => `${id} (${nodeLabel(graph.nodes.get(id))})`).join(' → ')}`);
}

/** A cycle as a list of ids (first repeated at the end), or undefined. Iterative: no stack overflow. */
function findCycle(graph: PipelineGraph): string[] | undefined {
  const state = new Map<string, 1 | 2>();
  for (const start of graph.nodes.keys()) {
    if (state.has(start)) continue;
    const stack: { id: string; next: string[] }[] = [{ id: start, next: linksOf(graph, start) }];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const child = top.next.pop();
      if (child === undefined) {
        state.set(top.id, 2);
        stack.pop();
        continue;
      }
      const seen = state.get(child);
      if (seen === 1) {
        const from = stack.findIndex((f) => f.id === child);
        return [...stack.slice(from).map((f) => f.id), child];
      }
      if (seen === undefined) {
        state.set(child, 1);
        stack.push({ id: child, next: linksOf(graph, child) });
      }
    }
  }
  return undefined;
}

function linksOf(graph: PipelineGraph, id: string): string[] {
  const out: string[] = [];
  for (const input of graph.nodes.get(id)?.inputs.values() ?? []) if (input.kind === 'link') out.push(input.from);
  return out;
}

/** How a node is named to a person: its title, else its class. */
export function nodeLabel(node: PipelineNode | undefined): string {
  return node === undefined ? '?' : node.title ?? node.classType;
}

/** Stable JSON: object keys sorted, so equal content is equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** The stored form: nodes by id (numeric order), inputs by name. Deterministic. */
export function toStored(graph: PipelineGraph): StoredPipeline {
  const nodes = [...graph.nodes.values()].sort((a, b) => compareIds(a.id, b.id)).map((node) => ({
    id: node.id,
    class_type: node.classType,
    ...(node.title === undefined ? {} : { title: node.title }),
    inputs: [...node.inputs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, input]): [string, unknown] => [name, input.kind === 'link' ? [input.from, input.output] : input.value]),
  }));
  return { nodes };
}

/** The stored form read back (it passed the node's schema; links and cycles are checked again). */
export function fromStored(stored: StoredPipeline): PipelineGraph {
  const api: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const node of stored.nodes) {
    const inputs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [name, value] of node.inputs) inputs[name] = value;
    api[node.id] = { class_type: node.class_type, inputs, ...(node.title === undefined ? {} : { _meta: { title: node.title } }) };
  }
  return parseApiWorkflow(api);
}

/** The pipeline's content hash: sha-256 of its stored form's stable JSON. */
export function pipelineHash(stored: StoredPipeline): string {
  return sha256Hex(stableJson(stored));
}

/**
 * The API-format prompt to send (`POST /prompt`'s `prompt`), on null-prototype objects so an id
 * such as `__proto__` stays data. `values` replaces literal inputs (`node id` → input → value).
 */
export function toApiPrompt(graph: PipelineGraph, values?: ReadonlyMap<string, ReadonlyMap<string, unknown>>): Record<string, unknown> {
  const prompt = Object.create(null) as Record<string, unknown>;
  for (const node of [...graph.nodes.values()].sort((a, b) => compareIds(a.id, b.id))) {
    const inputs = Object.create(null) as Record<string, unknown>;
    const set = values?.get(node.id);
    for (const [name, input] of node.inputs) {
      inputs[name] = input.kind === 'link' ? [input.from, input.output] : set?.has(name) ? set.get(name) : input.value;
    }
    const entry = Object.create(null) as Record<string, unknown>;
    entry.class_type = node.classType;
    entry.inputs = inputs;
    if (node.title !== undefined) entry._meta = { title: node.title };
    prompt[node.id] = entry;
  }
  return prompt;
}

/** JSON text of an API-format workflow, refusing text beyond the limit before parsing it. */
export function parseJsonText(text: string, what: string): unknown {
  if (text.length > PIPELINE_LIMITS.maxTextChars) throw new PipelineError(`the ${what} is ${Math.round(text.length / 1024 / 1024)} MB; Atelier reads at most ${PIPELINE_LIMITS.maxTextChars / 1024 / 1024} MB`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PipelineError(`the ${what} is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
