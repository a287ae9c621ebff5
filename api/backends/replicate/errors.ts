/**
 * Replicate's errors in a person's words. Replicate answers errors as problem details
 * (`{title, detail, status}`, with `invalid_fields: [{type, field, description}]` on a 422; the
 * openapi schema at https://api.replicate.com/openapi.json and replicate-javascript's ApiError,
 * lib/error.js, which carries the body's text). A failed prediction says why in its `error`.
 * Not retried: a missing or refused token (401, 403), no credit (402), an unknown model or
 * version (404), a refused input (422), a safety refusal. Retried: 429 (its `Retry-After`
 * honoured, as replicate-javascript does in withAutomaticRetries) and, for reads, 5xx.
 */
import type { ApiError } from '../../errors';
import { reworded } from '../hosted/errors';
import { REPLICATE_LABEL as LABEL } from './describe';

const SERVICE_FIELD = new Map<string, string>([
  ['prompt', 'prompt'], ['negative_prompt', 'negative_prompt'], ['width', 'width'], ['height', 'height'],
  ['aspect_ratio', 'width and height'], ['num_outputs', 'num_images'], ['num_inference_steps', 'steps'], ['steps', 'steps'],
  ['guidance_scale', 'cfg_scale'], ['guidance', 'cfg_scale'], ['cfg', 'cfg_scale'], ['seed', 'seed'], ['scheduler', 'sampler'],
  ['image', 'init_image'], ['mask', 'mask_image'], ['prompt_strength', 'strength'], ['refine', 'use_refiner'], ['high_noise_frac', 'high_noise_frac'],
]);

interface Problem {
  title?: string;
  detail?: string;
  invalid_fields?: { field?: string; description?: string; type?: string }[];
}

function parseProblem(body: string | undefined): Problem {
  if (body === undefined) return {};
  try {
    const parsed = JSON.parse(body) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed as Problem : {};
  } catch {
    return {};
  }
}

function fieldWords(problem: Problem): string | undefined {
  const fields = problem.invalid_fields ?? [];
  if (fields.length === 0) return undefined;
  return fields.slice(0, 5).map((f) => {
    const name = (f.field ?? '').replace(/^input\./, '');
    const service = SERVICE_FIELD.get(name);
    return `${service === undefined ? `'${name}'` : `${service} (sent as '${name}')`}: ${f.description ?? f.type ?? 'refused'}`;
  }).join('; ');
}

/** Whether a failed prediction's error is the model's safety checker. */
export function isSafetyError(text: string): boolean {
  return /nsfw|safety|sensitive|content (policy|moderation)/i.test(text);
}

/** A failed prediction's `error` in a person's words. */
export function predictionFailure(error: string, modelRef: string): { detail: string; safety: boolean } {
  if (isSafetyError(error)) {
    return { detail: `${LABEL}'s safety checker refused the images of ${modelRef}, so none is kept; sending it again will not help, change the prompt or the input image. Replicate said: ${error}`, safety: true };
  }
  if (/insufficient credit|billing/i.test(error)) {
    return { detail: `${LABEL} says the account is out of credit: add credit at replicate.com/account/billing. Replicate said: ${error}`, safety: false };
  }
  return { detail: `${modelRef} failed on ${LABEL}: ${error}`, safety: false };
}

/** The error a failed Replicate call becomes; `modelRef` names the model setting for 404s. */
export function explainReplicateError(error: ApiError, modelRef: string, secrets: readonly string[]): ApiError {
  if (error.kind !== 'http' || error.status === undefined) return error;
  const status = error.status;
  const problem = parseProblem(error.serviceBody);
  const text = problem.detail ?? problem.title ?? error.serviceMessage ?? '';
  const said = text === '' ? '' : ` Replicate said: ${text}`;
  let detail: string;
  let retryable = false;
  if (status === 401) {
    detail = `${LABEL} refused the API token (HTTP 401): check this backend's credential (a token from replicate.com/account/api-tokens).${said}`;
  } else if (status === 402 || /insufficient credit/i.test(text)) {
    detail = `${LABEL} says the account is out of credit (HTTP ${status}): add credit at replicate.com/account/billing; sending again will not help until then.${said}`;
  } else if (status === 403) {
    detail = `${LABEL} does not let this token run ${modelRef} (HTTP 403).${said}`;
  } else if (status === 404) {
    detail = `${LABEL} has no model or version '${modelRef}' (HTTP 404): check this engine's model in Settings (owner/name, or owner/name:version).${said}`;
  } else if (status === 422) {
    const fields = fieldWords(problem);
    detail = fields === undefined ? `${LABEL} refused the request (HTTP 422).${said}` : `${LABEL} refused ${fields} (HTTP 422)`;
  } else if (status === 429) {
    detail = `${LABEL} is limiting how fast requests may come (HTTP 429).${said}`;
    retryable = true;
  } else {
    detail = `${LABEL} failed on its side (HTTP ${status}).${said}`;
    retryable = error.retryable;
  }
  return reworded(error, detail, retryable, secrets);
}
