/**
 * The API clients as one node sees them: every call is counted and reported (with image data
 * elided), what comes back is counted too (images, chat `usage`) and every image checked
 * (api/image-check.ts) whatever backend made it, and every call carries the
 * node's abort signal even when the node forgot to pass it, so a cancel always reaches the
 * request in flight.
 */
import type { ChatRequest, ChatUsage } from '../api/chat';
import type { CallOptions, ChatClient, ChatStreamEvent, ImageClient } from '../api/client-types';
import type { RetryNotice } from '../api/retry';
import { elideImages } from '../api/backends/elide';
import { checkImageResponse } from '../api/image-check';
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
  /**
   * An image request came back with `count` images, made with `sampler` (absent: the API's
   * default), `cost`, the response's money as the backend reported it, if any, and
   * `billedSeconds`, the GPU seconds it reported billing by (`billed_seconds`), if any.
   */
  onImages?(count: number, sampler: string | undefined, cost?: unknown, billedSeconds?: unknown): void;
  /**
   * A chat call ended (answered, failed or abandoned), with the usage it reported, if any, and
   * the text sent and received when an answer came (for an estimate when it reported no usage).
   */
  onChatEnd?(usage: ChatUsage | undefined, text?: { sent: string; received: string }): void;
  /** A client noticed something amiss that did not stop the call (a stream that closed without `[DONE]`). */
  onWarning?(message: string): void;
  /**
   * The answer is used, with something about it whoever reads the result should know: a chat
   * answer cut by its token cap ("stopped at max_tokens: 50"). Marked on the node.
   */
  onNote?(note: string): void;
}

/** The chat model's content filter stopped the answer: the node fails, whatever text had come. */
export class ContentFilterError extends Error {
  override readonly name = 'ContentFilterError';
  /** As NodeError.kind reads it. */
  readonly kind = 'content-filter';
  constructor(readonly partialText: string) {
    const arrived = partialText === '' ? 'before any text arrived' : `after ${partialText.length.toLocaleString('en-US')} characters of text had arrived`;
    super(`the chat model's content filter stopped the answer ${arrived}; that text is not used`);
  }
}

/** What a node's result says when the token cap cut its chat answer. */
export function cappedNote(request: Pick<ChatRequest, 'max_tokens'>): string {
  return request.max_tokens === undefined ? "stopped at the model's own token limit (max_tokens not set)" : `stopped at max_tokens: ${request.max_tokens}`;
}

/**
 * How an answer ended, as the run sees it: a filtered one throws, a capped one is noted; a
 * reason the client does not know reads as a clean stop (chat-client.ts).
 */
function judgeFinish(reason: string | null | undefined, request: ChatRequest, received: string, hooks: NodeApiHooks): void {
  if (reason === 'content_filter') throw new ContentFilterError(received);
  if (reason === 'length') hooks.onNote?.(cappedNote(request));
  // Not a failure of the chat node (an empty answer may be what was asked), but worth a word:
  // what it feeds may stop on it (an image node's prompt input does).
  if (reason !== null && reason !== undefined && received.trim() === '') hooks.onNote?.('the answer was empty');
}

/**
 * The stream as it is, noting the last `usage` a chunk carried and telling `onChatEnd` once it
 * ends, or at once when `signal` aborts: a cancelled run is summed up without waiting for the
 * node to let go of its stream, and what had streamed by then was used all the same.
 */
async function* watchStream(stream: AsyncIterable<ChatStreamEvent>, request: ChatRequest, signal: AbortSignal, hooks: NodeApiHooks): AsyncGenerator<ChatStreamEvent> {
  const sent = sentText(request);
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
      // Thrown before the node sees the event: no node takes filtered text for an answer.
      judgeFinish(event.finishReason, request, received, hooks);
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
        // Every answer passes here, from any backend: an API that says 200 with something that
        // is not a whole image fails the node rather than handing on a broken picture.
        const billing = response as { cost?: unknown; billed_seconds?: unknown; safety_flagged?: unknown };
        hooks.onImages?.(response.images?.length ?? 0, request.sampler, billing.cost, billing.billed_seconds);
        // Some pictures were refused by the provider's safety checker and left out: the node says so.
        const flagged = billing.safety_flagged;
        if (typeof flagged === 'number' && flagged > 0) {
          hooks.onNote?.(`${review?.label ?? 'the backend'}'s safety checker flagged ${flagged} image${flagged === 1 ? '' : 's'}, left out`);
        }
        checkImageResponse(response, review === undefined || review.backend === 'service' ? `the ${engine} engine` : review.label);
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
          const received = completion.choices[0]?.message.content ?? '';
          hooks.onChatEnd?.(completion.usage, { sent: sentText(request), received });
          judgeFinish(completion.choices[0]?.finish_reason, request, received, hooks);
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
      return watchStream(api.chat.stream(request, withSignal(options, signal, hooks)), request, signal, hooks);
    },
  };
  const listModels = api.chat.listModels?.bind(api.chat);
  if (listModels) chat.listModels = (options) => listModels(withSignal(options, signal, hooks));
  return { image, chat };
}
