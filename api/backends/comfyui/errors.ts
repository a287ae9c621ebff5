/**
 * ComfyUI's failures in a person's words, naming the request's field: the per-node validation
 * errors of a refused prompt (execution.py `validate_inputs` / `validate_prompt`), a run's
 * `execution_error` (an out-of-memory one above all), and a server that cannot be reached.
 */
import { ApiError } from '../../errors';
import { closestName } from '../../closest-name';
import { corsFlag, corsRefusal, whyUnanswered } from '../unanswered';
import { comfyDescription } from './describe';
import type { ComfyGraph } from './graph';
import { comboChoices } from './names';
import type { Refusal } from './transport';

/** What a missing name is, and where ComfyUI looks for such files. */
const NAMED_INPUTS: Record<string, { what: string; folder?: string }> = {
  ckpt_name: { what: 'checkpoint', folder: 'models/checkpoints' },
  lora_name: { what: 'LoRA', folder: 'models/loras' },
  vae_name: { what: 'VAE', folder: 'models/vae' },
  control_net_name: { what: 'ControlNet', folder: 'models/controlnet' },
  sampler_name: { what: 'sampler' },
  scheduler: { what: 'scheduler' },
};

/** The request field a sampler or latent input comes from. */
const INPUT_FIELDS: Record<string, string> = {
  seed: 'seed', noise_seed: 'seed', steps: 'steps', cfg: 'cfg_scale', sampler_name: 'sampler', scheduler: 'sampler',
  denoise: 'strength', width: 'width', height: 'height', batch_size: 'num_images', amount: 'num_images',
  start_at_step: 'strength', end_at_step: 'high_noise_frac',
};

const SHOWN_NAMES = 30;

/** Looks up the names a loader offers (GET /object_info/{class}), for an error that lists them. */
export type NameLookup = (classType: string, input: string) => Promise<string[] | undefined>;

export interface ErrorContext {
  graph: ComfyGraph;
  engine: string;
  endpoint: string;
  secrets: readonly string[];
  lookup: NameLookup;
}

function listNames(names: string[]): string {
  if (names.length === 0) return 'it has none';
  const shown = names.slice(0, SHOWN_NAMES).join(', ');
  return `it has: ${shown}${names.length > SHOWN_NAMES ? ` and ${names.length - SHOWN_NAMES} more` : ''}`;
}

/** The file probably meant, comparing names without their extension (`x.ckpt` for `x.safetensors`). */
function likelyMeant(name: string, names: string[]): string | undefined {
  const stem = (file: string) => file.replace(/\.[a-z0-9]+$/i, '');
  const stems = names.map(stem);
  const close = closestName(stem(name), stems);
  return close === undefined ? undefined : names[stems.indexOf(close)];
}

type NodeError = Extract<NonNullable<Refusal['node_errors']>, Record<string, unknown>>[string]['errors'][number];

async function describeNodeError(id: string, classType: string, error: NodeError, ctx: ErrorContext): Promise<{ path: string; message: string }> {
  const role = ctx.graph.roles[id];
  const input = error.extra_info?.input_name ?? error.details?.split(/[:,\s]/)[0] ?? '';
  const path = (input !== '' && INPUT_FIELDS[input] !== undefined && role?.field !== 'use_refiner' ? INPUT_FIELDS[input] : role?.field) ?? `node ${id}`;
  const value = error.extra_info?.received_value;
  const named = NAMED_INPUTS[input];
  if (error.type === 'value_not_in_list' && named !== undefined) {
    const names = comboChoices(error.extra_info?.input_config) ?? await ctx.lookup(classType, input).catch(() => undefined);
    const from = role?.fromSettings === true ? ` (the ${role.field === 'use_refiner' ? 'refiner' : named.what} set for ${ctx.engine} in the backend's settings)` : '';
    const guess = names === undefined ? undefined : likelyMeant(String(value), names);
    const where = named.folder === undefined ? '' : `; put the file in ComfyUI's ${named.folder} folder or pick one it has`;
    const known = names === undefined ? '' : `; ${guess === undefined ? '' : `did you mean '${guess}'? `}${listNames(names)}`;
    return { path, message: `ComfyUI has no ${named.what} '${String(value)}'${from}${known}${names?.length === 0 ? where : ''}` };
  }
  if (error.type === 'custom_validation_failed' && classType === 'LoadImage') {
    return { path, message: `ComfyUI cannot find the uploaded image in its input folder (${error.details ?? error.message}); run again to upload it anew` };
  }
  if (error.type === 'value_smaller_than_min' || error.type === 'value_bigger_than_max') {
    return { path, message: `ComfyUI refused ${String(value)} for ${classType}'s ${input}: ${error.message}` };
  }
  const details = error.details === undefined || error.details === '' ? '' : ` (${error.details})`;
  return { path, message: `ComfyUI refused node ${id} (${classType}): ${error.message}${details}` };
}

/** A prompt ComfyUI refused with status 400, told field by field. */
export async function refusalError(refusal: Refusal, ctx: ErrorContext): Promise<ApiError> {
  const issues: { path: string; message: string }[] = [];
  const nodeErrors = Array.isArray(refusal.node_errors) ? {} : refusal.node_errors ?? {};
  for (const [id, node] of Object.entries(nodeErrors)) {
    const classType = node.class_type ?? ctx.graph.prompt[id]?.class_type ?? 'node';
    for (const error of node.errors) issues.push(await describeNodeError(id, classType, error, ctx));
  }
  const top = typeof refusal.error === 'string' ? { type: 'error', message: refusal.error, details: undefined } : refusal.error;
  if (issues.length === 0) {
    const missing = /node (\S+) does not exist|Node '([^']+)' not found/.exec(top.message);
    const nodeId = /#(\S+?)'?$/.exec(top.details ?? '')?.[1];
    const role = nodeId === undefined ? undefined : ctx.graph.roles[nodeId];
    const className = missing?.[1] ?? missing?.[2] ?? (nodeId === undefined ? undefined : ctx.graph.prompt[nodeId]?.class_type);
    issues.push(missing === null
      ? { path: role?.field ?? '(request)', message: `ComfyUI refused the prompt: ${top.message}${top.details ? ` (${top.details})` : ''}` }
      : { path: role?.field ?? '(request)', message: `this ComfyUI has no '${className ?? '?'}' node, which Atelier's graph uses: update ComfyUI (the node is one of its core nodes)` });
  }
  const own = `${top.message}${top.details ? `: ${top.details}` : ''}`;
  return new ApiError({
    kind: 'http', status: 400, retryable: false, endpoint: ctx.endpoint, attempts: 1, serviceMessage: own,
    detail: `HTTP 400: ComfyUI refused the request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
  }, ctx.secrets);
}

/** The data of an `execution_error` message (execution.py `handle_execution_error`). */
export interface ExecutionFailure {
  node_id?: string;
  node_type?: string;
  exception_message?: string;
  exception_type?: string;
}

export function executionError(failure: ExecutionFailure, ctx: Omit<ErrorContext, 'lookup'>): ApiError {
  const id = failure.node_id ?? '?';
  const role = ctx.graph.roles[id];
  const where = `node ${id} (${failure.node_type ?? ctx.graph.prompt[id]?.class_type ?? 'unknown'}${role === undefined ? '' : `, for ${role.field}`})`;
  const message = (failure.exception_message ?? '').trim();
  const oom = /OutOfMemory/i.test(failure.exception_type ?? '') || /out of memory/i.test(message);
  const detail = oom
    ? `ComfyUI ran out of GPU memory in ${where}: make fewer images at once (num_images), a smaller width and height, or start ComfyUI with --lowvram. ComfyUI unloads its models after this, so running again may also work`
    : `ComfyUI failed in ${where}: ${message.split('\n')[0] ?? ''}${failure.exception_type ? ` (${failure.exception_type})` : ''}`;
  return new ApiError({ kind: 'http', retryable: false, endpoint: ctx.endpoint, attempts: 1, detail, serviceMessage: message }, ctx.secrets);
}

/** A run stopped in ComfyUI itself (its Cancel button, or another client's /interrupt). */
export function interruptedError(ctx: Omit<ErrorContext, 'lookup'>, why: string): ApiError {
  return new ApiError({ kind: 'http', retryable: false, endpoint: ctx.endpoint, attempts: 1, detail: why }, ctx.secrets);
}

/**
 * Words for a ComfyUI that refuses this page's origin (CORS, or its 403 to a foreign Origin),
 * cannot be reached, or is not ComfyUI. Any other error is returned as it is.
 */
export function explainTransportError(error: unknown, baseUrl: string, secrets: readonly string[], pageOrigin?: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const port = (() => { try { return new URL(baseUrl).port || '8188'; } catch { return '8188'; } })();
  const start = `start ComfyUI with \`python main.py --port ${port}\``;
  const why = whyUnanswered(error);
  let detail: string | undefined;
  if (why === 'cors') {
    detail = corsRefusal(comfyDescription, 'ComfyUI', baseUrl, pageOrigin);
  } else if (why === 'refused') {
    detail = `ComfyUI is not running at ${baseUrl} (connection refused): ${start}, or correct the ComfyUI address in the backend's settings`;
  } else if (why === 'unreachable') {
    detail = `nothing answered at ${baseUrl}: is ComfyUI running there (${start})? Check the ComfyUI address in the backend's settings`;
  } else if (error.kind === 'network') {
    detail = `cannot reach ComfyUI at ${baseUrl} (${error.detail}): is it running (${start})? Check the ComfyUI address in the backend's settings`;
  } else if (error.status === 403) {
    // server.py's origin check: a loopback ComfyUI answers 403 to a page of another origin.
    detail = `ComfyUI refused the request (HTTP 403): it refuses a page from another origin unless started with \`${corsFlag(comfyDescription, pageOrigin ?? "<this page's origin>")}\``;
  } else if (error.status === 404) {
    detail = `nothing at ${baseUrl} answers like ComfyUI (HTTP 404 for ${error.endpoint}): check the ComfyUI address in the backend's settings`;
  }
  if (detail === undefined) return error;
  return new ApiError({
    kind: error.kind, detail, endpoint: error.endpoint, attempts: error.attempts, retryable: error.retryable,
    status: error.status, serviceMessage: error.serviceMessage, retryAfterMs: error.retryAfterMs,
    ...(error.unanswered === undefined ? {} : { unanswered: error.unanswered }),
  }, secrets);
}
