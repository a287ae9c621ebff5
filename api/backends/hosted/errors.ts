/**
 * What fal's and Replicate's error explanations share: a failed call's ApiError, kept whole (its
 * status, the service's body, its Retry-After) but with the detail in the provider's words and
 * whether retrying can help decided by the provider's rules.
 */
import { ApiError } from '../../errors';

/**
 * `error` with `detail` for its detail and `retryable` for whether it may be tried again (never
 * more than the shared layer allowed). The shared layer's word on a Retry-After too long to wait
 * for is kept; a shorter Retry-After is said too, so a rate limit that outlasted the retries says
 * how long the provider asked to wait.
 */
export function reworded(error: ApiError, detail: string, retryable: boolean, secrets: readonly string[]): ApiError {
  const gaveUp = /; the service asked to wait .*$/.exec(error.detail)?.[0];
  const wait = gaveUp ?? (error.retryAfterMs === undefined ? '' : `; it asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s (Retry-After)`);
  return new ApiError({
    kind: 'http', detail: `${wait === '' ? detail : detail.replace(/\.$/, '')}${wait}`, endpoint: error.endpoint, attempts: error.attempts, retryable: retryable && error.retryable,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.serviceMessage === undefined ? {} : { serviceMessage: error.serviceMessage }),
    ...(error.serviceBody === undefined ? {} : { serviceBody: error.serviceBody }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  }, secrets);
}
