/**
 * AUTOMATIC1111's failures in a person's words. Its API answers an exception as
 * `{error, detail, body, errors}` with the exception's status (500 for anything raised while
 * generating: out of memory, a missing refiner, a bad ControlNet unit), an `HTTPException` with
 * its own (401 for --api-auth, 422 for a missing script), and a field of the wrong type as
 * FastAPI's 422 `{detail: [{loc, msg}]}`; a route it lacks is a plain 404.
 *
 * A failure while generating is not retried: the same request fails the same way, and a retry
 * after a timeout would queue a second generation behind the first.
 *
 * Source: modules/api/api.py (`api_middleware`, `Api.auth`, `init_script_args`).
 */
import { ApiError } from '../../errors';
import type { FieldIssue } from '../../issues';
import { corsRefusal, whyUnanswered } from '../unanswered';
import { a1111Description } from './describe';

/** Where each AUTOMATIC1111 field comes from in the request, for its validation errors. */
const FROM_FIELD: Record<string, string> = {
  batch_size: 'num_images', denoising_strength: 'strength', init_images: 'init_image', mask: 'mask_image',
  sampler_name: 'sampler', scheduler: 'sampler', refiner_switch_at: 'high_noise_frac', refiner_checkpoint: 'use_refiner',
  override_settings: 'checkpoint', alwayson_scripts: 'controlnet',
};

export interface ErrorContext {
  /** `http://host:port`, for "not reachable at". */
  origin: string;
  /** Whether a user name and password were set. */
  credential: boolean;
  secrets: readonly string[];
  /** What was asked, for the out-of-memory advice: "2 images of 1024×1024". */
  asked?: string;
  /** The page's origin when a browser sends the requests, for the CORS option to give. */
  pageOrigin?: string;
}

function rewrite(error: ApiError, detail: string, retryable: boolean, secrets: readonly string[]): ApiError {
  return new ApiError({
    kind: error.kind, endpoint: error.endpoint, attempts: error.attempts, status: error.status,
    serviceMessage: error.serviceMessage, retryAfterMs: error.retryAfterMs, cause: error.cause, detail, retryable,
  }, secrets);
}

function httpDetail(error: ApiError, ctx: ErrorContext): { detail: string; retryable: boolean } | undefined {
  const said = error.serviceMessage ?? '';
  const status = error.status ?? 0;
  if (status === 401) {
    return {
      detail: ctx.credential
        ? `AUTOMATIC1111 refused the user name and password (${said || 'HTTP 401'}): check this backend's credential against the server's --api-auth user:password`
        : `AUTOMATIC1111 asks for a user name and password (it was started with --api-auth): set this backend's credential as user:password`,
      retryable: false,
    };
  }
  if (status === 404 && said === 'Not Found') {
    return { detail: `AUTOMATIC1111 at ${ctx.origin} answers, but not with its API (HTTP 404): start it with --api`, retryable: false };
  }
  if (status === 422 && /^Script 'controlnet' not found$/i.test(said)) {
    return { detail: 'AUTOMATIC1111 has no ControlNet: install the sd-webui-controlnet extension (Forge has it built in)', retryable: false };
  }
  if (status === 422) {
    const fields = said.replace(/\bbody\.(\w+)/g, (_all, field: string) => (FROM_FIELD[field] === undefined ? field : `${field} (from ${FROM_FIELD[field]})`));
    return { detail: `AUTOMATIC1111 refused the request (HTTP 422): ${fields}`, retryable: false };
  }
  if (status >= 500 && (/OutOfMemoryError/.test(said) || /out of memory/i.test(said))) {
    const asked = ctx.asked === undefined ? '' : ` making ${ctx.asked}`;
    return {
      detail: `AUTOMATIC1111 ran out of GPU memory${asked}: ask for fewer images (num_images) or a smaller size, or start it with --medvram or --lowvram (${said})`,
      retryable: false,
    };
  }
  return undefined;
}

/** The error as a person should read it; `generating` marks the generation request itself. */
export function describeError(error: unknown, ctx: ErrorContext, generating: boolean): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.kind === 'network') {
    const why = whyUnanswered(error);
    const said = error.detail.replace(/^network error: /, '');
    const detail = why === 'cors'
      ? `${corsRefusal(a1111Description, 'AUTOMATIC1111', ctx.origin, ctx.pageOrigin)} (and with --api)`
      : why === 'unreachable' && error.unanswered !== undefined
        ? `nothing answered at ${ctx.origin}: is AUTOMATIC1111 running there, started with --api? Check the backend's base URL`
        : `AUTOMATIC1111 is not reachable at ${ctx.origin} (${said}): is it running, started with --api?`;
    // A refused connection sent nothing, so a retry is safe; anything else may have started a generation,
    // and no retry changes a browser's unanswered request (api/cors.ts).
    return rewrite(error, detail, generating ? why === 'refused' && error.unanswered === undefined : error.retryable, ctx.secrets);
  }
  if (error.kind === 'timeout' && generating) {
    return rewrite(error, `AUTOMATIC1111 did not finish in time (${error.detail}); it may still be working on it`, false, ctx.secrets);
  }
  if (error.kind !== 'http') return error;
  const mapped = httpDetail(error, ctx);
  if (mapped !== undefined) return rewrite(error, mapped.detail, mapped.retryable, ctx.secrets);
  if (generating && (error.status ?? 0) >= 500) {
    return rewrite(error, `AUTOMATIC1111 failed while generating (HTTP ${error.status}): ${error.serviceMessage ?? 'no message'}`, false, ctx.secrets);
  }
  return error;
}

/** The request was not sent: what AUTOMATIC1111 lacks or cannot do, one field after another. */
export function refusal(endpoint: string, issues: readonly FieldIssue[], secrets: readonly string[]): ApiError {
  return new ApiError({
    kind: 'http', endpoint, attempts: 0, retryable: false,
    detail: `not sent: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
  }, secrets);
}
