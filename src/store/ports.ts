/**
 * The ports of a node in the document, as the canvas, the connection check and the palette see
 * them: the definition's outputs, and its inputs derived from the node's parameters (Text's
 * `{{name}}` placeholders). Results are memoised per params object, which immer keeps stable.
 */
import { registry as defaultRegistry, type NodeRegistry } from '../../nodes/index';
import { resolveInputs, resolveOutputs } from '../../nodes/ports';
import type { AnyNodeDefinition, PortKind, PortSpec } from '../../nodes/types';
import { portAccepts } from '../../nodes/values';
import type { WorkflowNode } from '../../workflow/schema';

const inputsMemo = new WeakMap<AnyNodeDefinition, WeakMap<object, readonly PortSpec[]>>();
const outputsMemo = new WeakMap<AnyNodeDefinition, WeakMap<object, readonly PortSpec[]>>();

/** The inputs of a node of this definition with these (unparsed) params. */
export function inputsFor(def: AnyNodeDefinition, params: Record<string, unknown>): readonly PortSpec[] {
  if (typeof def.inputs !== 'function') return def.inputs;
  let memo = inputsMemo.get(def);
  if (!memo) inputsMemo.set(def, (memo = new WeakMap()));
  const hit = memo.get(params);
  if (hit) return hit;
  const parsed = def.params.safeParse(params);
  let inputs: readonly PortSpec[];
  try {
    inputs = resolveInputs(def, (parsed.success ? parsed.data : params) as Record<string, unknown>);
  } catch {
    // Params the schema refuses may not derive ports; the form shows the parameter problem.
    inputs = [];
  }
  memo.set(params, inputs);
  return inputs;
}

/** The outputs of a node of this definition with these (unparsed) params. */
export function outputsFor(def: AnyNodeDefinition, params: Record<string, unknown>): readonly PortSpec[] {
  if (typeof def.outputs !== 'function') return def.outputs;
  let memo = outputsMemo.get(def);
  if (!memo) outputsMemo.set(def, (memo = new WeakMap()));
  const hit = memo.get(params);
  if (hit) return hit;
  const parsed = def.params.safeParse(params);
  let outputs: readonly PortSpec[];
  try {
    outputs = resolveOutputs(def, (parsed.success ? parsed.data : params) as Record<string, unknown>);
  } catch {
    outputs = [];
  }
  memo.set(params, outputs);
  return outputs;
}

export interface NodePorts {
  def: AnyNodeDefinition | undefined;
  inputs: readonly PortSpec[];
  outputs: readonly PortSpec[];
}

/** A node's ports; an unknown type has none the editor can vouch for. */
export function portsOf(node: WorkflowNode, registry: NodeRegistry = defaultRegistry): NodePorts {
  const def = registry.get(node.type);
  if (!def) return { def, inputs: [], outputs: [] };
  return { def, inputs: inputsFor(def, node.params), outputs: outputsFor(def, node.params) };
}

export const KIND_LABEL: Readonly<Record<PortKind, string>> = {
  text: 'text',
  number: 'number',
  image: 'image',
  images: 'image list',
  texts: 'text list',
};

/** Every kind an input takes, as it is or converted, in a fixed order. */
export function kindsTakenBy(port: PortSpec): PortKind[] {
  const kinds: PortKind[] = ['text', 'number', 'image', 'images', 'texts'];
  return kinds.filter((k) => portAccepts(port, k));
}

/** "text or number", "image, image list or text". */
export function listKinds(kinds: readonly PortKind[]): string {
  const names = kinds.map((k) => KIND_LABEL[k]);
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`;
}
