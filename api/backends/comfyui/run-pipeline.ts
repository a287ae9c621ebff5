/**
 * A whole ComfyUI workflow (a pipeline node's) run on ComfyUI: the chosen values laid over it,
 * input images uploaded under their content hash (as the backend uploads its own), the graph
 * checked against the server's `/object_info` before anything is queued, then queued, followed
 * over the WebSocket (or polled), cancelled with `/queue` delete and `/interrupt`, and its save
 * nodes' images (`GET /view`) and reported texts fetched from its history.
 */
import { z } from 'zod';
import { ApiError } from '../../errors';
import type { ImageCallOptions } from '../types';
import { executionError, interruptedError } from './errors';
import type { ComfyGraph, ComfyPrompt } from './graph';
import { imageCodec, inputFile, type InputFile } from './images';
import { checkPipeline, type PipelineProblem } from './pipeline/check';
import { fromStored, nodeLabel, toApiPrompt, toStored, type PipelineGraph } from './pipeline/model';
import { readObjectInfo, type ObjectInfo } from './pipeline/object-info';
import type { PipelineImage, PipelineRunRequest, PipelineRunResult } from './pipeline/request';
import { openFeed, socketUrl, type MessageFeed } from './socket';
import type { Transport } from './transport';
import { watchRun, type WatchState } from './watch';

export interface PipelineRunnerDeps {
  transport: Transport;
  baseUrl: string;
  Socket: typeof WebSocket | undefined;
  pollMs: number;
  safetyPollMs: number;
  socketOpenMs: number;
  randomId(): string;
}

/** A pipeline ComfyUI cannot run as it is: each problem names its node and input. Nothing was sent. */
export class PipelineRefusedError extends ApiError {
  constructor(readonly problems: PipelineProblem[], endpoint: string, secrets: readonly string[]) {
    super({
      kind: 'http', retryable: false, endpoint, attempts: 0,
      detail: `not sent: ComfyUI cannot run this workflow: ${problems.map((p) => `node ${p.node}${p.input === undefined ? '' : `, ${p.input}`}: ${p.message}`).join('; ')}`,
    }, secrets);
  }
}

/** The outputs' part of a history entry that a pipeline reads: images and texts per node. */
const NodeOutputsSchema = z.record(z.string(), z.looseObject({
  images: z.array(z.looseObject({ filename: z.string(), subfolder: z.string().default(''), type: z.string().default('output') })).optional(),
  text: z.union([z.array(z.unknown()), z.string()]).optional(),
}));

/** Sampler nodes with the steps they report progress over, for "step 12 of 30". */
function samplersOf(graph: PipelineGraph): ComfyGraph['samplers'] {
  const steps = (id: string | undefined): number | undefined => {
    const input = id === undefined ? undefined : graph.nodes.get(id)?.inputs.get('steps');
    return input?.kind === 'value' && typeof input.value === 'number' ? input.value : undefined;
  };
  const out: ComfyGraph['samplers'] = [];
  for (const node of graph.nodes.values()) {
    const sigmas = node.inputs.get('sigmas');
    const n = steps(node.id) ?? (sigmas?.kind === 'link' ? steps(sigmas.from) : undefined);
    if (n !== undefined && (node.inputs.has('latent_image') || node.inputs.has('samples'))) out.push({ node: node.id, steps: n });
  }
  return out;
}

function mimeOf(filename: string): string {
  return /\.webp$/i.test(filename) ? 'image/webp' : /\.jpe?g$/i.test(filename) ? 'image/jpeg' : /\.gif$/i.test(filename) ? 'image/gif' : 'image/png';
}

/** Runs one pipeline; failures are ApiErrors in a person's words (the caller explains transport ones). */
export async function runPipeline(deps: PipelineRunnerDeps, request: PipelineRunRequest, o: ImageCallOptions = {}): Promise<PipelineRunResult> {
  const { transport } = deps;
  const { secrets } = transport.http;
  const endpoint = transport.http.endpoint('POST', '/prompt');
  const graph = fromStored(request.pipeline);
  for (const { node, input, value } of request.set) {
    const target = graph.nodes.get(node);
    if (target?.inputs.get(input)?.kind !== 'value') throw new PipelineRefusedError([{ node, input, message: 'this input is not a value of the workflow' }], endpoint, secrets);
    target.inputs.set(input, { kind: 'value', value });
  }

  const clientId = deps.randomId();
  const feedOpening = deps.Socket === undefined ? Promise.resolve(undefined) : openFeed(deps.Socket, socketUrl(deps.baseUrl, clientId), deps.socketOpenMs, o.signal);
  let feed: MessageFeed | undefined;
  const state: WatchState = { running: false };
  let promptId: string | undefined;
  try {
    const info: ObjectInfo = readObjectInfo(await transport.getJson('/object_info', z.unknown(), o));
    // Images by content: the same picture is one file, uploaded once, and not again on a re-run.
    const present = new Set(info.get('LoadImage')?.inputs.find((i) => i.name === 'image')?.choices ?? []);
    const uploads = new Map<string, Promise<string>>();
    // One picture feeding several LoadImage inputs is decoded once (bench/pipeline-images.ts).
    const decoded = new Map<string, Promise<InputFile>>();
    for (const image of request.images) {
      let read = decoded.get(image.b64);
      if (read === undefined) decoded.set(image.b64, read = inputFile(image.b64));
      const file = await read;
      let name = uploads.get(file.name);
      if (name === undefined) uploads.set(file.name, name = present.has(file.name) ? Promise.resolve(file.name) : transport.upload(file, o));
      graph.nodes.get(image.node)?.inputs.set(image.input, { kind: 'value', value: await name });
    }
    const problems = checkPipeline(graph, info, request.images);
    if (problems.length > 0) throw new PipelineRefusedError(problems, endpoint, secrets);

    feed = await feedOpening;
    const prompt = toApiPrompt(graph);
    const comfyGraph: ComfyGraph = { prompt: prompt as ComfyPrompt, roles: {}, loads: {}, samplers: samplersOf(graph), output: '' };
    const ctx = { graph: comfyGraph, engine: 'pipeline', endpoint, secrets };
    promptId = deps.randomId();
    const queued = await transport.queue({ prompt, client_id: clientId, prompt_id: promptId }, o);
    if (!queued.ok) {
      const errors = Array.isArray(queued.refusal.node_errors) ? {} : queued.refusal.node_errors ?? {};
      const told = Object.entries(errors).flatMap(([id, e]) => e.errors.map((x) => `node ${id} (${nodeLabel(graph.nodes.get(id))}): ${x.message}${x.details ? ` (${x.details})` : ''}`));
      const top = typeof queued.refusal.error === 'string' ? queued.refusal.error : `${queued.refusal.error.message}${queued.refusal.error.details ? ` (${queued.refusal.error.details})` : ''}`;
      throw new ApiError({ kind: 'http', status: 400, retryable: false, endpoint: queued.endpoint, attempts: 1, detail: `HTTP 400: ComfyUI refused the workflow: ${told.length > 0 ? told.join('; ') : top}` }, secrets);
    }
    promptId = queued.promptId;
    o.onProgress?.(0, 'queued in ComfyUI');
    const outcome = await watchRun({
      transport, graph: comfyGraph, promptId, feed, pollMs: deps.pollMs, safetyPollMs: deps.safetyPollMs, signal: o.signal, onProgress: o.onProgress,
    }, state);
    if (outcome.kind === 'failed') throw executionError(outcome.failure, ctx);
    if (outcome.kind === 'interrupted') throw interruptedError(ctx, 'ComfyUI stopped the run: it was interrupted there (its Cancel button, or another client)');
    if (outcome.kind === 'gone') throw interruptedError(ctx, "the prompt left ComfyUI's queue without a result: it was deleted there, or ComfyUI restarted");
    const history = NodeOutputsSchema.safeParse(outcome.entry.outputs);
    const byNode = history.success ? new Map(Object.entries(history.data)) : new Map<string, never>();
    const files: string[] = [];
    const outputs = await Promise.all(request.outputs.map(async (output) => {
      const found = byNode.get(output.node);
      const images: PipelineImage[] = await Promise.all((found?.images ?? []).map(async (image) => {
        const query = new URLSearchParams({ filename: image.filename, subfolder: image.subfolder, type: image.type });
        const bytes = await transport.getBytes(`/view?${query.toString()}`, o);
        return { b64: imageCodec.encode(bytes), mime: mimeOf(image.filename), filename: image.filename };
      }));
      files.push(...images.map((i) => i.filename));
      const texts = found?.text === undefined ? [] : (Array.isArray(found.text) ? found.text : [found.text]).map((t) => (typeof t === 'string' ? t : JSON.stringify(t)));
      return { name: output.name, images, texts };
    }));
    o.onProgress?.(1, 'done');
    const classes = [...new Set([...graph.nodes.values()].map((n) => n.classType))].sort();
    return { outputs, record: { prompt: toStored(graph), classes, files } };
  } catch (error) {
    if (o.signal?.aborted === true) {
      if (promptId !== undefined) {
        await transport.post('/queue', { delete: [promptId] }).catch(() => undefined);
        const running = state.running || await transport.queueState(promptId).then((q) => q.state === 'running', () => false);
        if (running) await transport.post('/interrupt', { prompt_id: promptId }).catch(() => undefined);
      }
      throw new ApiError({ kind: 'aborted', detail: 'cancelled', endpoint, attempts: 1, retryable: false }, secrets);
    }
    throw error;
  } finally {
    feed?.close();
    if (feed === undefined) void feedOpening.then((late) => late?.close());
  }
}
