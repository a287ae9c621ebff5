/**
 * The chosen inputs of a ComfyUI workflow node as ports, and what is wrong with a choice: a target
 * the workflow does not have, a value of the wrong kind, two choices with one name.
 */
import type { PipelineChoice, PipelineOutput } from '../api/backends/comfyui/pipeline/discover';
import { nodeLabel, type PipelineGraph } from '../api/backends/comfyui/pipeline/model';
import { isSeedChoice } from './comfy-seeds';
import type { ParamIssue, PortKind, PortSpec } from './types';

/** Why a ComfyUI workflow node cannot run with the chosen backend. */
export const NEEDS_COMFYUI = 'runs a ComfyUI workflow, which needs a ComfyUI backend: choose ComfyUI in Settings → Image backend (directly from the browser), or run the CLI with --image-backend comfyui --backend-url http://127.0.0.1:8188';

const PORT_KIND: Record<PipelineChoice['kind'], PortKind> = {
  text: 'text', number: 'number', boolean: 'text', choice: 'text', image: 'image', mask: 'image', json: 'text',
};

/** The input ports of the choices made ports: an image is required, a value falls back to the workflow's own. */
export function portsOfChoices(fields: readonly PipelineChoice[]): PortSpec[] {
  return fields.filter((c) => c.as === 'port').map((c) => ({
    name: c.name,
    kind: PORT_KIND[c.kind],
    label: c.label,
    ...(c.kind === 'image' || c.kind === 'mask' ? {} : { optional: true }),
    description: `ComfyUI ${c.targets.map((t) => `node ${t.node}'s ${t.input}`).join(', ')}`,
  }));
}

function valueProblem(kind: PipelineChoice['kind'], value: unknown): string | undefined {
  if (kind === 'text' || kind === 'choice') return typeof value === 'string' ? undefined : 'must be text';
  if (kind === 'number') return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
  if (kind === 'boolean') return typeof value === 'boolean' ? undefined : 'must be true or false';
  return undefined;
}

/** Problems of the choices and outputs against the workflow, each on the field it concerns. */
export function choiceProblems(graph: PipelineGraph, fields: readonly PipelineChoice[], outputs: readonly PipelineOutput[], values: Record<string, unknown>): ParamIssue[] {
  const issues: ParamIssue[] = [];
  const names = new Set<string>();
  for (const c of fields) {
    if (names.has(c.name)) issues.push({ param: 'fields', message: `two chosen inputs are named '${c.name}'` });
    names.add(c.name);
    for (const t of c.targets) {
      const node = graph.nodes.get(t.node);
      if (node === undefined) issues.push({ param: c.name, message: `the workflow has no node ${t.node}` });
      else if (node.inputs.get(t.input)?.kind !== 'value') issues.push({ param: c.name, message: `${nodeLabel(node)} (node ${t.node}) has no value input ${t.input}` });
    }
    if ((c.as === 'field' || isSeedChoice(c)) && Object.hasOwn(values, c.name)) {
      // A seed may be empty: a new random seed each run, as an image node's.
      const problem = isSeedChoice(c) && values[c.name] === null ? undefined : valueProblem(c.kind, values[c.name]);
      if (problem !== undefined) issues.push({ param: c.name, message: problem });
    }
  }
  for (const name of Object.keys(values)) {
    if (!fields.some((c) => c.name === name && (c.as === 'field' || isSeedChoice(c)))) issues.push({ param: 'values', message: `'${name}' is not a chosen field of this workflow` });
  }
  const outNames = new Set<string>();
  for (const o of outputs) {
    if (outNames.has(o.name)) issues.push({ param: 'outputs', message: `two outputs are named '${o.name}'` });
    outNames.add(o.name);
    if (!graph.nodes.has(o.node)) issues.push({ param: 'outputs', message: `output '${o.name}' reads node ${o.node}, which the workflow does not have` });
  }
  return issues;
}
