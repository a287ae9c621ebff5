/**
 * One request attempt: a deadline for the response to start, an idle deadline while its body is
 * read, the caller's AbortSignal, and every failure turned into an ApiError (an error status
 * included, with the service's own message). Uses only fetch, AbortController, TextDecoder and
 * timers, so it runs in Node, a web worker and the page alike.
 */
import { ApiError, describeCause, describeEndpoint, extractServiceMessage } from './errors';
import { isCrossOriginFailure, probeUnanswered, unansweredDetail } from './cors';
import { isRetryableStatus, parseRetryAfter } from './retry';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface Timeouts {
  /** Longest wait for the response to start (status and headers). */
  headersMs: number;
  /** Longest silence (no body bytes) once the response has started. */
  idleMs: number;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT';
  /** Path below the base URL, starting with '/', with a query after '?' when one is needed. */
  path: string;
  /** Sent as JSON, except a FormData (multipart/form-data, fetch sets its boundary) and a Blob (its bytes). */
  body?: unknown;
  accept: string;
  /**
   * Error statuses whose response is handed back like a 2xx one instead of thrown, for an API
   * whose error body the caller reads itself (ComfyUI's 400 with per-node validation errors).
   */
  acceptStatus?: readonly number[];
  /** Headers beyond Accept, Content-Type and Authorization (Replicate's `Prefer: wait`). */
  headers?: Readonly<Record<string, string>>;
}

/** One started 2xx response (or one of `acceptStatus`) whose body has not been read yet. */
export interface Exchange {
  readonly response: Response;
  readonly endpoint: string;
  readonly attempt: number;
  /** Body chunks; each must arrive within the idle timeout. Closes the connection when left early. */
  chunks(): AsyncGenerator<Uint8Array, void, undefined>;
  /** Stops reading and closes the connection (no-op once the body has been read). */
  close(): void;
}

/** What an attempt needs from the client that makes it. */
export interface AttemptContext {
  url: string;
  /** The whole `Authorization` header value (`Bearer …`, `Basic …`), when one is sent. */
  authorization: string | undefined;
  /** The header `authorization` goes in, when not `Authorization` (an API key's own header). */
  authorizationHeader?: string;
  secrets: readonly string[];
  fetch: FetchLike;
  timeouts: Timeouts;
  /** A `Retry-After` beyond this is reported as the reason to give up. */
  maxRetryAfterMs: number;
  /** The requesting page's origin, when a browser sends the request (ClientConfig.pageOrigin). */
  pageOrigin?: string;
}

/** Largest error body read to extract the service's message. */
const ERROR_BODY_BYTES = 64 * 1024;

/** Rejects as soon as `signal` aborts, whether or not `promise` listens to it. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // Nobody else waits for it: its rejection (a read of a body the abort cut) must not go unhandled.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => { signal.removeEventListener('abort', onAbort); resolve(value); },
      (error: unknown) => { signal.removeEventListener('abort', onAbort); reject(error as Error); },
    );
  });
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * Sends one request. Resolves once a 2xx response has started; a non-2xx status, a network
 * failure, a timeout or an abort rejects with an ApiError that counts `attempt`.
 */
export async function openExchange(ctx: AttemptContext, spec: RequestSpec, attempt: number, signal?: AbortSignal): Promise<Exchange> {
  const endpoint = describeEndpoint(spec.method, ctx.url);
  const { secrets, timeouts } = ctx;
  const controller = new AbortController();
  let fired: 'headers' | 'idle' | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const onAbort = () => controller.abort();
  const arm = (which: 'headers' | 'idle', ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => { fired = which; controller.abort(); }, ms);
  };
  const release = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  };
  const close = () => {
    release();
    if (!finished) {
      finished = true;
      controller.abort();
    }
  };
  const fail = (error: unknown): ApiError => {
    if (error instanceof ApiError) return error;
    const at = { endpoint, attempts: attempt };
    if (signal?.aborted) return new ApiError({ ...at, kind: 'aborted', detail: 'cancelled', retryable: false }, secrets);
    if (fired === 'headers') {
      return new ApiError({ ...at, kind: 'timeout', detail: `no response within ${timeouts.headersMs} ms`, retryable: true }, secrets);
    }
    if (fired === 'idle') {
      return new ApiError({ ...at, kind: 'timeout', detail: `the response went silent for ${timeouts.idleMs} ms`, retryable: true }, secrets);
    }
    return new ApiError({ ...at, kind: 'network', detail: `network error: ${describeCause(error, secrets)}`, retryable: true, cause: error }, secrets);
  };

  /** A browser's failed request to another origin, probed for why (api/cors.ts); any other failure as `fail` has it. */
  const failUnanswered = async (error: unknown): Promise<ApiError> => {
    const { pageOrigin } = ctx;
    if (pageOrigin === undefined || fired !== undefined || signal?.aborted === true || !isCrossOriginFailure(ctx.url, pageOrigin, error)) return fail(error);
    const unanswered = await probeUnanswered(ctx.fetch, ctx.url, signal);
    // The caller may have cancelled while the probe was out (TypeScript cannot see that it can change).
    if ((signal as AbortSignal | undefined)?.aborted === true) return fail(signal?.reason);
    // No retry changes a CORS refusal; a server that is not there is said at once too.
    return new ApiError({
      endpoint, attempts: attempt, kind: 'network', detail: unansweredDetail(unanswered, ctx.url, pageOrigin), retryable: false, unanswered, cause: error,
    }, secrets);
  };

  if (signal?.aborted) throw fail(signal.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const headers: Record<string, string> = { ...spec.headers, Accept: spec.accept };
  const multipart = typeof FormData !== 'undefined' && spec.body instanceof FormData;
  // A Blob goes as its bytes, typed as itself (fal's storage upload).
  const raw = typeof Blob !== 'undefined' && spec.body instanceof Blob ? spec.body : undefined;
  if (spec.body !== undefined && !multipart) headers['Content-Type'] = raw === undefined ? 'application/json' : raw.type || 'application/octet-stream';
  if (ctx.authorization !== undefined) headers[ctx.authorizationHeader ?? 'Authorization'] = ctx.authorization;

  let response: Response;
  arm('headers', timeouts.headersMs);
  try {
    response = await raceAbort(ctx.fetch(ctx.url, {
      method: spec.method,
      headers,
      body: spec.body === undefined ? undefined : multipart ? spec.body as FormData : raw ?? JSON.stringify(spec.body),
      signal: controller.signal,
    }), controller.signal);
  } catch (error) {
    close();
    throw await failUnanswered(error);
  }
  clearTimeout(timer);

  async function* chunks(): AsyncGenerator<Uint8Array, void, undefined> {
    const body = response.body;
    if (body === null) {
      finished = true;
      release();
      return;
    }
    const reader = body.getReader();
    try {
      for (;;) {
        arm('idle', timeouts.idleMs);
        const { done, value } = await raceAbort(reader.read(), controller.signal);
        clearTimeout(timer);
        if (done) {
          finished = true;
          return;
        }
        yield value;
      }
    } catch (error) {
      throw fail(error);
    } finally {
      close();
    }
  }

  const exchange: Exchange = { response, endpoint, attempt, chunks, close };
  if (response.ok || spec.acceptStatus?.includes(response.status) === true) return exchange;
  throw await httpError(ctx, exchange);
}

async function httpError(ctx: AttemptContext, exchange: Exchange): Promise<ApiError> {
  const { response } = exchange;
  let body = '';
  try {
    body = await readBody(exchange, ERROR_BODY_BYTES, 'truncate');
  } catch {
    // The status says enough when the error body cannot be read.
  }
  const serviceMessage = extractServiceMessage(body);
  const retryable = isRetryableStatus(response.status);
  const retryAfterMs = retryable ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
  let detail = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (serviceMessage !== '') detail += `: ${serviceMessage}`;
  if (retryAfterMs !== undefined && retryAfterMs > ctx.maxRetryAfterMs) {
    detail += `; the service asked to wait ${Math.ceil(retryAfterMs / 1000)} s before retrying, longer than the ` +
      `${Math.round(ctx.maxRetryAfterMs / 1000)} s this client waits, so it gave up`;
  }
  return new ApiError({
    kind: 'http', detail, endpoint: exchange.endpoint, attempts: exchange.attempt, retryable,
    status: response.status, serviceMessage: serviceMessage === '' ? undefined : serviceMessage, retryAfterMs,
    serviceBody: body === '' ? undefined : body,
  }, ctx.secrets);
}

/**
 * Reads the whole body as text. Beyond `maxBytes` it is refused with an 'invalid-response' error
 * (`'refuse'`), or cut short quietly (`'truncate'`, for error bodies).
 */
export async function readBody(exchange: Exchange, maxBytes: number, overflow: 'refuse' | 'truncate', secrets: readonly string[] = []): Promise<string> {
  const tooLarge = () => new ApiError({
    kind: 'invalid-response', endpoint: exchange.endpoint, attempts: exchange.attempt, retryable: false,
    status: exchange.response.status, detail: `the response body is larger than the ${formatBytes(maxBytes)} this client accepts; refused`,
  }, secrets);
  const declared = Number(exchange.response.headers.get('content-length') ?? Number.NaN);
  if (overflow === 'refuse' && declared > maxBytes) {
    exchange.close();
    throw tooLarge();
  }
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let total = 0;
  for await (const chunk of exchange.chunks()) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      if (overflow === 'refuse') throw tooLarge();
      parts.push(decoder.decode(chunk.subarray(0, chunk.byteLength - (total - maxBytes)), { stream: true }));
      break;
    }
    parts.push(decoder.decode(chunk, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join('');
}
