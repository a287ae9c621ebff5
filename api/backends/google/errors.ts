/**
 * The Gemini API's errors in a person's words. Its body is Google's `{error: {code, message,
 * status, details}}` (google.rpc.Status as JSON; `details` carries typed entries: `ErrorInfo` with a
 * `reason` such as API_KEY_INVALID, `QuotaFailure` naming the quota, `RetryInfo` with
 * `retryDelay`). Nothing is retried blindly: a wrong or missing key, billing not enabled, a quota of
 * zero or one counted per day, an unknown model and a refused field fail at once; a per-minute rate
 * limit waits what `RetryInfo` asks (when no `Retry-After` says otherwise), within the retry policy.
 */
import { ApiError } from '../../errors';
import { whyUnanswered } from '../unanswered';
import { LABEL } from './label';
import type { GeminiPlan } from './plan';

interface Detail {
  '@type'?: string;
  reason?: string;
  retryDelay?: string;
  violations?: { quotaId?: string; quotaMetric?: string; quotaValue?: string; field?: string; description?: string }[];
  fieldViolations?: { field?: string; description?: string }[];
}

export interface GoogleErrorBody {
  code?: number;
  message?: string;
  status?: string;
  details?: Detail[];
}

export function parseGoogleError(body: string | undefined): GoogleErrorBody | undefined {
  if (body === undefined) return undefined;
  try {
    const parsed = JSON.parse(body) as unknown;
    // The API answers `{error}`; some front ends wrap it in a list, as the SDK's tests show.
    const first = Array.isArray(parsed) ? parsed[0] as unknown : parsed;
    const error = typeof first === 'object' && first !== null ? (first as { error?: unknown }).error : undefined;
    return typeof error === 'object' && error !== null ? error as GoogleErrorBody : undefined;
  } catch {
    return undefined;
  }
}

const ofType = (body: GoogleErrorBody | undefined, type: string): Detail[] =>
  (body?.details ?? []).filter((d) => d['@type']?.endsWith(`google.rpc.${type}`) === true);

/** `RetryInfo.retryDelay` ("37s", "0.5s") in milliseconds. */
export function retryDelayMs(body: GoogleErrorBody | undefined): number | undefined {
  const delay = ofType(body, 'RetryInfo')[0]?.retryDelay;
  const match = delay === undefined ? null : /^(\d+(?:\.\d+)?)s$/.exec(delay);
  return match === null ? undefined : Math.round(Number(match[1]) * 1000);
}

export function isModelNotFound(error: ApiError): boolean {
  return error.kind === 'http' && error.status === 404 && parseGoogleError(error.serviceBody)?.status === 'NOT_FOUND';
}

interface Explained {
  detail: string;
  retryable: boolean;
  retryAfterMs?: number;
}

function explainQuota(body: GoogleErrorBody | undefined, said: string, retryable: boolean): Explained {
  const violations = ofType(body, 'QuotaFailure').flatMap((d) => d.violations ?? []);
  const daily = violations.find((v) => /PerDay/i.test(v.quotaId ?? ''));
  const none = violations.find((v) => v.quotaValue === '0');
  if (none !== undefined) {
    return { detail: `${LABEL}: this key's plan has no quota at all for this model (${none.quotaId ?? none.quotaMetric ?? 'limit 0'}); the free tier does not include it. Enable billing for the key's project in Google AI Studio, or choose another model.${said}`, retryable: false };
  }
  if (daily !== undefined) {
    return { detail: `${LABEL}: this key has used its daily quota (${daily.quotaId ?? ''}); waiting minutes will not help. Try again tomorrow or raise the limit (billing) in Google AI Studio.${said}`, retryable: false };
  }
  const wait = retryDelayMs(body);
  return {
    detail: `${LABEL} is limiting how fast requests may come (HTTP 429 RESOURCE_EXHAUSTED${wait === undefined ? '' : `, retry in ${Math.ceil(wait / 1000)} s`}).${said}`,
    retryable, ...(wait === undefined ? {} : { retryAfterMs: wait }),
  };
}

function explainHttp(status: number, body: GoogleErrorBody | undefined, message: string, plan: GeminiPlan, models: readonly string[] | undefined, retryable: boolean): Explained {
  const said = message === '' ? '' : ` It said: ${message}`;
  const reason = ofType(body, 'ErrorInfo')[0]?.reason;
  const state = body?.status;
  if (/reported as leaked/i.test(message)) {
    return { detail: `${LABEL}: Google has blocked this API key because it was reported as leaked; make a new key in Google AI Studio (aistudio.google.com/apikey) and keep it out of files and pages.${said}`, retryable: false };
  }
  if (reason === 'API_KEY_INVALID' || /API key (not valid|expired)/i.test(message)) {
    return { detail: `${LABEL} refused the API key (HTTP ${status} ${reason ?? state ?? ''}): check this backend's credential, a key from Google AI Studio (aistudio.google.com/apikey).${said}`, retryable: false };
  }
  if (/unregistered callers|API key (is )?missing|without established identity/i.test(message)) {
    return { detail: `${LABEL} needs an API key and none was sent: set this backend's credential to a key from Google AI Studio (aistudio.google.com/apikey).${said}`, retryable: false };
  }
  if (status === 429 || state === 'RESOURCE_EXHAUSTED') return explainQuota(body, said, retryable);
  if (state === 'FAILED_PRECONDITION' || /enable billing|billing (is )?not enabled|location is not supported/i.test(message)) {
    return { detail: `${LABEL} will not serve this key as it is (${state ?? `HTTP ${status}`}): most often billing is not enabled for its project, or the free tier is not offered where you are. Enable billing in Google AI Studio.${said}`, retryable: false };
  }
  if (state === 'PERMISSION_DENIED' || status === 403) {
    return { detail: `${LABEL} does not let this key use ${plan.model} (HTTP 403 PERMISSION_DENIED): check the key's project and that the Generative Language API is enabled for it.${said}`, retryable: false };
  }
  if (status === 404) {
    const known = models === undefined || models.length === 0 ? '' : ` Its image models: ${models.slice(0, 20).join(', ')}.`;
    return { detail: `${LABEL} has no model '${plan.model}' (the backend's model setting), or not for generateContent.${known}${said}`, retryable: false };
  }
  if (status === 400) return { detail: `${LABEL} refused the request (HTTP 400 ${state ?? ''}).${said}`, retryable: false };
  if (status >= 500) return { detail: `${LABEL} failed on its side (HTTP ${status} ${state ?? ''}).${said}`, retryable };
  return { detail: `${LABEL} refused the request (HTTP ${status} ${state ?? ''}).${said}`, retryable };
}

/** The error `generate` throws for a failed call; `models` lists the API's image models for a 404. */
export function explainError(error: ApiError, plan: GeminiPlan, secrets: readonly string[], models?: readonly string[]): ApiError {
  const why = whyUnanswered(error);
  if (why !== undefined) {
    // Google answers every page's origin, so from a browser a "CORS" failure is the network, a
    // proxy or an extension in the way, not a setting of the API.
    const words = why === 'cors'
      ? 'the browser could not get an answer; the Gemini API allows every page, so a network, proxy or browser extension is in the way (or use the route through this server)'
      : why === 'refused' ? 'the connection was refused' : 'nothing answered';
    return new ApiError({
      kind: 'network', detail: `could not reach ${LABEL}: ${words}. Check the network and the backend's base URL (https://generativelanguage.googleapis.com)`,
      endpoint: error.endpoint, attempts: error.attempts, retryable: error.retryable, ...(error.unanswered === undefined ? {} : { unanswered: error.unanswered }),
    }, secrets);
  }
  if (error.kind !== 'http' || error.status === undefined) return error;
  const body = parseGoogleError(error.serviceBody);
  const message = (body?.message ?? error.serviceMessage ?? '').trim();
  const explained = explainHttp(error.status, body, message, plan, models, error.retryable);
  const retryAfterMs = error.retryAfterMs ?? explained.retryAfterMs;
  return new ApiError({
    kind: 'http', detail: explained.detail, endpoint: error.endpoint, attempts: error.attempts, retryable: explained.retryable, status: error.status,
    ...(message === '' ? {} : { serviceMessage: message }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  }, secrets);
}
