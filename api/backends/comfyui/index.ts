/**
 * ComfyUI as an image backend. Each request becomes an API-format prompt graph (translate.ts,
 * graph.ts); input images are uploaded under their content hash (`POST /upload/image`); the
 * graph is queued (`POST /prompt`), followed over the WebSocket or by polling (watch.ts), and its
 * SaveImage output fetched (`GET /history/{id}`, `GET /view`). A cancelled run is taken out of
 * ComfyUI's queue or interrupted there.
 */
import { ApiError } from '../../errors';
import type { EngineId } from '../../catalog';
import type { ImageRequest, ImageResponse } from '../../image-schema';
import { elideImages } from '../elide';
import type { BackendOptions } from '../options';
import type { ImageBackend, ImageCallOptions, TranslationReview } from '../types';
import { comfyDescription } from './describe';
import { executionError, explainTransportError, interruptedError, refusalError } from './errors';
import { buildGraph, type ImageField } from './graph';
import { imageCodec, inputFile } from './images';
import { missingNames, sameStem, type NeededName } from '../known-names';
import { listComfyNames, nodeChoices } from './names';
import { openFeed, socketUrl, type MessageFeed } from './socket';
import { createTransport, type Transport } from './transport';
import { translate } from './translate';
import { watchRun, type WatchState } from './watch';
import { runPipeline } from './run-pipeline';
import { needsOf } from '../pool/placement';
import { z } from 'zod';

/** server.py `GET /queue`: the running and pending prompts, each a list whose second item is its id. */
const QueueLengthSchema = z.looseObject({ queue_running: z.array(z.unknown()), queue_pending: z.array(z.unknown()) });

export interface ComfyBackendOptions extends BackendOptions {
  /** Milliseconds between looks at ComfyUI's queue when there is no WebSocket (default 1000). */
  pollIntervalMs?: number;
}

const LABEL = comfyDescription.label;

/** ComfyUI lists its embeddings without their extension (server.py `/embeddings`); other files exactly. */
const sameFile = (need: NeededName, listed: string) => (need.list === 'embeddings' ? sameStem(need.name, listed) : need.name === listed);
/** With a WebSocket, a look at the queue this often anyway, in case a message was lost. */
const SAFETY_POLL_MS = 10_000;
const SOCKET_OPEN_MS = 5_000;

/** A version 4 UUID; crypto.randomUUID is missing on a page outside a secure context. */
function randomId(): string {
  const b = globalThis.crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function randomSeed(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
}

/** Uploads the request's input images (each decoded once), skipping those ComfyUI has already. */
async function uploadInputs(transport: Transport, request: ImageRequest, options: ImageCallOptions): Promise<Partial<Record<ImageField, string>>> {
  const fields = (['init_image', 'mask_image', 'controlnet_image'] as const).filter((f) => request[f] !== undefined);
  if (fields.length === 0) return {};
  const files = await Promise.all(fields.map((field) => inputFile(request[field] ?? '')));
  const present = new Set(await nodeChoices(transport, 'LoadImage', 'image', options).catch(() => undefined) ?? []);
  const names: Partial<Record<ImageField, string>> = {};
  const uploads = new Map<string, Promise<string>>();
  await Promise.all(fields.map(async (field, i) => {
    const file = files[i];
    if (file === undefined) return;
    if (present.has(file.name)) {
      names[field] = file.name;
      return;
    }
    // The same image in two fields is uploaded once.
    let upload = uploads.get(file.name);
    if (upload === undefined) uploads.set(file.name, upload = transport.upload(file, options));
    names[field] = await upload;
  }));
  return names;
}

export function createComfyBackend(options: ComfyBackendOptions): ImageBackend {
  const transport = createTransport(options);
  const { secrets } = transport.http;
  const baseUrl = options.baseUrl.trim().replace(/\/+$/, '');
  const Socket = options.WebSocket ?? (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
  const promptEndpoint = transport.http.endpoint('POST', '/prompt');

  /** The request's translation, with the files ComfyUI did not list (when its lists are known) refused. */
  function plan(engine: EngineId, request: ImageRequest) {
    const planned = translate(engine, request, { names: options.names });
    const missing = missingNames(engine, planned.needs, options.listed, sameFile);
    return missing.length === 0 ? planned : { ...planned, refusals: [...planned.refusals, ...missing] };
  }

  function review(engine: EngineId, request: ImageRequest): TranslationReview {
    const { refusals, notes, recipe } = plan(engine, request);
    const translated = recipe === undefined || refusals.length > 0 ? undefined : elideImages({ prompt: buildGraph(recipe).prompt });
    return { backend: 'comfyui', label: LABEL, refusals, notes, translated };
  }

  /** Takes a prompt out of the queue, and interrupts it if it is running. Best effort. */
  async function cancel(promptId: string, state: WatchState): Promise<void> {
    await transport.post('/queue', { delete: [promptId] }).catch(() => undefined);
    const running = state.running || await transport.queueState(promptId).then((q) => q.state === 'running', () => false);
    // With prompt_id, a current ComfyUI interrupts only this prompt (server.py post_interrupt).
    if (running) await transport.post('/interrupt', { prompt_id: promptId }).catch(() => undefined);
  }

  const aborted = () => new ApiError({ kind: 'aborted', detail: 'cancelled', endpoint: promptEndpoint, attempts: 1, retryable: false }, secrets);

  async function fetchImages(images: { filename: string; subfolder: string; type: string }[], o: ImageCallOptions) {
    return Promise.all(images.map((image) => {
      const query = new URLSearchParams({ filename: image.filename, subfolder: image.subfolder, type: image.type });
      return transport.getBytes(`/view?${query.toString()}`, o);
    }));
  }

  async function run(engine: EngineId, request: ImageRequest, o: ImageCallOptions): Promise<ImageResponse> {
    const planned = plan(engine, request);
    if (planned.refusals.length > 0) {
      const issues = planned.refusals.map((r) => `${r.path}: ${r.message}`).join('; ');
      throw new ApiError({ kind: 'http', retryable: false, endpoint: promptEndpoint, attempts: 0, detail: `not sent: ComfyUI cannot do this request: ${issues}` }, secrets);
    }
    const seed = request.seed ?? randomSeed();
    const clientId = randomId();
    const feedOpening = Socket === undefined ? Promise.resolve(undefined) : openFeed(Socket, socketUrl(baseUrl, clientId), SOCKET_OPEN_MS, o.signal);
    let feed: MessageFeed | undefined;
    const state: WatchState = { running: false };
    let promptId: string | undefined;
    try {
      const images = await uploadInputs(transport, request, o);
      feed = await feedOpening;
      const { recipe } = translate(engine, request, { names: options.names, images, seed });
      if (recipe === undefined) throw new TypeError('a request that translated once failed to translate again');
      const graph = buildGraph(recipe);
      const ctx = { graph, engine, endpoint: promptEndpoint, secrets };
      // A current ComfyUI takes the prompt's id from the request, so a cancel during queueing can name it.
      promptId = randomId();
      o.onSending?.();
      const queued = await transport.queue({ prompt: graph.prompt, client_id: clientId, prompt_id: promptId }, o);
      if (!queued.ok) {
        throw await refusalError(queued.refusal, { ...ctx, endpoint: queued.endpoint, lookup: (c, i) => nodeChoices(transport, c, i) });
      }
      promptId = queued.promptId;
      o.onAccepted?.();
      o.onProgress?.(0, 'queued in ComfyUI');
      const outcome = await watchRun({
        transport, graph, promptId, feed, pollMs: options.pollIntervalMs ?? 1000, safetyPollMs: SAFETY_POLL_MS,
        signal: o.signal, onProgress: o.onProgress,
      }, state);
      if (outcome.kind === 'failed') throw executionError(outcome.failure, ctx);
      if (outcome.kind === 'interrupted') throw interruptedError(ctx, 'ComfyUI stopped the run: it was interrupted there (its Cancel button, or another client)');
      if (outcome.kind === 'gone') throw interruptedError(ctx, "the prompt left ComfyUI's queue without a result: it was deleted there, or ComfyUI restarted");
      const outputs = outcome.entry.outputs[graph.output]?.images ?? [];
      if (outputs.length === 0) {
        throw new ApiError({ kind: 'invalid-response', retryable: false, endpoint: promptEndpoint, attempts: 1, detail: `ComfyUI finished the run but its history holds no image from the SaveImage node (${graph.output})` }, secrets);
      }
      const bytes = await fetchImages(outputs, o);
      o.onProgress?.(1, 'done');
      return { images: bytes.map((b) => ({ image_b64: imageCodec.encode(b), seed })) };
    } catch (error) {
      if (o.signal?.aborted === true) {
        if (promptId !== undefined) await cancel(promptId, state);
        throw aborted();
      }
      throw error;
    } finally {
      feed?.close();
      if (feed === undefined) void feedOpening.then((late) => late?.close());
    }
  }

  return {
    kind: 'comfyui',
    label: LABEL,
    reportsAcceptance: true,
    review,
    async generate(engine, request, callOptions = {}) {
      try {
        return await run(engine, request, callOptions);
      } catch (error) {
        throw explainTransportError(error, baseUrl, secrets, options.pageOrigin);
      }
    },
    async runPipeline(request, callOptions = {}) {
      try {
        return await runPipeline({
          transport, baseUrl, Socket, pollMs: options.pollIntervalMs ?? 1000, safetyPollMs: SAFETY_POLL_MS, socketOpenMs: SOCKET_OPEN_MS, randomId,
        }, request, callOptions);
      } catch (error) {
        throw explainTransportError(error, baseUrl, secrets);
      }
    },
    placementNeeds: (engine, request) => needsOf(translate(engine, request, { names: options.names }).needs),
    async serverQueue(callOptions = {}) {
      try {
        const queue = await transport.getJson('/queue', QueueLengthSchema, callOptions);
        return queue.queue_running.length + queue.queue_pending.length;
      } catch (error) {
        throw explainTransportError(error, baseUrl, secrets, options.pageOrigin);
      }
    },
    async listNames(callOptions = {}) {
      try {
        return await listComfyNames(transport, callOptions);
      } catch (error) {
        throw explainTransportError(error, baseUrl, secrets, options.pageOrigin);
      }
    },
  };
}
