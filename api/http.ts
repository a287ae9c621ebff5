/**
 * What both clients share: settings checked once (base URL, token, timeouts, retry policy, size
 * limit), request attempts, bounded body reads, and JSON requests with retries.
 */
import type { z } from 'zod';
import { ApiError, redact } from './errors';
import { openExchange, readBody, type Exchange, type FetchLike, type RequestSpec, type Timeouts } from './exchange';
import { resolveRetryPolicy, withRetries, type RetryNotice, type RetryPolicy } from './retry';

export const DEFAULT_TIMEOUTS: Timeouts = { headersMs: 180_000, idleMs: 60_000 };

/** Settings both client factories take. */
export interface ClientConfig {
  /** Base URL of the API, e.g. `http://127.0.0.1:8787/local/image`; a trailing slash is ignored. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` when given (see `auth`); never appears in errors. */
  token?: string;
  /**
   * How `token` is sent: `bearer` (the default), `basic` for a `user:password` token sent as
   * HTTP basic authentication (AUTOMATIC1111's `--api-auth`), `key` for `Authorization: Key
   * <token>` (fal), or `{ header }` for an API key sent as the whole value of its own header
   * (Google's `x-goog-api-key`).
   */
  auth?: 'bearer' | 'basic' | 'key' | { header: string };
  /** Replaces the global fetch (tests, proxies). */
  fetch?: FetchLike;
  /** Deadlines in milliseconds; defaults 180 s for the response to start, 60 s of body silence. */
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Largest response body accepted, in bytes. */
  maxResponseBytes?: number;
  /**
   * The origin of the page (or its worker) that makes the requests, when a browser makes them. A
   * browser hides why a request to another origin failed; mostly it is a CORS refusal, which no
   * retry can change, so such a failure is said as one and not retried.
   */
  pageOrigin?: string;
}

export interface RequestOptions {
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
  /** Rewrites each failed attempt's error before the retry decision: a backend's own words and rules. */
  mapError?: (error: ApiError) => ApiError | Promise<ApiError>;
  /** The headers of the answer that was read (a provider's billing header, say). */
  onHeaders?: (headers: Headers) => void;
}

export interface Http {
  readonly secrets: readonly string[];
  readonly policy: RetryPolicy;
  /** `METHOD URL` of a path below the base URL (its query left out), safe to show. */
  endpoint(method: string, path: string): string;
  /** One attempt: resolves once a 2xx response has started; any other outcome is an ApiError. */
  open(spec: RequestSpec, attempt: number, signal?: AbortSignal): Promise<Exchange>;
  /** Parses a 2xx body as JSON and validates it, naming what does not match. */
  parseJson<S extends z.ZodType>(exchange: Exchange, text: string, schema: S): z.infer<S>;
  /** A JSON request with retries: the whole body read (bounded) and validated by `schema`. */
  requestJson<S extends z.ZodType>(spec: RequestSpec, schema: S, options?: RequestOptions): Promise<z.infer<S>>;
}

function normaliseBaseUrl(raw: string, secrets: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL such as http://127.0.0.1:8787/local/image; got '${redact(raw, secrets)}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl must use http or https, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('baseUrl must not carry a user name or password; pass the access token as `token`');
  }
  url.hash = '';
  return url;
}

function normaliseToken(token: string | undefined): string | undefined {
  const trimmed = token?.trim();
  if (trimmed === undefined || trimmed === '') return undefined;
  // fetch would refuse such a header with an error that quotes the value, token included.
  if (!/^[\x21-\x7e]+$/.test(trimmed)) {
    throw new TypeError('token contains spaces, line breaks or non-ASCII characters, which cannot be sent in a header; check that it was copied whole');
  }
  return trimmed;
}

/** The `Authorization` header for the token, and every form of it that must never be shown. */
function authorizationFor(token: string | undefined, auth: 'bearer' | 'basic' | 'key' | { header: string }): { header?: string; secrets: string[] } {
  if (typeof auth === 'object') {
    const key = normaliseToken(token);
    return key === undefined ? { secrets: [] } : { header: key, secrets: [key] };
  }
  if (auth !== 'basic') {
    const bearer = normaliseToken(token);
    const scheme = auth === 'key' ? 'Key' : 'Bearer';
    return bearer === undefined ? { secrets: [] } : { header: `${scheme} ${bearer}`, secrets: [bearer] };
  }
  const pair = token?.trim();
  if (pair === undefined || pair === '') return { secrets: [] };
  // Base64 carries spaces safely; only what the server could not decode as ASCII is refused.
  if (!/^[\x20-\x7e]+$/.test(pair) || !pair.includes(':')) {
    throw new TypeError('token for HTTP basic authentication must be user:password in printable ASCII (a colon between the two); check that it was copied whole');
  }
  const encoded = btoa(pair);
  const password = pair.slice(pair.indexOf(':') + 1);
  // `redact` replaces the password alone only where it is distinctive: a short one would garble every message.
  const secrets = [pair, encoded, password];
  return { header: `Basic ${encoded}`, secrets };
}

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

/** Checks the settings (throwing a TypeError or RangeError that names the bad one) and builds the shared layer. */
export function createHttp(config: ClientConfig, defaultMaxBytes: number): Http {
  const auth = config.auth ?? 'bearer';
  const { header: authorization, secrets } = authorizationFor(config.token, auth);
  const authorizationHeader = typeof auth === 'object' ? { authorizationHeader: auth.header } : {};
  const base = normaliseBaseUrl(config.baseUrl, secrets);
  // An http(s) URL's pathname is never empty ('/' at least), so the slashes are trimmed here.
  const basePath = base.pathname.replace(/\/+$/, '');
  const fetchImpl: FetchLike = config.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...config.timeouts };
  positive('timeouts.headersMs', timeouts.headersMs);
  positive('timeouts.idleMs', timeouts.idleMs);
  const policy = resolveRetryPolicy(config.retry);
  const maxResponseBytes = positive('maxResponseBytes', config.maxResponseBytes ?? defaultMaxBytes);

  const urlFor = (path: string): string => {
    const url = new URL(base.href);
    // A query in `path` joins the base URL's own (which the pathname could not carry).
    const query = path.indexOf('?');
    url.pathname = `${basePath}${query === -1 ? path : path.slice(0, query)}`;
    if (query !== -1) new URLSearchParams(path.slice(query + 1)).forEach((value, key) => url.searchParams.append(key, value));
    return url.href;
  };

  const pageOrigin = config.pageOrigin === undefined ? {} : { pageOrigin: config.pageOrigin };
  const open = (spec: RequestSpec, attempt: number, signal?: AbortSignal) => openExchange({
    url: urlFor(spec.path), authorization, ...authorizationHeader, secrets, fetch: fetchImpl, timeouts, maxRetryAfterMs: policy.maxRetryAfterMs, ...pageOrigin,
  }, spec, attempt, signal);

  function parseJson<S extends z.ZodType>(exchange: Exchange, text: string, schema: S): z.infer<S> {
    const invalid = (detail: string) => new ApiError({
      kind: 'invalid-response', endpoint: exchange.endpoint, attempts: exchange.attempt, retryable: false,
      status: exchange.response.status, detail,
    }, secrets);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const start = text.slice(0, 80).replace(/\s+/g, ' ').trim();
      const type = exchange.response.headers.get('content-type') ?? 'no content type';
      throw invalid(`HTTP ${exchange.response.status} body is not JSON (${type}, ${text.length} characters${start === '' ? '' : `, starting "${start}"`})`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.map(String).join('.') || '(body)'}: ${i.message}`);
      const more = parsed.error.issues.length > 5 ? `; and ${parsed.error.issues.length - 5} more` : '';
      throw invalid(`HTTP ${exchange.response.status} body does not have the expected shape: ${issues.join('; ')}${more}`);
    }
    return parsed.data;
  }

  async function requestJson<S extends z.ZodType>(spec: RequestSpec, schema: S, options: RequestOptions = {}): Promise<z.infer<S>> {
    const { mapError } = options;
    return withRetries(async (attempt) => {
      try {
        const exchange = await open(spec, attempt, options.signal);
        const text = await readBody(exchange, maxResponseBytes, 'refuse', secrets);
        const parsed = parseJson(exchange, text, schema);
        options.onHeaders?.(exchange.response.headers);
        return parsed;
      } catch (error) {
        throw mapError !== undefined && error instanceof ApiError ? await mapError(error) : error;
      }
    }, policy, options.signal, secrets, options.onRetry);
  }

  return {
    secrets,
    policy,
    endpoint: (method, path) => `${method.toUpperCase()} ${base.protocol}//${base.host}${basePath}${path.split('?')[0]}`,
    open,
    parseJson,
    requestJson,
  };
}

export type { Exchange, FetchLike, RequestSpec, Timeouts };
