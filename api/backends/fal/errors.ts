/**
 * fal's errors in a person's words. fal answers errors as `{detail}`: a string, or FastAPI's list
 * of `{loc, msg, type}` for a field it refuses (422); fal-js reads them so (src/response.ts,
 * ValidationError). What retrying cannot fix is not retried: a missing or refused key (401), an
 * account out of balance (402, or 403 "Exhausted balance"), a model fal does not have (404), a field it
 * refuses (422). A rate limit (429) and fal's gateway errors (502, 503, 504) are retried, as fal-js
 * does (DEFAULT_RETRYABLE_STATUS_CODES), honouring `Retry-After`.
 */
import type { ApiError } from '../../errors';
import { reworded } from '../hosted/errors';
import { FAL_LABEL as LABEL } from './describe';

/** The service field a fal input field came from. */
const SERVICE_FIELD = new Map<string, string>([
  ['prompt', 'prompt'], ['negative_prompt', 'negative_prompt'], ['image_size', 'width and height'],
  ['num_inference_steps', 'steps'], ['guidance_scale', 'cfg_scale'], ['num_images', 'num_images'], ['seed', 'seed'],
  ['image_url', 'init_image'], ['mask_url', 'mask_image'], ['control_image_url', 'controlnet_image'],
  ['strength', 'strength'], ['noise_strength', 'strength'], ['model_name', 'checkpoint'], ['scheduler', 'sampler'], ['loras', 'loras'],
]);

interface FieldError {
  loc?: unknown[];
  msg?: string;
  type?: string;
}

function parseDetail(body: string | undefined): { text?: string; fields: FieldError[] } {
  if (body === undefined) return { fields: [] };
  try {
    const parsed = JSON.parse(body) as { detail?: unknown };
    if (typeof parsed.detail === 'string') return { text: parsed.detail, fields: [] };
    if (Array.isArray(parsed.detail)) return { fields: parsed.detail.filter((d): d is FieldError => typeof d === 'object' && d !== null) };
  } catch {
    // Not JSON: the status and the shared layer's text say what there is.
  }
  return { fields: [] };
}

function fieldWords(errors: FieldError[]): string {
  return errors.slice(0, 5).map((e) => {
    const loc = (e.loc ?? []).map(String).filter((part) => part !== 'body');
    const field = loc[0] ?? '(body)';
    const service = SERVICE_FIELD.get(field);
    const named = service === undefined ? `'${loc.join('.')}'` : `${service} (sent as '${loc.join('.')}')`;
    return `${named}: ${e.msg ?? e.type ?? 'refused'}`;
  }).join('; ');
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);

/** The error a failed fal call becomes, for `endpoint` (the model's endpoint id). */
export function explainFalError(error: ApiError, endpoint: string, secrets: readonly string[]): ApiError {
  if (error.kind !== 'http' || error.status === undefined) return error;
  const status = error.status;
  const { text, fields } = parseDetail(error.serviceBody);
  const said = text === undefined || text === '' ? '' : ` fal said: ${text}`;
  let detail: string;
  let retryable = false;
  if (status === 401) {
    detail = `${LABEL} refused the API key (HTTP 401): check this backend's credential, a fal key (key id:secret).${said}`;
  } else if (status === 402 || (status === 403 && /balance|billing|credit|locked/i.test(text ?? ''))) {
    detail = `${LABEL} says the account is out of credit (HTTP ${status}): top up at fal.ai/dashboard/billing; sending again will not help until then.${said}`;
  } else if (status === 403) {
    detail = `${LABEL} does not let this key run ${endpoint} (HTTP 403).${said}`;
  } else if (status === 404) {
    detail = `${LABEL} has no model '${endpoint}' (HTTP 404): check this engine's model in Settings (a fal model id such as fal-ai/flux/dev).${said}`;
  } else if (status === 422 && fields.some((f) => /content_policy|nsfw|safety/i.test(`${f.type ?? ''} ${f.msg ?? ''}`))) {
    detail = `${LABEL}'s safety checker refused this request; sending it again will not help, change the prompt or the input image. fal said: ${fieldWords(fields)}`;
  } else if (status === 422) {
    detail = `${LABEL} refused ${fields.length > 0 ? fieldWords(fields) : `the request${said}`} (HTTP 422)`;
  } else if (status === 429) {
    detail = `${LABEL} is limiting how many requests may run at once (HTTP 429).${said}`;
    retryable = true;
  } else {
    detail = `${LABEL} failed on its side (HTTP ${status}).${said}`;
    retryable = RETRY_STATUSES.has(status);
  }
  return reworded(error, detail, retryable, secrets);
}
