/**
 * When and how long to wait before trying a request again: exponential backoff with full jitter,
 * `Retry-After` honoured up to a limit, and waits that an AbortSignal ends at once.
 */
import { ApiError } from './errors';

export interface RetryPolicy {
  /** Requests made at most, the first one included (1 disables retries). */
  maxAttempts: number;
  /** Backoff ceiling for the first retry; doubled for each further retry. */
  baseDelayMs: number;
  /** Backoff ceiling never exceeds this. */
  maxDelayMs: number;
  /** A `Retry-After` longer than this makes the client give up instead of waiting. */
  maxRetryAfterMs: number;
  /** Source of randomness in [0, 1) for the jitter; injectable for tests. */
  random: () => number;
  /** Waits `ms`, rejecting when `signal` aborts; injectable for tests. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Information passed to `CallOptions.onRetry` before each wait. */
export interface RetryNotice {
  /** The attempt that is about to be made (2 for the first retry). */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  /** Why the previous attempt failed. */
  error: ApiError;
}

/** Thrown by `sleep` when its signal aborts; callers turn it into an ApiError with context. */
export class SleepAborted extends Error {
  override readonly name = 'SleepAborted';
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new SleepAborted('aborted'));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SleepAborted('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
  sleep: abortableSleep,
};

export function resolveRetryPolicy(overrides: Partial<RetryPolicy> | undefined): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...overrides };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new RangeError(`retry.maxAttempts must be a whole number of at least 1, got ${policy.maxAttempts}`);
  }
  for (const key of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!(policy[key] >= 0)) throw new RangeError(`retry.${key} must be a number of at least 0, got ${policy[key]}`);
  }
  return policy;
}

/** Statuses worth trying again: timeout, conflict, rate limit, and every server error. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Parses a `Retry-After` header: delay-seconds or an HTTP date. Returns milliseconds (a date in
 * the past gives 0), or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Full jitter: a uniform wait between 0 and min(maxDelay, base * 2^(retry - 1)). */
export function backoffDelay(retry: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(policy.random() * ceiling);
}

/**
 * Decides what follows a failed attempt: rethrows `error` when it must not be retried (not
 * retryable, attempts used up, or a `Retry-After` beyond the limit), otherwise waits the backoff
 * or the service's `Retry-After` and returns. An abort during the wait throws an 'aborted' error.
 */
export async function waitBeforeRetry(
  error: ApiError, attempt: number, policy: RetryPolicy, signal: AbortSignal | undefined,
  secrets: readonly string[], onRetry?: (notice: RetryNotice) => void,
): Promise<void> {
  if (!error.retryable || attempt >= policy.maxAttempts) throw error;
  if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) throw error;
  const delayMs = error.retryAfterMs ?? backoffDelay(attempt, policy);
  onRetry?.({ attempt: attempt + 1, maxAttempts: policy.maxAttempts, delayMs, error });
  try {
    await policy.sleep(delayMs, signal);
  } catch (cause) {
    if (signal?.aborted || cause instanceof SleepAborted) {
      throw new ApiError({
        kind: 'aborted', detail: `cancelled while waiting ${delayMs} ms to retry (the last attempt failed with ${error.detail})`,
        endpoint: error.endpoint, attempts: attempt, retryable: false, status: error.status,
        serviceMessage: error.serviceMessage,
      }, secrets);
    }
    throw cause;
  }
  if (signal?.aborted) {
    throw new ApiError({ kind: 'aborted', detail: 'cancelled', endpoint: error.endpoint, attempts: attempt, retryable: false }, secrets);
  }
}

/** Runs `attempt(n)` until it succeeds or `waitBeforeRetry` gives up. */
export async function withRetries<T>(
  run: (attempt: number) => Promise<T>, policy: RetryPolicy, signal: AbortSignal | undefined,
  secrets: readonly string[], onRetry?: (notice: RetryNotice) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await waitBeforeRetry(error, attempt, policy, signal, secrets, onRetry);
    }
  }
}
