/**
 * The request parameters of every API call, per node, for the manifest: the request as sent,
 * with each base64 image replaced by its mime type, byte size and sha256, so a run can be
 * audited and reproduced without the manifest carrying the images.
 *
 * The executor reports each call as a `node-request` event (with images cut to their length)
 * and then, synchronously, hands the request to the client. The recorder wraps the clients and
 * attaches the full description to the event that has just named the node.
 */
import { createHash } from 'node:crypto';
import type { ChatClient, ImageClient } from '../api/client-types';
import { base64ByteSize, imageMime } from '../nodes/values';
import type { RunContext } from '../nodes/types';
import type { ApiCallRecord, ExecutorEvent } from '../workers/events';
import { keyedRecord } from '../workflow/keys';

export interface ImageDigest {
  image: string;
  bytes: number;
  sha256: string;
}

export interface RecordedCall {
  api: ApiCallRecord['api'];
  operation: ApiCallRecord['operation'];
  engine?: string;
  request: unknown;
  /** The backend that took an image request, what it changed, and the request as it sent it. */
  backend?: ApiCallRecord['backend'];
}

/** Shorter base64 than this is left as it is (it cannot be a useful image). */
const MIN_IMAGE_CHARS = 64;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function digestImage(b64: string): ImageDigest {
  return {
    image: imageMime(b64) ?? 'unknown',
    bytes: base64ByteSize(b64),
    sha256: createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex'),
  };
}

/** A copy of a request with every embedded image replaced by its digest. */
export function describeRequest(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length >= MIN_IMAGE_CHARS && imageMime(value) !== undefined && BASE64.test(value) ? digestImage(value) : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(describeRequest);
  // Keys may be names from the file (a LoRA called 'toString'): no prototype to answer to them.
  const out = keyedRecord<unknown>();
  for (const [k, v] of Object.entries(value)) out[k] = describeRequest(v);
  return out;
}

export interface RequestRecorder {
  /** The clients to give the executor. */
  api: RunContext['api'];
  /** Feed every executor event here, before anything else sees it. */
  onEvent(event: ExecutorEvent): void;
  /** The calls a node made, in order. */
  callsOf(nodeId: string): RecordedCall[];
}

export function recordRequests(api: RunContext['api']): RequestRecorder {
  const byNode = new Map<string, RecordedCall[]>();
  let announced: RecordedCall | undefined;
  const attach = (request: unknown) => {
    if (announced) announced.request = describeRequest(request);
    announced = undefined;
  };

  const image: ImageClient = {
    generate(engine, request, options) {
      attach(request);
      return api.image.generate(engine, request, options);
    },
  };
  const review = api.image.review?.bind(api.image);
  if (review) image.review = review;
  const watchServers = api.image.watchServers?.bind(api.image);
  if (watchServers) image.watchServers = watchServers;
  const runPipeline = api.image.runPipeline?.bind(api.image);
  if (runPipeline) {
    image.runPipeline = async (request, options) => {
      const call = announced;
      attach({ pipeline: request.pipeline, set: request.set, images: request.images.map((i) => ({ node: i.node, input: i.input, image: i.b64 })) });
      const result = await runPipeline(request, options);
      // The record keeps the workflow as sent, its classes and the files ComfyUI wrote.
      if (call !== undefined) call.request = { ...(call.request as Record<string, unknown>), sent: result.record.prompt, classes: result.record.classes, comfyui_files: result.record.files };
      return result;
    };
  }
  const chat: ChatClient = {
    complete(request, options) {
      attach(request);
      return api.chat.complete(request, options);
    },
    stream(request, options) {
      attach(request);
      return api.chat.stream(request, options);
    },
  };
  const listModels = api.chat.listModels?.bind(api.chat);
  if (listModels) chat.listModels = listModels;

  return {
    api: { image, chat },
    onEvent(event) {
      if (event.type !== 'node-request') return;
      // Until the client is called, the executor's own (images cut to a length) stands in.
      const { api: which, operation, engine, request, backend } = event.call;
      const call: RecordedCall = { api: which, operation, ...(engine === undefined ? {} : { engine }), request, ...(backend === undefined ? {} : { backend }) };
      const calls = byNode.get(event.nodeId) ?? [];
      calls.push(call);
      byNode.set(event.nodeId, calls);
      announced = call;
    },
    callsOf: (nodeId) => byNode.get(nodeId) ?? [],
  };
}
