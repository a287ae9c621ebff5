/**
 * What a pipeline offers: every literal input of every node, grouped under the node's title, with
 * its ComfyUI type (from `/object_info` when known, else from the value); the default choice of
 * fields and ports (the prompts feeding a sampler, the seed, the size, each LoadImage); and its
 * outputs (each SaveImage / PreviewImage an image list, text-showing nodes a text list).
 */
import { compareIds, nodeLabel, type PipelineGraph, type PipelineNode } from './model';
import { inputInfo, type ObjectInfo } from './object-info';

export interface DiscoveredInput {
  node: string;
  input: string;
  /** ComfyUI's type: INT, FLOAT, STRING, BOOLEAN, COMBO, or JSON for anything else. */
  type: string;
  /** Whether the type came from /object_info rather than from the value. */
  known: boolean;
  value: unknown;
  choices?: string[];
  min?: number;
  max?: number;
}

export interface DiscoveredGroup {
  node: string;
  title: string;
  classType: string;
  inputs: DiscoveredInput[];
}

/** What a chosen input becomes on the Atelier node. */
export type ChoiceKind = 'text' | 'number' | 'boolean' | 'choice' | 'image' | 'mask' | 'json';

export interface ChoiceTarget { node: string; input: string }

/** One chosen input: a field in the node's form, or a port a wire can fill. */
export interface PipelineChoice {
  /** The field's or port's name: lower-case letters, digits and _, unique in the node. */
  name: string;
  label: string;
  as: 'field' | 'port';
  kind: ChoiceKind;
  /** The pipeline inputs it sets (a prompt shared by a base and a refiner sets both). */
  targets: ChoiceTarget[];
}

export interface PipelineOutput {
  name: string;
  label: string;
  node: string;
  kind: 'images' | 'texts';
}

export interface Discovery {
  groups: DiscoveredGroup[];
  choices: PipelineChoice[];
  outputs: PipelineOutput[];
}

const IMAGE_SAVERS = new Set(['SaveImage', 'PreviewImage', 'SaveAnimatedWEBP', 'SaveAnimatedPNG']);
const TEXT_SHOWERS = new Set(['PreviewAny', 'ShowText|pysssss']);
const TEXT_INPUTS = ['text', 'prompt', 'text_g', 'text_l', 't5xxl', 'clip_l', 'clip_g'];
const SOCKET_SKIP = new Set(['clip', 'model', 'vae', 'control_net', 'image', 'mask', 'pixels']);
const RESERVED = new Set(['pipeline', 'fields', 'values', 'hash', 'source', 'constructor', 'prototype']);

function inferType(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'INT' : 'FLOAT';
  if (typeof value === 'string') return 'STRING';
  if (typeof value === 'boolean') return 'BOOLEAN';
  return 'JSON';
}

/** Every literal input, grouped by node in id order. */
export function discoverInputs(graph: PipelineGraph, info?: ObjectInfo): DiscoveredGroup[] {
  const groups: DiscoveredGroup[] = [];
  for (const node of [...graph.nodes.values()].sort((a, b) => compareIds(a.id, b.id))) {
    const cls = info?.get(node.classType);
    const order = cls === undefined ? [] : cls.inputs.map((i) => i.name);
    const names = [...node.inputs.keys()].sort((a, b) => {
      const ia = order.indexOf(a), ib = order.indexOf(b);
      return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || (a < b ? -1 : a > b ? 1 : 0);
    });
    const inputs: DiscoveredInput[] = [];
    for (const name of names) {
      const input = node.inputs.get(name);
      if (input?.kind !== 'value') continue;
      const spec = cls?.inputs.find((i) => i.name === name);
      inputs.push({
        node: node.id, input: name, type: spec?.type ?? inferType(input.value), known: spec !== undefined, value: input.value,
        ...(spec?.choices === undefined ? {} : { choices: spec.choices }),
        ...(spec?.min === undefined ? {} : { min: spec.min }),
        ...(spec?.max === undefined ? {} : { max: spec.max }),
      });
    }
    groups.push({ node: node.id, title: nodeLabel(node), classType: node.classType, inputs });
  }
  return groups;
}

/** The kind of field an input makes. */
export function choiceKind(graph: PipelineGraph, target: ChoiceTarget, info?: ObjectInfo): ChoiceKind {
  const node = graph.nodes.get(target.node);
  if (node?.classType === 'LoadImageMask' && target.input === 'image') return 'mask';
  if (node?.classType === 'LoadImage' && target.input === 'image') return 'image';
  const input = node?.inputs.get(target.input);
  const type = inputInfo(info, node?.classType ?? '', target.input)?.type ?? inferType(input?.kind === 'value' ? input.value : undefined);
  return type === 'STRING' ? 'text' : type === 'INT' || type === 'FLOAT' ? 'number' : type === 'BOOLEAN' ? 'boolean' : type === 'COMBO' ? 'choice' : 'json';
}

/** A field or port name from a person's title: ASCII letters and digits, else a fallback. */
export function slugName(text: string, fallback: string, taken: Set<string>): string {
  let base = text.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40);
  if (!/^[a-z]/.test(base)) base = fallback;
  if (RESERVED.has(base)) base = `${base}_input`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

/** The literal text input a conditioning chain starts from, followed back from `start`. */
function textSource(graph: PipelineGraph, start: string, role: 'positive' | 'negative'): ChoiceTarget[] {
  const seen = new Set<string>();
  const queue = [start];
  while (queue.length > 0 && seen.size < 64) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const node = graph.nodes.get(id);
    if (node === undefined) continue;
    const texts = TEXT_INPUTS.filter((n) => node.inputs.has(n));
    const literal = texts.filter((n) => node.inputs.get(n)?.kind === 'value' && typeof (node.inputs.get(n) as { value: unknown }).value === 'string');
    if (literal.length > 0) return literal.map((input) => ({ node: id, input }));
    for (const n of texts) {
      const input = node.inputs.get(n);
      if (input?.kind === 'link') queue.push(input.from);
    }
    const same = node.inputs.get(role);
    if (same?.kind === 'link') { queue.push(same.from); continue; }
    for (const [name, input] of node.inputs) {
      if (input.kind === 'link' && !SOCKET_SKIP.has(name) && name !== (role === 'positive' ? 'negative' : 'positive')) queue.push(input.from);
    }
  }
  return [];
}

function literalTargets(nodes: PipelineNode[], names: readonly string[], type: 'number'): ChoiceTarget[] {
  const out: ChoiceTarget[] = [];
  for (const node of nodes) {
    for (const name of names) {
      const input = node.inputs.get(name);
      if (input?.kind === 'value' && typeof input.value === type) out.push({ node: node.id, input: name });
    }
  }
  return out;
}

const unique = (targets: ChoiceTarget[]) => targets.filter((t, i) => targets.findIndex((u) => u.node === t.node && u.input === t.input) === i);

/** The default choice of fields and ports, and the outputs. */
export function discoverPipeline(graph: PipelineGraph, info?: ObjectInfo): Discovery {
  const nodes = [...graph.nodes.values()].sort((a, b) => compareIds(a.id, b.id));
  const taken = new Set<string>();
  const choices: PipelineChoice[] = [];
  const add = (name: string, label: string, as: 'field' | 'port', targets: ChoiceTarget[]) => {
    const first = targets[0];
    if (first === undefined) return;
    choices.push({ name: slugName(name, name, taken), label, as, kind: choiceKind(graph, first, info), targets });
  };

  const prompts: Record<'positive' | 'negative', ChoiceTarget[]> = { positive: [], negative: [] };
  for (const node of nodes) {
    for (const role of ['positive', 'negative'] as const) {
      const link = node.inputs.get(role) ?? (role === 'positive' && node.classType === 'BasicGuider' ? node.inputs.get('conditioning') : undefined);
      if (link?.kind === 'link') prompts[role].push(...textSource(graph, link.from, role));
    }
  }
  const positive = unique(prompts.positive);
  const negative = unique(prompts.negative).filter((t) => !positive.some((p) => p.node === t.node && p.input === t.input));
  add('prompt', 'Prompt', 'field', positive);
  add('negative_prompt', 'Negative prompt', 'field', negative);
  add('seed', 'Seed', 'field', literalTargets(nodes, ['seed', 'noise_seed'], 'number'));
  const sized = nodes.filter((n) => (/Latent/.test(n.classType) && n.classType.startsWith('Empty')) || n.classType === 'ModelSamplingFlux');
  add('width', 'Width', 'field', literalTargets(sized, ['width'], 'number'));
  add('height', 'Height', 'field', literalTargets(sized, ['height'], 'number'));
  for (const node of nodes) {
    if ((node.classType === 'LoadImage' || node.classType === 'LoadImageMask') && node.inputs.get('image')?.kind === 'value') {
      const mask = node.classType === 'LoadImageMask';
      add(mask ? 'mask' : 'image', node.title ?? (mask ? 'Mask' : 'Image'), 'port', [{ node: node.id, input: 'image' }]);
    }
  }

  const outTaken = new Set<string>();
  const outputs: PipelineOutput[] = [];
  for (const node of nodes) {
    const cls = info?.get(node.classType);
    const saves = IMAGE_SAVERS.has(node.classType) || (cls?.outputNode === true && cls.inputs.some((i) => i.name === 'images' && i.type === 'IMAGE'));
    const shows = TEXT_SHOWERS.has(node.classType);
    if (!saves && !shows) continue;
    const label = node.title ?? (saves ? 'Images' : 'Text');
    outputs.push({ name: slugName(label, `${saves ? 'images' : 'text'}_${node.id.replace(/[^a-z0-9]/gi, '')}`, outTaken), label, node: node.id, kind: saves ? 'images' : 'texts' });
  }
  return { groups: discoverInputs(graph, info), choices, outputs };
}
