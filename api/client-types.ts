/**
 * What nodes, the executor and the CLI need from the API clients. The implementations live in
 * `image-client.ts` and `chat-client.ts`; tests and the executor may inject their own.
 */
import type { EngineId } from './catalog';
import type { ChatCompletion, ChatRequest, ChatUsage, FinishReason } from './chat';
import type { ImageRequest, ImageResponse } from './image';
import type { RetryNotice } from './retry';
import type { ImageCallOptions, PriceQuote, TranslationReview } from './backends/types';
import type { RunPipeline } from './backends/comfyui/pipeline/request';
import type { ServerStatus } from './backends/pool/state';

export type { ServerStatus };

/**
 * A pool's servers at one moment, for the run panel: `pool` is the backend's name (ComfyUI),
 * `engines` the engines it serves, each server by its label and counts. Never an address.
 */
export interface ServersReport {
  pool: string;
  engines: EngineId[];
  servers: ServerStatus[];
}

/** Per-call options every client method takes. */
export interface CallOptions {
  /** Cancels the request and any backoff wait at once. */
  signal?: AbortSignal;
  /** Told before each retry wait (which attempt comes next, how long the wait is, and why). */
  onRetry?: (notice: RetryNotice) => void;
}

export interface ImageClient {
  /**
   * Generates images for `request` on `engine`, resolving with the service's response shape (2.6)
   * whatever backend answers. `onProgress` is told what the backend reports (steps done).
   */
  generate(engine: EngineId, request: ImageRequest, options?: ImageCallOptions): Promise<ImageResponse>;
  /**
   * What the backend behind `engine` will do with `request` (fields approximated, not sent, or
   * refusing it), found without sending anything. Absent (or undefined): sent as it is.
   */
  review?(engine: EngineId, request: ImageRequest): TranslationReview | undefined;
  /** What the backend behind `engine` quotes for `request`, sending nothing. Absent (or undefined): no price is quoted. */
  price?(engine: EngineId, request: ImageRequest): PriceQuote | undefined;
  /**
   * Runs a whole ComfyUI workflow, where a ComfyUI backend is chosen (for any engine). Absent:
   * no backend here can, and a pipeline node says so before the run.
   */
  runPipeline?: RunPipeline;
  /**
   * Tells `listener` how the servers of each pool behind this client stand, at once where it
   * knows and whenever that changes; returns how to stop. Absent: no pool here.
   */
  watchServers?(listener: (report: ServersReport) => void): () => void;
}

/** One piece of a streamed completion. */
export interface ChatStreamEvent {
  /** Text added by this chunk ('' for the role-only first chunk). */
  text: string;
  /** Set on the last content chunk only. A reason other than 'length', 'content_filter' or 'stop' is reported as 'stop'. */
  finishReason: FinishReason | null;
  /** Token counts, when the service sends them with a chunk. */
  usage?: ChatUsage;
  /**
   * Something amiss that did not cost any text, for the run to report (a finished stream that
   * closed without `[DONE]`). Comes on an event of its own, with no text.
   */
  warning?: string;
}

export interface ChatClient {
  /** A whole completion (`stream: false`). */
  complete(request: Omit<ChatRequest, 'stream'>, options?: CallOptions): Promise<ChatCompletion>;
  /**
   * A streamed completion (`stream: true`), yielding text as it arrives. Ends after `[DONE]`, or
   * with a `warning` event when a stream that gave its `finish_reason` closes without it; a stream
   * cut short before that throws an ApiError whose `partialText` holds what had arrived.
   */
  stream(request: Omit<ChatRequest, 'stream'>, options?: CallOptions): AsyncIterable<ChatStreamEvent>;
  /** Model names from `GET {text_base_url}/v1/models`, where the server lists them. */
  listModels?(options?: CallOptions): Promise<string[]>;
}

export type { ChatUsage, ImageCallOptions, TranslationReview };
