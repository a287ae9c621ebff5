/**
 * The author's choice for each input of a ComfyUI workflow node: hidden (the workflow's own value),
 * a field on the node face (with its own label), or a port a wire fills. Pure edits of the node's
 * params, so the inspector's list is one undo step per change and is tested without a DOM.
 */
import { choiceKind, slugName, type ChoiceKind, type ChoiceTarget, type PipelineChoice } from '../../api/backends/comfyui/pipeline/discover';
import type { PipelineGraph } from '../../api/backends/comfyui/pipeline/model';
import type { ObjectInfo } from '../../api/backends/comfyui/pipeline/object-info';
import { isSeedChoice } from '../../nodes/comfy-seeds';
import type { ComfyWorkflowParams } from '../../nodes/comfy-workflow';

export type InputChoice = 'hidden' | 'field' | 'port';

/** The choices an input of this kind offers: an image only as a port, a JSON value only hidden. */
export function choicesFor(kind: ChoiceKind): InputChoice[] {
  if (kind === 'image' || kind === 'mask') return ['hidden', 'port'];
  if (kind === 'json') return ['hidden'];
  if (kind === 'boolean') return ['hidden', 'field'];
  return ['hidden', 'field', 'port'];
}

const same = (a: ChoiceTarget, b: ChoiceTarget) => a.node === b.node && a.input === b.input;

/** The choice an input belongs to, if any. */
export function choiceOf(fields: readonly PipelineChoice[], target: ChoiceTarget): PipelineChoice | undefined {
  return fields.find((c) => c.targets.some((t) => same(t, target)));
}

export { isSeedChoice } from '../../nodes/comfy-seeds';

function literal(graph: PipelineGraph, target: ChoiceTarget): unknown {
  const input = graph.nodes.get(target.node)?.inputs.get(target.input);
  return input?.kind === 'value' ? input.value : undefined;
}

function withoutValue(values: Record<string, unknown>, name: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (k !== name) out[k] = v;
  return out;
}

/**
 * The params with one input's choice changed. A choice that sets several inputs (one prompt for a
 * base and a refiner) changes as a whole between field and port; made hidden, only this input
 * leaves it. A new field starts from the workflow's own value.
 */
export function setInputChoice(
  p: ComfyWorkflowParams, graph: PipelineGraph, target: ChoiceTarget, to: InputChoice, info?: ObjectInfo,
): Pick<ComfyWorkflowParams, 'fields' | 'values'> {
  const current = choiceOf(p.fields, target);
  let values = { ...p.values };
  if (to === 'hidden') {
    if (current === undefined) return { fields: p.fields, values: p.values };
    const rest = current.targets.filter((t) => !same(t, target));
    const fields = rest.length === 0 ? p.fields.filter((c) => c !== current) : p.fields.map((c) => (c === current ? { ...c, targets: rest } : c));
    if (rest.length === 0) values = withoutValue(values, current.name);
    return { fields, values };
  }
  if (current !== undefined) {
    if (current.as === to) return { fields: p.fields, values: p.values };
    const fields = p.fields.map((c) => (c === current ? { ...c, as: to } : c));
    // A seed port keeps its value: the seed sent when no wire gives one, with its mode.
    if (to === 'port' && !isSeedChoice(current)) values = withoutValue(values, current.name);
    else if (to === 'field' && !Object.hasOwn(values, current.name)) values[current.name] = literal(graph, current.targets[0]!);
    return { fields, values };
  }
  const node = graph.nodes.get(target.node);
  const taken = new Set(p.fields.map((c) => c.name));
  const name = slugName(target.input, 'input', taken);
  const plain = target.input.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
  // Two inputs of one name (two samplers' cfg) are told apart by their node's title.
  const label = p.fields.some((c) => c.label === plain) ? `${plain} (${node?.title ?? node?.classType ?? target.node})` : plain;
  const added: PipelineChoice = { name, label: label.slice(0, 200), as: to, kind: choiceKind(graph, target, info), targets: [target] };
  if (to === 'field' || isSeedChoice(added)) values[name] = literal(graph, target);
  return { fields: [...p.fields, added], values };
}

/** The params with a chosen field's or port's label changed (the name, which wires use, stays). */
export function relabelChoice(p: ComfyWorkflowParams, name: string, label: string): Pick<ComfyWorkflowParams, 'fields'> {
  return { fields: p.fields.map((c) => (c.name === name ? { ...c, label: label.slice(0, 200) } : c)) };
}
