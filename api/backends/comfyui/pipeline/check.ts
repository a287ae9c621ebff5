/**
 * Checks before a pipeline is sent, against the server's `/object_info`: a class it lacks (named
 * with the custom-node pack that usually provides it), a model file it lacks (with the closest
 * one it has), a value outside its range or list, a required input left out. Some checks need no
 * server: a LoadImage or SaveImage path that leaves ComfyUI's folders is refused everywhere.
 */
import { closestName } from '../../../closest-name';
import type { ChoiceTarget } from './discover';
import { nodeLabel, type PipelineGraph } from './model';
import type { ObjectInfo } from './object-info';
import { packHint } from './packs';

export interface PipelineProblem {
  node: string;
  input?: string;
  message: string;
}

/** Inputs that name a file in one of ComfyUI's model folders, and how to say which kind. */
const MODEL_INPUTS: ReadonlyMap<string, string> = new Map([
  ['ckpt_name', 'checkpoint'], ['unet_name', 'diffusion model'], ['vae_name', 'VAE'], ['lora_name', 'LoRA'],
  ['clip_name', 'text encoder'], ['clip_name1', 'text encoder'], ['clip_name2', 'text encoder'], ['clip_name3', 'text encoder'],
  ['control_net_name', 'ControlNet'], ['model_name', 'model'], ['style_model_name', 'style model'], ['clip_vision_name', 'CLIP vision model'],
]);

/** A file name that would leave ComfyUI's input or output folder. */
export function escapesFolder(name: string): boolean {
  return name.includes('..') || name.startsWith('/') || name.startsWith('\\') || /^[a-z]:/i.test(name) || name.includes('\0');
}

function pathProblems(graph: PipelineGraph): PipelineProblem[] {
  const problems: PipelineProblem[] = [];
  for (const node of graph.nodes.values()) {
    for (const [input, value] of node.inputs) {
      if (value.kind !== 'value' || typeof value.value !== 'string') continue;
      const file = (node.classType === 'LoadImage' || node.classType === 'LoadImageMask') && input === 'image';
      const prefix = input === 'filename_prefix';
      if ((file || prefix) && escapesFolder(value.value)) {
        problems.push({ node: node.id, input, message: `${nodeLabel(node)}'s ${input} '${value.value.slice(0, 80)}' points outside ComfyUI's ${file ? 'input' : 'output'} folder; refused` });
      }
    }
  }
  return problems;
}

function stemGuess(name: string, names: readonly string[]): string | undefined {
  const stem = (file: string) => file.replace(/\.[a-z0-9]+$/i, '');
  const stems = names.map(stem);
  const close = closestName(stem(name), stems);
  return close === undefined ? undefined : names[stems.indexOf(close)];
}

/**
 * Every problem of `graph` on this server, each naming its node and input. `fed` lists inputs
 * whose value comes at run time (a port's uploaded image): their present value is not judged.
 * Without `info` only the checks that need no server are made.
 */
export function checkPipeline(graph: PipelineGraph, info: ObjectInfo | undefined, fed: readonly ChoiceTarget[] = []): PipelineProblem[] {
  const problems = pathProblems(graph);
  if (info === undefined) return problems;
  const fedKeys = new Set(fed.map((t) => `${t.node}\0${t.input}`));
  const isFed = (node: string, input: string) => fedKeys.has(`${node}\0${input}`);
  for (const node of graph.nodes.values()) {
    const cls = info.get(node.classType);
    const label = nodeLabel(node);
    if (cls === undefined) {
      const pack = packHint(node.classType);
      problems.push({ node: node.id, message: `this ComfyUI has no '${node.classType}' node (node ${node.id}, ${label})${pack === undefined ? ': install the custom node that provides it' : `; it usually comes from ${pack}: install it (ComfyUI-Manager can) and restart ComfyUI`}` });
      continue;
    }
    for (const spec of cls.inputs) {
      const input = node.inputs.get(spec.name);
      if (input === undefined) {
        if (!spec.optional) problems.push({ node: node.id, input: spec.name, message: `${label}'s required input ${spec.name} is missing${spec.widget && spec.default !== undefined ? ` (ComfyUI's default is ${JSON.stringify(spec.default)})` : ''}` });
        continue;
      }
      if (input.kind !== 'value' || isFed(node.id, spec.name)) continue;
      const value = input.value;
      if (spec.choices !== undefined && typeof value === 'string' && !spec.choices.includes(value)) {
        const what = MODEL_INPUTS.get(spec.name);
        const guess = what === undefined ? closestName(value, spec.choices) : stemGuess(value, spec.choices);
        const shown = spec.choices.slice(0, 8).map((c) => `'${c}'`).join(', ') + (spec.choices.length > 8 ? ` and ${spec.choices.length - 8} more` : '');
        const has = spec.choices.length === 0 ? 'it has none' : guess === undefined ? `it has ${shown}` : `the closest it has is '${guess}'`;
        problems.push({ node: node.id, input: spec.name, message: what === undefined
          ? `${label}'s ${spec.name} '${value}' is not one of this ComfyUI's choices; ${has}`
          : `this ComfyUI has no ${what} '${value}' (${label}'s ${spec.name}); ${has}` });
      } else if (typeof value === 'number' && (spec.type === 'INT' || spec.type === 'FLOAT')) {
        if (spec.min !== undefined && value < spec.min) problems.push({ node: node.id, input: spec.name, message: `${label}'s ${spec.name} is ${value}, below its minimum ${spec.min}` });
        else if (spec.max !== undefined && value > spec.max) problems.push({ node: node.id, input: spec.name, message: `${label}'s ${spec.name} is ${value}, above its maximum ${spec.max}` });
      }
    }
  }
  return problems;
}
