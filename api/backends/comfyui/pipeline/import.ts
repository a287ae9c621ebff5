/**
 * From what a person gives (an API-format JSON, a UI-format `workflow.json`, or the `prompt` and
 * `workflow` texts of a PNG ComfyUI saved) to a pipeline ready to be a node: parsed, converted,
 * scrubbed of credentials (each named by node and input), normalised and hashed, with its inputs
 * discovered.
 */
import { credentialInput } from './credential-input';
import { discoverPipeline, type Discovery } from './discover';
import { PipelineError, nodeLabel, parseApiWorkflow, parseJsonText, pipelineHash, toStored, type PipelineGraph, type StoredPipeline } from './model';
import type { ObjectInfo } from './object-info';
import { isUiWorkflow, uiToApi } from './ui-format';

export interface PipelineSource {
  /** API-format JSON text (a PNG's `prompt`, or a file saved with Export (API)). */
  api?: string;
  /** UI-format JSON text (a PNG's `workflow`, or a saved `workflow.json`). */
  ui?: string;
}

/** The server's `/object_info`, or why it could not be had. */
export type InfoOrReason = { info: ObjectInfo } | { unreachable: string };

export interface ImportedPipeline {
  graph: PipelineGraph;
  stored: StoredPipeline;
  hash: string;
  discovery: Discovery;
  /** What was changed or could not be read exactly, in a person's words (credentials removed…). */
  notes: string[];
}

/** Removes credentials typed into the pipeline's inputs, saying which node and input lost one. */
export function scrubCredentials(graph: PipelineGraph): string[] {
  const notes: string[] = [];
  for (const node of graph.nodes.values()) {
    for (const [name, input] of node.inputs) {
      if (input.kind === 'value' && credentialInput(name, input.value)) {
        node.inputs.set(name, { kind: 'value', value: '' });
        notes.push(`removed what ComfyUI node ${node.id} (${nodeLabel(node)}) held in its input ${name}: it names or holds a credential, which a workflow never carries; the backend's settings hold keys`);
      }
    }
  }
  return notes;
}

/**
 * Reads a pipeline. API format needs no server; UI format needs the server's `/object_info` for
 * each class's widget order, and is refused in one line when the server could not be reached.
 */
export function importPipeline(source: PipelineSource, server?: InfoOrReason): ImportedPipeline {
  let graph: PipelineGraph;
  const notes: string[] = [];
  const info = server !== undefined && 'info' in server ? server.info : undefined;
  const api = source.api === undefined ? undefined : parseJsonText(source.api, 'API-format workflow');
  if (api !== undefined && !isUiWorkflow(api)) {
    graph = parseApiWorkflow(api);
  } else {
    const ui = api ?? (source.ui === undefined ? undefined : parseJsonText(source.ui, 'workflow'));
    if (ui === undefined) throw new PipelineError('nothing to read: neither an API-format nor a UI-format ComfyUI workflow was given');
    if (!isUiWorkflow(ui)) throw new PipelineError('this is not a ComfyUI workflow: expected API format (nodes by id with class_type) or UI format (nodes and links)');
    if (info === undefined) {
      const why = server !== undefined && 'unreachable' in server ? server.unreachable : 'no ComfyUI backend is chosen';
      throw new PipelineError(`a UI-format workflow needs the ComfyUI server's node list to read its widgets, and ${why}; start ComfyUI (or choose its backend), or use Export (API) in ComfyUI`);
    }
    const converted = uiToApi(ui, info);
    graph = converted.graph;
    notes.push(...converted.notes);
  }
  notes.push(...scrubCredentials(graph));
  const stored = toStored(graph);
  return { graph, stored, hash: pipelineHash(stored), discovery: discoverPipeline(graph, info), notes };
}
