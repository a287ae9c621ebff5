/**
 * ComfyUI workflow: a whole ComfyUI workflow as one node. Its parameters hold the workflow (the
 * stored, normalised form and its hash), the inputs chosen as fields (values in the form) or
 * ports (filled by wires), and its save nodes as outputs; so its inputs and outputs depend on its
 * parameters. It runs only on a ComfyUI backend (the client's `runPipeline`), which checks it
 * against the server's `/object_info` before sending. No endpoint or key is ever stored here.
 */
import { z } from 'zod';
import { checkPipeline } from '../api/backends/comfyui/pipeline/check';
import { credentialInput } from '../api/backends/comfyui/pipeline/credential-input';
import { fromStored, pipelineHash, type PipelineGraph, type StoredPipeline } from '../api/backends/comfyui/pipeline/model';
import type { PipelineRunRequest } from '../api/backends/comfyui/pipeline/request';
import { NEEDS_COMFYUI, choiceProblems, portsOfChoices } from './comfy-choices';
import { comfySeeds, isSeedChoice, runSeeds } from './comfy-seeds';
import { SEED_MODES } from './image-params';
import { serverLabel } from './image-request';
import type { NodeDefinition, ParamIssue, Value } from './types';

const NODE_ID = /^[\p{L}\p{N}_.:-]{1,64}$/u;
const INPUT_NAME = /^[\p{L}\p{N}_ .:+-]{1,128}$/u;
const NAME = /^[a-z][a-z0-9_]{0,47}$/;
const NAME_RULE = 'must be lower-case letters, digits and _, starting with a letter';

const target = z.strictObject({ node: z.string().regex(NODE_ID), input: z.string().regex(INPUT_NAME) });
const choice = z.strictObject({
  name: z.string().regex(NAME, NAME_RULE),
  label: z.string().max(200),
  as: z.enum(['field', 'port']),
  kind: z.enum(['text', 'number', 'boolean', 'choice', 'image', 'mask', 'json']),
  targets: z.array(target).min(1).max(64),
});
const output = z.strictObject({ name: z.string().regex(NAME, NAME_RULE), label: z.string().max(200), node: z.string().regex(NODE_ID), kind: z.enum(['images', 'texts']) });
const storedNode = z.strictObject({
  id: z.string().regex(NODE_ID),
  class_type: z.string().min(1).max(200),
  title: z.string().max(200).optional(),
  inputs: z.array(z.tuple([z.string().regex(INPUT_NAME), z.unknown()])).max(500),
});

const params = z.strictObject({
  pipeline: z.strictObject({ nodes: z.array(storedNode).max(5000) }).default({ nodes: [] })
    .meta({ title: 'Workflow', description: 'The ComfyUI workflow in API format, normalised.', entries: 'pairs' }),
  // The hash and the file's name are shown by the workflow's own control (src/comfy/), not as fields.
  hash: z.string().max(64).default('').meta({ title: 'Workflow hash', description: "SHA-256 of the stored workflow: which workflow this is.", hidden: true }),
  source: z.string().max(200).optional().meta({ title: 'From file', hidden: true }),
  fields: z.array(choice).max(200).default([]).meta({ title: 'Inputs', description: "Each input of the workflow: hidden (the workflow's value), a field on the node, or a port." }),
  outputs: z.array(output).max(100).default([]).meta({ title: 'Outputs' }),
  values: z.record(z.string().regex(NAME, NAME_RULE), z.unknown()).default({}).meta({ title: 'Workflow settings' }),
  // Each seed's mode, as an image node's seed_mode; the seed widget in `values` shows it (src/comfy/).
  seed_modes: z.record(z.string().regex(NAME, NAME_RULE), z.enum(SEED_MODES, { error: `must be one of ${SEED_MODES.join(', ')}` })).default({}).meta({
    title: 'After each run', description: 'What the editor does with each numeric seed after a run: keep it, add one, or pick a new random one. Never sent.',
    hidden: true, editorOnly: true,
  }),
});
export type ComfyWorkflowParams = z.infer<typeof params>;

/** The pipeline of these params as a graph, or the reason it is not one. */
function graphOf(p: ComfyWorkflowParams): PipelineGraph | string {
  try {
    return fromStored(p.pipeline as StoredPipeline);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function validate(p: ComfyWorkflowParams): ParamIssue[] {
  if (p.pipeline.nodes.length === 0) return [{ param: 'pipeline', message: 'no ComfyUI workflow yet: choose a workflow file (API or UI format JSON, or a PNG ComfyUI saved)' }];
  const graph = graphOf(p);
  if (typeof graph === 'string') return [{ param: 'pipeline', message: graph }];
  const issues: ParamIssue[] = [];
  const hash = pipelineHash(p.pipeline as StoredPipeline);
  if (p.hash !== hash) issues.push({ param: 'hash', message: `does not match the workflow it names (changed by hand?); the workflow's hash is ${hash}` });
  for (const node of graph.nodes.values()) {
    for (const [name, input] of node.inputs) {
      if (input.kind === 'value' && credentialInput(name, input.value)) {
        issues.push({ param: 'pipeline', message: `ComfyUI node ${node.id} (${node.title ?? node.classType}), input ${name}, holds a credential, which a workflow never carries: empty it; keys belong in the backend's settings` });
      }
    }
  }
  issues.push(...choiceProblems(graph, p.fields, p.outputs, p.values));
  const fed = p.fields.filter((c) => c.as === 'port' || c.kind === 'image' || c.kind === 'mask').flatMap((c) => c.targets);
  for (const problem of checkPipeline(graph, undefined, fed)) {
    const owner = p.fields.find((c) => c.targets.some((t) => t.node === problem.node && t.input === problem.input));
    issues.push({ param: owner?.name ?? 'pipeline', message: problem.message });
  }
  return issues;
}

/** The run's request: field values, wired values, this run's seeds and images laid over the chosen inputs. */
function requestOf(p: ComfyWorkflowParams, inputs: Record<string, Value | undefined>, seeds: ReadonlyMap<string, number>): PipelineRunRequest {
  const request: PipelineRunRequest = { pipeline: p.pipeline as StoredPipeline, set: [], images: [], outputs: p.outputs };
  for (const c of p.fields) {
    const wired = c.as === 'port' ? inputs[c.name] : undefined;
    if (c.kind === 'image' || c.kind === 'mask') {
      if (wired?.kind === 'image') for (const t of c.targets) request.images.push({ ...t, b64: wired.value.b64 });
      continue;
    }
    const own = seeds.has(c.name) ? seeds.get(c.name) : Object.hasOwn(p.values, c.name) ? p.values[c.name] : undefined;
    const value = wired !== undefined ? wired.value : own;
    if (value !== undefined) for (const t of c.targets) request.set.push({ ...t, value });
  }
  return request;
}

export const comfyWorkflowNode: NodeDefinition<ComfyWorkflowParams> = {
  type: 'comfy-workflow',
  version: 1,
  title: 'ComfyUI workflow',
  category: 'image',
  description: 'Runs a whole ComfyUI workflow on a ComfyUI backend; the inputs you choose become fields and ports, its save nodes outputs.',
  params,
  // The node face: the file chooser and the fields chosen; the list of inputs is in the inspector.
  mainFields: ['pipeline', 'values'],
  backend: 'comfyui',
  inputs: (p) => portsOfChoices(p.fields),
  outputs: (p) => p.outputs.map((o) => ({ name: o.name, kind: o.kind, label: o.label })),
  validate,
  seeds: comfySeeds,
  // A random seed is drawn anew each run: such a run is never taken from the cache.
  cacheable: (p) => comfySeeds.slots(p).every((slot) => slot.seed !== null),
  async run({ params: p, inputs, ctx }) {
    const runPipeline = ctx.api.image.runPipeline;
    if (runPipeline === undefined) throw new Error(`this node ${NEEDS_COMFYUI}`);
    // Random seeds are chosen here and sent (never null), so the images' seed is known for sure.
    const seeds = runSeeds(p, new Set(Object.keys(inputs).filter((name) => inputs[name] !== undefined)), () => ctx.randomSeed());
    const result = await runPipeline.call(ctx.api.image, requestOf(p, inputs, seeds.sent), { signal: ctx.signal, onProgress: (f, m) => ctx.progress(f, m) });
    const seed = seeds.used === undefined ? {} : { seed: seeds.used };
    // Which of a pool's servers made the images, for the history and the manifest (never a cache key).
    const madeOn = serverLabel(result);
    const made = madeOn === undefined ? {} : { madeOn };
    const out: Record<string, Value> = {};
    for (const o of p.outputs) {
      const got = result.outputs.find((r) => r.name === o.name);
      out[o.name] = o.kind === 'images'
        ? { kind: 'images', value: (got?.images ?? []).map((i) => ({ b64: i.b64, mime: i.mime, ...seed, ...made })) }
        : { kind: 'texts', value: got?.texts ?? [] };
    }
    return out;
  },
};

/** The params of a new ComfyUI workflow node for an imported pipeline: its default choice, the workflow's own values. */
export function comfyWorkflowParams(imported: { stored: StoredPipeline; hash: string; graph: PipelineGraph; discovery: { choices: ComfyWorkflowParams['fields']; outputs: ComfyWorkflowParams['outputs'] } }, source?: string): ComfyWorkflowParams {
  const values: Record<string, unknown> = {};
  for (const c of imported.discovery.choices) {
    const first = c.targets[0];
    const input = first === undefined ? undefined : imported.graph.nodes.get(first.node)?.inputs.get(first.input);
    // A seed port keeps its value too: the seed a run sends when no wire gives one.
    if ((c.as === 'field' || isSeedChoice(c)) && input?.kind === 'value') values[c.name] = input.value;
  }
  return {
    pipeline: imported.stored, hash: imported.hash, ...(source === undefined ? {} : { source: source.slice(0, 200) }),
    fields: imported.discovery.choices, outputs: imported.discovery.outputs, values, seed_modes: {},
  };
}
