/**
 * OpenAI's errors in a person's words. The body is `{error: {message, type, param, code}}`
 * (openapi.yaml, ErrorResponse); `param` names the OpenAI field at fault, which is said here as the
 * service's field it came from. What retrying cannot fix is not retried: a bad or missing key
 * (401), the safety system's refusal (400 moderation_blocked / content_policy_violation), an
 * account out of quota (429 insufficient_quota), a server out of memory.
 */
import { ApiError } from '../../errors';
import { corsRefusal, whyUnanswered } from '../unanswered';
import { openaiDescription } from './describe';
import type { OpenAIPlan } from './plan';

const LABEL = openaiDescription.label;

export interface OpenAIErrorBody {
  message?: string;
  type?: string;
  param?: string | null;
  code?: string | null;
}

export function parseOpenAIError(body: string | undefined): OpenAIErrorBody | undefined {
  if (body === undefined) return undefined;
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    const error = parsed.error;
    return typeof error === 'object' && error !== null ? error as OpenAIErrorBody : undefined;
  } catch {
    return undefined;
  }
}

/**
 * OpenAI quotes the key it refused ("Incorrect API key provided: sk-proj-****abcd."), masked but
 * with its start and end: never let that reach an error message or a log.
 */
export function scrubKeyEcho(text: string): string {
  return text.replace(/(Incorrect API key provided:)[^\n]*?(\.\s+You can|$)/gm, '$1 [redacted]$2');
}

/** The service field an OpenAI `param` came from. */
function serviceField(param: string, plan: OpenAIPlan): string | undefined {
  if (param === 'prompt') return 'prompt';
  if (param === 'size') return 'width and height';
  if (param === 'n') return 'num_images';
  if (param === 'mask') return 'mask_image';
  if (param.startsWith('image')) return plan.mode === 'subject-transfer' ? 'transfer_images' : 'init_image';
  return undefined;
}

function hostOf(endpoint: string): string {
  const url = endpoint.split(' ')[1] ?? '';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function networkDetail(error: ApiError, pageOrigin: string | undefined): string | undefined {
  const host = hostOf(error.endpoint);
  switch (whyUnanswered(error)) {
    case 'cors':
      return corsRefusal(openaiDescription, 'the server', host, pageOrigin);
    case 'refused':
      return `could not connect to ${host}: connection refused. Is the server running, and is the backend's base URL right?`;
    case 'unreachable':
      return `nothing answered at ${host}: is the server running, and is the backend's base URL right?`;
    default:
      return undefined;
  }
}

export function isModelError(error: ApiError): boolean {
  const body = parseOpenAIError(error.serviceBody);
  return error.kind === 'http' && (body?.param === 'model' || body?.code === 'model_not_found');
}

interface Explained {
  detail: string;
  retryable: boolean;
}

function explainHttp(status: number, body: OpenAIErrorBody | undefined, message: string, plan: OpenAIPlan, models: readonly string[] | undefined, retryable: boolean): Explained {
  const code = body?.code ?? undefined;
  const said = message === '' ? '' : ` It said: ${message}`;
  if (status === 401) {
    return /didn't provide an API key/i.test(message)
      ? { detail: `${LABEL} needs an API key and none was sent: set this backend's credential (an API key, or the key your compatible server expects).${said}`, retryable: false }
      : { detail: `${LABEL} refused the API key (HTTP 401${code === undefined ? '' : ` ${code}`}): check this backend's credential.${said}`, retryable: false };
  }
  if (code === 'moderation_blocked' || code === 'content_policy_violation') {
    return { detail: `${LABEL}'s safety system refused this request (${code}); sending it again will not help, change the prompt or the input image.${said}`, retryable: false };
  }
  if (status === 429 && (code === 'insufficient_quota' || code === 'billing_hard_limit_reached')) {
    return { detail: `${LABEL} says the account has no quota left (${code}); waiting will not help until billing is sorted out.${said}`, retryable: false };
  }
  if (status === 429) return { detail: `${LABEL} is limiting how fast requests may come (HTTP 429).${said}`, retryable };
  if (/out of memory|CUDA OOM/i.test(message)) {
    return { detail: `the server ran out of memory making the images: ask for fewer images (num_images) or a smaller size (width and height).${said}`, retryable: false };
  }
  if (body?.param === 'model' || code === 'model_not_found') {
    const known = models === undefined || models.length === 0 ? '' : ` It has: ${models.slice(0, 20).join(', ')}.`;
    return { detail: `${LABEL} has no model '${plan.model}' (the backend's model setting).${known}${said}`, retryable: false };
  }
  const field = typeof body?.param === 'string' ? serviceField(body.param, plan) : undefined;
  if (field !== undefined) {
    return { detail: `${LABEL} refused ${field} (sent as '${body!.param!}'${code === undefined ? '' : `, ${code}`}).${said}`, retryable };
  }
  if (status === 403) return { detail: `${LABEL} does not let this account use ${plan.model} (HTTP 403).${said}`, retryable: false };
  if (status === 404) {
    return { detail: `${LABEL} has no ${plan.path} here (HTTP 404): is the base URL an OpenAI-style server's root?${said}`, retryable: false };
  }
  if (status >= 500) return { detail: `${LABEL} failed on its side (HTTP ${status}).${said}`, retryable };
  return { detail: `${LABEL} refused the request (HTTP ${status}${code === undefined ? '' : `, ${code}`}).${said}`, retryable };
}

/**
 * The error `generate` throws for a failed OpenAI call; `models` lists the server's models for a
 * model error, `pageOrigin` (a browser's) names the origin a server must allow.
 */
export function explainError(error: ApiError, plan: OpenAIPlan, secrets: readonly string[], models?: readonly string[], pageOrigin?: string): ApiError {
  if (error.kind === 'network') {
    const detail = networkDetail(error, pageOrigin);
    return detail === undefined ? error : new ApiError({
      kind: 'network', detail, endpoint: error.endpoint, attempts: error.attempts, retryable: error.retryable,
      ...(error.unanswered === undefined ? {} : { unanswered: error.unanswered }),
    }, secrets);
  }
  if (error.kind !== 'http' || error.status === undefined) return error;
  const body = parseOpenAIError(error.serviceBody);
  const message = scrubKeyEcho((body?.message ?? error.serviceMessage ?? '').trim());
  const { detail, retryable } = explainHttp(error.status, body, message, plan, models, error.retryable);
  // The shared layer's word on a Retry-After too long to wait for is kept.
  const gaveUp = /; the service asked to wait .*$/.exec(error.detail)?.[0] ?? '';
  return new ApiError({
    kind: 'http', detail: `${detail}${gaveUp}`, endpoint: error.endpoint, attempts: error.attempts, retryable, status: error.status,
    ...(message === '' ? {} : { serviceMessage: message }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
  }, secrets);
}
