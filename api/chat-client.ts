/**
 * The chat completions client (docs/service-interface.md 2.7 to 2.9): whole completions, streamed
 * completions read with eventsource-parser, and the model list.
 */
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import { ChatChunkSchema, ChatCompletionSchema, FINISH_REASONS, ModelListSchema, STREAM_DONE, type FinishReason } from './chat';
import type { CallOptions, ChatClient, ChatStreamEvent } from './client-types';
import { ApiError, extractServiceMessage } from './errors';
import { formatBytes, readBody, type Exchange, type RequestSpec } from './exchange';
import { createHttp, type ClientConfig, type Http } from './http';
import { waitBeforeRetry } from './retry';

/** Chat bodies are text: 16 MB is far beyond any real completion. */
export const CHAT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Longest single SSE event buffered while it arrives, in characters. */
const MAX_EVENT_CHARS = 1024 * 1024;

export type ChatClientConfig = ClientConfig;

/** `ChatClient` with the model list always present. */
export interface FullChatClient extends ChatClient {
  listModels(options?: CallOptions): Promise<string[]>;
}

const COMPLETIONS = '/v1/chat/completions';

/** Builds a chat client; throws a TypeError or RangeError naming a bad setting. */
export function createChatClient(config: ChatClientConfig): FullChatClient {
  const http = createHttp(config, CHAT_MAX_RESPONSE_BYTES);
  const maxBytes = config.maxResponseBytes ?? CHAT_MAX_RESPONSE_BYTES;

  return {
    complete(request, options = {}) {
      const spec: RequestSpec = { method: 'POST', path: COMPLETIONS, body: { ...request, stream: false }, accept: 'application/json' };
      return http.requestJson(spec, ChatCompletionSchema, options);
    },

    async listModels(options = {}) {
      const list = await http.requestJson({ method: 'GET', path: '/v1/models', accept: 'application/json' }, ModelListSchema, options);
      return list.data.map((model) => model.id);
    },

    async *stream(request, options = {}) {
      const spec: RequestSpec = { method: 'POST', path: COMPLETIONS, body: { ...request, stream: true }, accept: 'text/event-stream' };
      const progress = { text: '' };
      for (let attempt = 1; ; attempt++) {
        let exchange: Exchange | undefined;
        try {
          exchange = await http.open(spec, attempt, options.signal);
          yield* readStream(http, exchange, maxBytes, progress);
          return;
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          const failure = error.with({ partialText: progress.text });
          // Text already handed out cannot be taken back: a retry would repeat or garble it.
          if (progress.text !== '') throw failure;
          await waitBeforeRetry(failure, attempt, http.policy, options.signal, http.secrets, options.onRetry);
        } finally {
          exchange?.close();
        }
      }
    },
  };
}

function finishReason(value: string | null | undefined): FinishReason | null {
  if (value === null || value === undefined) return null;
  // Other reasons (a tool call, a server's own word) still mean the model stopped, not that the
  // cap or a filter cut it.
  return (FINISH_REASONS as readonly string[]).includes(value) ? (value as FinishReason) : 'stop';
}

/**
 * Yields the events of one streamed response, adding their text to `progress.text`. Ends after
 * `[DONE]`. A stream that closes without it once a chunk gave its `finish_reason` is complete
 * (2.9.6 puts the reason on the last content chunk): its text stands and a warning event says
 * what was missing. One that ends without it before then, is cut mid-event, or carries a chunk
 * that is not a valid chunk is a 'protocol' error.
 */
async function* readStream(http: Http, exchange: Exchange, maxBytes: number, progress: { text: string }): AsyncGenerator<ChatStreamEvent> {
  const fail = (kind: 'protocol' | 'invalid-response' | 'http', detail: string, extra: { serviceMessage?: string; retryable?: boolean } = {}) =>
    new ApiError({
      kind, detail, endpoint: exchange.endpoint, attempts: exchange.attempt, retryable: extra.retryable ?? false,
      status: exchange.response.status, serviceMessage: extra.serviceMessage, partialText: progress.text,
    }, http.secrets);

  const contentType = exchange.response.headers.get('content-type') ?? '';
  if (/\bapplication\/json\b/i.test(contentType)) {
    // Some compatible servers ignore `stream: true` and answer with one whole completion.
    const completion = http.parseJson(exchange, await readBody(exchange, maxBytes, 'refuse', http.secrets), ChatCompletionSchema);
    const choice = completion.choices[0];
    const text = choice?.message.content ?? '';
    progress.text += text;
    yield { text, finishReason: finishReason(choice?.finish_reason), usage: completion.usage };
    return;
  }

  const pending: EventSourceMessage[] = [];
  let overflow: ParseError | undefined;
  const parser = createParser({
    maxBufferSize: MAX_EVENT_CHARS,
    onEvent: (event) => pending.push(event),
    // Unknown fields are ignored, as the SSE format asks; only an endless event is fatal.
    onError: (error) => { if (error.type === 'max-buffer-size-exceeded') overflow = error; },
  });
  const decoder = new TextDecoder();
  let received = 0;

  // The finish reason a chunk gave, if any (an object: it is set inside toEvent).
  const seen: { finish: FinishReason | null } = { finish: null };
  const toEvent = (data: string): ChatStreamEvent => {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw fail('protocol', `stream event is not JSON and not ${STREAM_DONE}: "${data.slice(0, 80)}"`);
    }
    if (typeof json === 'object' && json !== null && 'error' in json) {
      const serviceMessage = extractServiceMessage(data);
      throw fail('http', `the service reported an error inside the stream: ${serviceMessage}`, { serviceMessage, retryable: true });
    }
    const parsed = ChatChunkSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.') || '(chunk)'}: ${i.message}`);
      throw fail('protocol', `stream chunk does not have the expected shape: ${issues.join('; ')}`);
    }
    const choice = parsed.data.choices[0];
    const event: ChatStreamEvent = { text: choice?.delta.content ?? '', finishReason: finishReason(choice?.finish_reason) };
    if (parsed.data.usage) event.usage = parsed.data.usage;
    seen.finish = event.finishReason ?? seen.finish;
    return event;
  };

  for await (const chunk of exchange.chunks()) {
    received += chunk.byteLength;
    if (received > maxBytes) throw fail('invalid-response', `the stream is longer than the ${formatBytes(maxBytes)} this client accepts; stopped`);
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (overflow) throw fail('protocol', `a stream event is longer than ${MAX_EVENT_CHARS} characters without ending`);
    while (pending.length > 0) {
      // 2.9.1 makes each chunk one `data:` line. A server that ends a line with a single line
      // break instead of a blank line puts several of them into one SSE event, joined by "\n";
      // the JSON of a chunk never holds a raw line break, so each line is a chunk of its own.
      for (const data of pending.shift()!.data.split('\n')) {
        if (data === STREAM_DONE) return;
        if (data === '') continue;
        const event = toEvent(data);
        progress.text += event.text;
        yield event;
      }
    }
  }

  // The body ended. Two line breaks dispatch whatever was left unterminated, if anything.
  parser.feed(`${decoder.decode()}\n\n`);
  const leftover = pending.shift();
  if (leftover !== undefined) {
    // Every line but the last was ended by the server, so each is a whole chunk (a stream whose
    // lines end in a single line break arrives here as one event); the last one may be cut.
    const lines = leftover.data.split('\n');
    const last = lines.pop();
    for (const data of lines) {
      if (data === STREAM_DONE) return;
      if (data === '') continue;
      const event = toEvent(data);
      progress.text += event.text;
      yield event;
    }
    // A final `data: [DONE]` missing only its blank line is complete enough.
    if (last === STREAM_DONE) return;
    let event: ChatStreamEvent | undefined;
    try { event = last ? toEvent(last) : undefined; } catch { /* half a chunk: reported below */ }
    if (event === undefined) {
      throw fail('protocol', `the stream was cut in the middle of an event, after ${progress.text.length} characters of text`);
    }
    // A whole last chunk whose line or event was never ended: keep its text, then say what is missing.
    progress.text += event.text;
    yield event;
  }
  if (seen.finish !== null) {
    yield {
      text: '', finishReason: null,
      warning: `the chat stream ended without ${STREAM_DONE} after its last chunk (finish_reason "${seen.finish}"); its ${progress.text.length} characters of text are complete and kept`,
    };
    return;
  }
  throw fail('protocol', `the stream ended without ${STREAM_DONE}, after ${progress.text.length} characters of text`);
}
