/**
 * ComfyUI's HTTP routes (server.py, Comfy-Org/ComfyUI) over the shared HTTP layer: timeouts,
 * retries, bounded bodies and ApiErrors with the credential redacted.
 */
import { z } from 'zod';
import { ApiError } from '../../errors';
import { formatBytes, readBody } from '../../exchange';
import { createHttp, type Http, type RequestOptions } from '../../http';
import { withRetries } from '../../retry';
import type { BackendOptions } from '../options';
import type { InputFile } from './images';

/** Several large images fit; a body beyond this is refused rather than buffered. */
const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
/** Longest wait for ComfyUI to answer a cancel. */
const CANCEL_DEADLINE_MS = 10_000;

const OutputImageSchema = z.looseObject({ filename: z.string(), subfolder: z.string().default(''), type: z.string().default('output') });
export type OutputImage = z.infer<typeof OutputImageSchema>;

/** One message of a finished run, as kept in its history: `[event, data]`. */
const StatusMessageSchema = z.tuple([z.string(), z.unknown()]);

export const HistoryEntrySchema = z.looseObject({
  outputs: z.record(z.string(), z.looseObject({ images: z.array(OutputImageSchema).optional() })).default({}),
  status: z.looseObject({
    status_str: z.string(),
    completed: z.boolean(),
    messages: z.array(StatusMessageSchema).default([]),
  }).nullish(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

const HistorySchema = z.record(z.string(), HistoryEntrySchema);
/** Queue items are `[number, prompt_id, prompt, extra_data, outputs]`. */
const QueueSchema = z.looseObject({ queue_running: z.array(z.array(z.unknown())), queue_pending: z.array(z.array(z.unknown())) });
const QueuedSchema = z.looseObject({ prompt_id: z.string() });
const UploadedSchema = z.looseObject({ name: z.string(), subfolder: z.string().default('') });

/** A ComfyUI validation error body (execution.py `validate_prompt`), status 400. */
export const RefusalSchema = z.looseObject({
  error: z.union([z.string(), z.looseObject({ type: z.string(), message: z.string(), details: z.string().optional() })]),
  node_errors: z.union([
    z.record(z.string(), z.looseObject({
      class_type: z.string().optional(),
      errors: z.array(z.looseObject({
        type: z.string(), message: z.string(), details: z.string().optional(),
        extra_info: z.looseObject({ input_name: z.string().optional(), received_value: z.unknown().optional(), input_config: z.unknown().optional() }).nullish(),
      })),
    })),
    z.array(z.unknown()),
  ]).optional(),
});
export type Refusal = z.infer<typeof RefusalSchema>;

export type QueueResult = { ok: true; promptId: string } | { ok: false; refusal: Refusal; endpoint: string };

export type QueueState = 'running' | 'pending' | 'absent';

export function createTransport(options: BackendOptions) {
  const http: Http = createHttp(options, MAX_RESPONSE_BYTES);
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const headersMs = Math.min(CANCEL_DEADLINE_MS, options.timeouts?.headersMs ?? CANCEL_DEADLINE_MS);
  const quick = createHttp({ ...options, timeouts: { headersMs, idleMs: headersMs }, retry: { maxAttempts: 1 } }, MAX_RESPONSE_BYTES);
  const { policy, secrets } = http;
  const retry = <T>(run: (attempt: number) => Promise<T>, o: RequestOptions) => withRetries(run, policy, o.signal, secrets, o.onRetry);

  const getJson = <S extends z.ZodType>(path: string, schema: S, o: RequestOptions = {}) =>
    http.requestJson({ method: 'GET', path, accept: 'application/json' }, schema, o);

  /** GET /history/{prompt_id}: the run's entry once it has left the queue. */
  async function history(promptId: string, o: RequestOptions = {}): Promise<HistoryEntry | undefined> {
    const all = await getJson(`/history/${encodeURIComponent(promptId)}`, HistorySchema, o);
    return all[promptId];
  }

  /** GET /queue: whether the prompt is running, waiting, or in neither list. */
  async function queueState(promptId: string, o: RequestOptions = {}): Promise<{ state: QueueState; ahead: number }> {
    const queue = await getJson('/queue', QueueSchema, o);
    if (queue.queue_running.some((item) => item[1] === promptId)) return { state: 'running', ahead: 0 };
    // Pending items run lowest number first (a heap in execution.py's PromptQueue).
    const pending = [...queue.queue_pending].sort((a, b) => Number(a[0]) - Number(b[0]));
    const index = pending.findIndex((item) => item[1] === promptId);
    return index < 0 ? { state: 'absent', ahead: 0 } : { state: 'pending', ahead: index + queue.queue_running.length };
  }

  return {
    http,
    getJson,
    history,
    queueState,

    /** GET /view: an output image's bytes, bounded. */
    getBytes(path: string, o: RequestOptions = {}): Promise<Uint8Array> {
      return retry(async (attempt) => {
        const exchange = await http.open({ method: 'GET', path, accept: 'image/*' }, attempt, o.signal);
        const parts: Uint8Array[] = [];
        let total = 0;
        for await (const chunk of exchange.chunks()) {
          total += chunk.byteLength;
          if (total > maxBytes) {
            throw new ApiError({ kind: 'invalid-response', endpoint: exchange.endpoint, attempts: attempt, retryable: false, status: exchange.response.status, detail: `the image is larger than the ${formatBytes(maxBytes)} this client accepts; refused` }, secrets);
          }
          parts.push(chunk);
        }
        const bytes = new Uint8Array(total);
        let offset = 0;
        for (const part of parts) { bytes.set(part, offset); offset += part.byteLength; }
        return bytes;
      }, o);
    },

    /** POST /upload/image (multipart `image`, `type=input`); resolves with the name LoadImage takes. */
    upload(file: InputFile, o: RequestOptions = {}): Promise<string> {
      return retry(async (attempt) => {
        const form = new FormData();
        form.append('image', new Blob([file.bytes], { type: file.mime }), file.name);
        form.append('type', 'input');
        // The name is the content's hash, so overwriting can only write the same bytes again.
        form.append('overwrite', 'true');
        const exchange = await http.open({ method: 'POST', path: '/upload/image', body: form, accept: 'application/json' }, attempt, o.signal);
        const uploaded = http.parseJson(exchange, await readBody(exchange, maxBytes, 'refuse', secrets), UploadedSchema);
        return uploaded.subfolder === '' ? uploaded.name : `${uploaded.subfolder}/${uploaded.name}`;
      }, o);
    },

    /**
     * POST /prompt. A 400 is ComfyUI refusing the graph, handed back to be told in words. A lost
     * answer may hide a queued prompt, so a retry first looks for the prompt's id (a current
     * ComfyUI keeps the id it is sent) and a timeout is not retried.
     */
    queue(body: { prompt: unknown; client_id: string; prompt_id: string }, o: RequestOptions = {}): Promise<QueueResult> {
      return retry(async (attempt) => {
        if (attempt > 1 && ((await queueState(body.prompt_id, o)).state !== 'absent' || await history(body.prompt_id, o) !== undefined)) {
          return { ok: true, promptId: body.prompt_id } as const;
        }
        let exchange;
        try {
          exchange = await http.open({ method: 'POST', path: '/prompt', body, accept: 'application/json', acceptStatus: [400] }, attempt, o.signal);
        } catch (error) {
          throw error instanceof ApiError && error.kind === 'timeout' ? error.with({ retryable: false }) : error;
        }
        const text = await readBody(exchange, maxBytes, 'refuse', secrets);
        if (exchange.response.status === 400) {
          return { ok: false, refusal: http.parseJson(exchange, text, RefusalSchema), endpoint: exchange.endpoint } as const;
        }
        return { ok: true, promptId: http.parseJson(exchange, text, QueuedSchema).prompt_id } as const;
      }, o);
    },

    /**
     * One POST whose answer is only its status (/interrupt, /queue), for cancelling: no retries,
     * no caller's signal (it has fired) and a short deadline, so a cancel never hangs.
     */
    async post(path: string, body: unknown): Promise<void> {
      const exchange = await quick.open({ method: 'POST', path, body, accept: '*/*' }, 1);
      await readBody(exchange, 64 * 1024, 'truncate');
    },
  };
}

export type Transport = ReturnType<typeof createTransport>;
