/**
 * The API clients as one node sees them: every call is counted and reported (with image data
 * elided), what comes back is counted too (images, chat `usage`), and every call carries the
 * node's abort signal even when the node forgot to pass it, so a cancel always reaches the
 * request in flight.
 */
import type { ChatRequest, ChatUsage } from '../api/chat';
import type { CallOptions, ChatClient, ChatStreamEvent, ImageClient } from '../api/client-types';
import type { RetryNotice } from '../api/retry';
import { elideImages } from '../api/backends/elide';
import type { RunContext } from '../nodes/types';
import { ParamIssuesError } from '../nodes/errors';
import { refusalIssues } from './backend-review';
import type { ApiCallRecord } from './events';

export { elideImages };

export interface NodeApiHooks {
  /** A request is about to be sent. */
  onCall(call: ApiCallRecord): void;
  /** A request failed and the client will try again after a wait. */
  onRetry(notice: RetryNotice): void;
  /** An image request came back with `count` images, made with `sampler` (absent: the API's default). */
  onImages?(count: number, sampler: string | undefined): void;
  /**
   * A chat call ended (answered, failed or abandoned), with the usage it reported, if any, and
   * the text sent and received when an answer came (for an estimate when it reported no usage).
   */
  onChatEnd?(usage: ChatUsage | undefined, text?: { sent: string; received: string }): void;
  /** A client noticed something amiss that did not stop the call (a stream that closed without `[DONE]`). */
  onWarning?(message: string): void;
}

/**
 * The stream as it is, noting the last `usage` a chunk carried and telling `onChatEnd` once it
 * ends, or at once when `signal` aborts: a cancelled run is summed up without waiting for the
 * node to let go of its stream, and what had streamed by then was used all the same.
 */
async function* watchStream(stream: AsyncIterable<ChatStreamEvent>, sent: string, signal: AbortSignal, hooks: NodeApiHooks): AsyncGenerator<ChatStreamEvent> {
  let usage: ChatUsage | undefined;
  let received = '';
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    signal.removeEventListener('abort', end);
    // A call that failed before any text came back is not estimated: it may have used nothing.
    hooks.onChatEnd?.(usage, received === '' ? undefined : { sent, received });
  };
  signal.addEventListener('abort', end, { once: true });
  try {
    for await (const event of stream) {
      if (event.usage) usage = event.usage;
      if (event.warning !== undefined) hooks.onWarning?.(event.warning);
      received += event.text;
      yield event;
    }
  } finally {
    end();
  }
}

/** The text of a chat request's messages, as an estimate of what it sends counts it. */
const sentText = (request: ChatRequest): string => request.messages.map((m) => m.content).join('\n');

/** The node's options with the run's signal (and the retry hook) added to whatever it passed. */
function withSignal(options: CallOptions | undefined, signal: AbortSignal, hooks: NodeApiHooks): CallOptions {
  const own = options?.onRetry;
  const onRetry = (notice: RetryNotice) => {
    hooks.onRetry(notice);
    own?.(notice);
  };
  // A signal of the node's own still counts, but the run's must always win.
  return { ...options, signal: options?.signal ? AbortSignal.any([options.signal, signal]) : signal, onRetry };
}

/** The clients for one node run, reporting each call and each retry through `hooks`. */
export function nodeApi(api: RunContext['api'], signal: AbortSignal, hooks: NodeApiHooks): RunContext['api'] {
  const onCall = (call: ApiCallRecord) => hooks.onCall(call);
  const image: ImageClient = {
    generate(engine, request, options) {
      // The backend's verdict on the real request (values from ports included): a refusal
      // sends nothing and counts no call.
      const review = api.image.review?.(engine, request);
      if (review !== undefined && review.refusals.length > 0) {
        return Promise.reject(new ParamIssuesError(refusalIssues(review)));
      }
      const backend = review === undefined || review.backend === 'service'
        ? {}
        : { backend: { kind: review.backend, label: review.label, notes: review.notes, translated: review.translated } };
      onCall({ api: 'image', operation: 'generate', engine, request: elideImages(request), ...backend });
      return api.image.generate(engine, request, withSignal(options, signal, hooks)).then((response) => {
        hooks.onImages?.(response.images.length, request.sampler);
        return response;
      });
    },
  };
  const runPipeline = api.image.runPipeline;
  if (runPipeline !== undefined) {
    image.runPipeline = (request, options) => {
      onCall({
        api: 'image', operation: 'pipeline', request: { pipeline: request.pipeline, set: request.set, images: request.images.map((i) => ({ node: i.node, input: i.input, image: elideImages(i.b64) })) },
        backend: { kind: 'comfyui', label: 'ComfyUI', notes: [], translated: { classes: [...new Set(request.pipeline.nodes.map((n) => n.class_type))].sort() } },
      });
      return runPipeline.call(api.image, request, withSignal(options, signal, hooks)).then((result) => {
        hooks.onImages?.(result.outputs.reduce((sum, o) => sum + o.images.length, 0), undefined);
        return result;
      });
    };
  }
  const chat: ChatClient = {
    complete(request, options) {
      onCall({ api: 'chat', operation: 'complete', request: elideImages(request) });
      return api.chat.complete(request, withSignal(options, signal, hooks)).then(
        (completion) => {
          hooks.onChatEnd?.(completion.usage, { sent: sentText(request), received: completion.choices[0]?.message.content ?? '' });
          return completion;
        },
        (error: unknown) => {
          hooks.onChatEnd?.(undefined);
          throw error;
        },
      );
    },
    stream(request, options) {
      onCall({ api: 'chat', operation: 'stream', request: elideImages(request) });
      return watchStream(api.chat.stream(request, withSignal(options, signal, hooks)), sentText(request), signal, hooks);
    },
  };
  const listModels = api.chat.listModels?.bind(api.chat);
  if (listModels) chat.listModels = (options) => listModels(withSignal(options, signal, hooks));
  return { image, chat };
}
