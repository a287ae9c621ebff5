/**
 * One prediction on Replicate (https://replicate.com/docs/reference/http; replicate-javascript
 * lib/predictions.js and index.js `run`/`wait`): `POST /v1/models/{owner}/{name}/predictions`
 * (an official model) or `POST /v1/predictions` with `version` creates it, with `Prefer: wait`
 * for a model that answers in seconds; `GET /v1/predictions/{id}` follows it through `starting`
 * (a cold start, which can take minutes and is said, not timed out), `processing` (its logs carry
 * the step) to `succeeded`, `failed` or `canceled`; `POST /v1/predictions/{id}/cancel` stops it.
 * The `urls` in its answers are not followed: every call goes to the base URL in the settings.
 */
import { z } from 'zod';
import { ApiError } from '../../errors';
import type { Http } from '../../http';
import { abortableSleep } from '../../retry';
import { progressFromLogs } from '../hosted/progress';
import type { ImageCallOptions } from '../types';
import { REPLICATE_LABEL as LABEL } from './describe';
import { explainReplicateError, predictionFailure } from './errors';
import type { ReplicateModel } from './models';

const PredictionSchema = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
  logs: z.string().nullable().optional(),
  metrics: z.looseObject({ predict_time: z.number().optional() }).nullable().optional(),
});
export type Prediction = z.infer<typeof PredictionSchema>;

const DONE = new Set(['succeeded', 'failed', 'canceled', 'aborted']);

/** Seconds `Prefer: wait` holds the create request open for a fast model (Replicate allows up to 60). */
const WAIT_SECONDS = 30;

export interface PredictionRun {
  http: Http;
  model: ReplicateModel;
  input: Record<string, unknown>;
  pollMs: number;
  call: ImageCallOptions;
  prefix: string;
}

const signalOf = (call: ImageCallOptions) => (call.signal === undefined ? {} : { signal: call.signal });

async function cancel(http: Http, id: string): Promise<void> {
  try {
    const exchange = await http.open({ method: 'POST', path: `/v1/predictions/${encodeURIComponent(id)}/cancel`, accept: 'application/json' }, 1);
    exchange.close();
  } catch {
    // Already finished, or Replicate out of reach: nothing more can be done from here.
  }
}

function report(p: Prediction, run: PredictionRun): void {
  if (p.status === 'starting') {
    run.call.onProgress?.(0, `${run.prefix}starting on ${LABEL} (a model that has not run lately is loaded first: this can take a few minutes)`);
  } else if (p.status === 'processing') {
    const seen = progressFromLogs((p.logs ?? '').split('\n'));
    run.call.onProgress?.(seen?.fraction ?? 0, `${run.prefix}${seen?.message ?? `running on ${LABEL}`}`);
  }
}

/** Creates, follows and reads one prediction; cancels it at Replicate when the call is aborted. */
export async function runPrediction(run: PredictionRun): Promise<Prediction> {
  const { http, model, call } = run;
  const path = model.version === undefined ? `/v1/models/${model.ref}/predictions` : '/v1/predictions';
  const body = model.version === undefined ? { input: run.input } : { version: model.version, input: run.input };
  const label = model.version === undefined ? model.ref : `${model.ref}:${model.version}`;
  let prediction = await http.requestJson({
    method: 'POST', path, body, accept: 'application/json', ...(model.fast ? { headers: { Prefer: `wait=${WAIT_SECONDS}` } } : {}),
  }, PredictionSchema, {
    ...signalOf(call),
    ...(call.onRetry === undefined ? {} : { onRetry: call.onRetry }),
    // A create that may have reached Replicate is not sent again: it would run (and bill) twice.
    mapError: (error) => (error.kind === 'network' || error.kind === 'timeout' ? error.with({ retryable: false }) : explainReplicateError(error, label, http.secrets)),
  });
  try {
    while (!DONE.has(prediction.status)) {
      report(prediction, run);
      await abortableSleep(run.pollMs, call.signal);
      prediction = await http.requestJson({ method: 'GET', path: `/v1/predictions/${encodeURIComponent(prediction.id)}`, accept: 'application/json' }, PredictionSchema, {
        ...signalOf(call), mapError: (error) => explainReplicateError(error, label, http.secrets),
      });
    }
  } catch (error) {
    if (call.signal?.aborted === true) {
      await cancel(http, prediction.id);
      throw new ApiError({ kind: 'aborted', detail: `cancelled; ${LABEL} was asked to cancel prediction ${prediction.id}`, endpoint: http.endpoint('POST', '/v1/predictions/{id}/cancel'), attempts: 1, retryable: false }, http.secrets);
    }
    throw error;
  }
  if (prediction.status === 'succeeded') return prediction;
  const endpoint = http.endpoint('GET', `/v1/predictions/${prediction.id}`);
  if (prediction.status === 'failed') {
    const { detail } = predictionFailure(typeof prediction.error === 'string' ? prediction.error : JSON.stringify(prediction.error ?? 'no reason given'), label);
    throw new ApiError({ kind: 'http', detail, endpoint, attempts: 1, retryable: false }, http.secrets);
  }
  throw new ApiError({ kind: 'aborted', detail: `prediction ${prediction.id} was ${prediction.status} on ${LABEL} (stopped there, not by Atelier)`, endpoint, attempts: 1, retryable: false }, http.secrets);
}

/** The output's image references: Replicate answers a list of URLs, or one URL. */
export function outputRefs(output: unknown): string[] {
  if (typeof output === 'string') return [output];
  if (Array.isArray(output)) return output.filter((o): o is string => typeof o === 'string');
  return [];
}
