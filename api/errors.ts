/**
 * The one error type the API clients throw. Every field is safe to log, show or serialise: the
 * access token is redacted (api/redact.ts) from all text a server could have echoed it into
 * before it is stored, and the endpoint carries neither a query string nor userinfo.
 */
import type { Unanswered } from './cors';
import { redact } from './redact';

export { redact };

/**
 * - `http`: the service answered with a non-2xx status (or reported an error inside a stream).
 * - `network`: the connection failed or broke before a complete answer arrived.
 * - `timeout`: the response did not start in time, or a body went silent for too long.
 * - `aborted`: the caller's AbortSignal fired.
 * - `protocol`: a stream broke its protocol (ended without `[DONE]`, cut mid-event, bad chunk).
 * - `invalid-response`: a 2xx body that is not JSON, does not match the schema, or is too large.
 */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'aborted' | 'protocol' | 'invalid-response';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  /** What went wrong, without the endpoint (it is prefixed). */
  detail: string;
  endpoint: string;
  attempts: number;
  retryable: boolean;
  status?: number;
  serviceMessage?: string;
  /** The error response's body as received (at most 64 KB), for callers that read a structured error. */
  serviceBody?: string;
  partialText?: string;
  /** How long the service asked us to wait (from `Retry-After`), in milliseconds. */
  retryAfterMs?: number;
  /** For a browser's failed request to another origin: refused by CORS, or nothing answered (api/cors.ts). */
  unanswered?: Unanswered;
  cause?: unknown;
}

/** `METHOD scheme://host/path`, with userinfo, query and fragment removed. */
export function describeEndpoint(method: string, url: string | URL): string {
  const u = new URL(url);
  return `${method.toUpperCase()} ${u.protocol}//${u.host}${u.pathname}`;
}

const MAX_SERVICE_MESSAGE = 4000;

/**
 * The service's own words from an error body: `{error:{message}}`, `{error:"..."}`, `{message}`
 * or `{detail}` when the body is such JSON, the trimmed text otherwise. Bounded in length.
 */
export function extractServiceMessage(body: string): string {
  const text = body.trim();
  let message = text;
  if (text.startsWith('{')) {
    try {
      message = pickMessage(JSON.parse(text) as unknown) ?? text;
    } catch {
      // Not JSON after all: the text is the message.
    }
  }
  return message.length > MAX_SERVICE_MESSAGE ? `${message.slice(0, MAX_SERVICE_MESSAGE)}…` : message;
}

/**
 * FastAPI's answers: a validation failure's `{detail: [{loc, msg}]}` as `body.steps: value is not
 * a valid integer`, and AUTOMATIC1111's `{error, detail, body, errors}` (the exception's class
 * name, its detail or its text) as the detail, or as `OutOfMemoryError: CUDA out of memory…`.
 */
function fastApiMessage(record: Record<string, unknown>): string | undefined {
  const { detail, error, errors } = record;
  if (Array.isArray(detail) && detail.length > 0) {
    const items = detail.map((item: unknown) => {
      const { loc, msg } = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
      const where = Array.isArray(loc) ? loc.map(String).join('.') : '';
      const what = typeof msg === 'string' ? msg : JSON.stringify(item);
      return where === '' ? what : `${where}: ${what}`;
    });
    return items.join('; ');
  }
  if (typeof error !== 'string' || !('errors' in record)) return undefined;
  if (typeof detail === 'string' && detail !== '') return detail;
  return typeof errors === 'string' && errors !== '' ? `${error}: ${errors}` : error;
}

function pickMessage(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const fastApi = fastApiMessage(record);
  if (fastApi !== undefined) return fastApi;
  const error = record.error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  for (const key of ['message', 'detail']) {
    if (typeof record[key] === 'string') return record[key];
  }
  return undefined;
}

/** Turns a thrown value into a short, redacted description of its cause chain. */
export function describeCause(error: unknown, secrets: readonly string[]): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      parts.push(typeof code === 'string' && !current.message.includes(code) ? `${current.message} (${code})` : current.message);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return redact(parts.filter((p) => p !== '').join(': '), secrets);
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** HTTP status when the service answered; undefined for network, timeout and abort errors. */
  readonly status: number | undefined;
  /** The service's own error message (body text, or `error.message` of a JSON body). */
  readonly serviceMessage: string | undefined;
  /** The error response's body (bounded, redacted): what a backend reads its service's error codes from. */
  readonly serviceBody: string | undefined;
  /** `METHOD URL` of the request, without query string or userinfo. */
  readonly endpoint: string;
  /** How many requests were made, retries included. */
  readonly attempts: number;
  /** Whether the failure is transient: the same request may succeed later. */
  readonly retryable: boolean;
  /** For streams: the text that had arrived before the failure (error metadata: the node's output is the streamed text itself). */
  readonly partialText: string | undefined;
  readonly retryAfterMs: number | undefined;
  /** A browser's request to another origin: `cors` when the server is up but refuses this page, `unreachable` when nothing answered. */
  readonly unanswered: Unanswered | undefined;
  readonly #detail: string;
  /** Kept as a closure so amended copies stay redacted without the secret being a field. */
  readonly #redact: (text: string) => string;

  /** Secrets (or a redactor that removes them) are applied to every text a server wrote before it is stored. */
  constructor(init: ApiErrorInit, secrets: readonly string[] | ((text: string) => string) = []) {
    const clean = typeof secrets === 'function' ? secrets : (text: string) => redact(text, secrets);
    const detail = clean(init.detail);
    const endpoint = clean(init.endpoint);
    const tried = init.attempts > 1 ? ` (after ${init.attempts} attempts)` : '';
    super(`${endpoint}: ${detail}${tried}`);
    this.#detail = detail;
    this.#redact = clean;
    if (init.cause !== undefined) {
      // Keep a redacted description only: a raw cause (e.g. a header validation error) may quote the token.
      Object.defineProperty(this, 'cause', { value: clean(describeCause(init.cause, [])), enumerable: false, configurable: true });
    }
    this.kind = init.kind;
    this.status = init.status;
    this.serviceMessage = init.serviceMessage === undefined ? undefined : clean(init.serviceMessage);
    this.serviceBody = init.serviceBody === undefined ? undefined : clean(init.serviceBody);
    this.endpoint = endpoint;
    this.attempts = init.attempts;
    this.retryable = init.retryable;
    this.partialText = init.partialText === undefined ? undefined : clean(init.partialText);
    this.retryAfterMs = init.retryAfterMs;
    this.unanswered = init.unanswered;
  }

  /** What went wrong, without the endpoint prefix and attempt count of `message`. */
  get detail(): string {
    return this.#detail;
  }

  /** The same error with more context (the attempt count, the partial text of a stream, which server), redacted alike. */
  with(changes: Partial<Pick<ApiErrorInit, 'attempts' | 'partialText' | 'retryable' | 'detail'>>): ApiError {
    return new ApiError({
      kind: this.kind, detail: this.#detail, endpoint: this.endpoint, attempts: this.attempts, retryable: this.retryable,
      status: this.status, serviceMessage: this.serviceMessage, serviceBody: this.serviceBody, partialText: this.partialText,
      retryAfterMs: this.retryAfterMs, cause: this.cause, ...(this.unanswered === undefined ? {} : { unanswered: this.unanswered }), ...changes,
    }, this.#redact);
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name, kind: this.kind, message: this.message, status: this.status,
      serviceMessage: this.serviceMessage, endpoint: this.endpoint, attempts: this.attempts,
      retryable: this.retryable, partialText: this.partialText, retryAfterMs: this.retryAfterMs,
    };
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
