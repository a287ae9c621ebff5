/**
 * One request through fal's queue (https://docs.fal.ai/model-endpoints/queue; fal-js
 * src/queue.ts): `POST /{endpoint}` submits and answers `{request_id}`; `GET
 * /{app}/requests/{id}/status?logs=1` says `IN_QUEUE` (with `queue_position`), `IN_PROGRESS`
 * (with `logs`) or `COMPLETED`; `GET /{app}/requests/{id}` is the result; `PUT
 * /{app}/requests/{id}/cancel` cancels. `{app}` is the endpoint's `owner/alias` without its
 * sub-path. The URLs fal returns in its answers are not followed: every call goes to the base URL
 * in the settings, so an answer cannot send the key elsewhere.
 */
import { z } from 'zod';
import { ApiError } from '../../errors';
import type { Http } from '../../http';
import { abortableSleep } from '../../retry';
import { progressFromLogs } from '../hosted/progress';
import type { ImageCallOptions } from '../types';
import { FAL_LABEL } from './describe';
import { explainFalError } from './errors';
import { queueApp } from './models';

const SubmittedSchema = z.looseObject({ request_id: z.string().min(1) });

const StatusSchema = z.looseObject({
  status: z.enum(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED']),
  queue_position: z.number().optional(),
  logs: z.array(z.looseObject({ message: z.string() })).nullable().optional(),
});

/** An image model's answer (fal-js types: unoOutput, loraOutput). */
export const FalOutputSchema = z.looseObject({
  images: z.array(z.looseObject({ url: z.string(), content_type: z.string().optional() })),
  seed: z.number().optional(),
  has_nsfw_concepts: z.array(z.boolean()).optional(),
});
export type FalOutput = z.infer<typeof FalOutputSchema>;

/** A result and the units fal billed it by, when its answer said (`x-fal-billable-units`). */
export interface QueuedResult {
  output: FalOutput;
  billableUnits?: number;
}

/**
 * The header in which a fal app tells the platform how many of its billing units a request used
 * (https://docs.fal.ai/documentation/serverless/publishing-to-marketplace, "Define billable
 * units"); fal-js does not read it, and fal's queue reference does not promise it on the result,
 * so it is used only when present.
 */
const BILLABLE_UNITS = 'x-fal-billable-units';

export interface QueueRun {
  http: Http;
  endpoint: string;
  input: Record<string, unknown>;
  pollMs: number;
  call: ImageCallOptions;
  /** Said before "waiting" when num_images takes several requests: "request 2 of 3: ". */
  prefix: string;
}

function signalOf(call: ImageCallOptions): { signal?: AbortSignal } {
  return call.signal === undefined ? {} : { signal: call.signal };
}

/** Asks fal to drop a request that was cancelled here; its answer changes nothing now. */
async function cancel(http: Http, app: string, id: string): Promise<void> {
  try {
    const exchange = await http.open({ method: 'PUT', path: `/${app}/requests/${encodeURIComponent(id)}/cancel`, accept: 'application/json' }, 1);
    exchange.close();
  } catch {
    // 400 ALREADY_COMPLETED, or fal out of reach: nothing more can be done from here.
  }
}

/** Submits, follows and reads one request; cancels it at fal when the call is aborted. */
export async function runQueued(run: QueueRun): Promise<QueuedResult> {
  const { http, endpoint, call } = run;
  const app = queueApp(endpoint);
  const submitted = await http.requestJson({ method: 'POST', path: `/${endpoint}`, body: run.input, accept: 'application/json' }, SubmittedSchema, {
    ...signalOf(call),
    ...(call.onRetry === undefined ? {} : { onRetry: call.onRetry }),
    // A submit that may have reached fal is not sent again: it would queue (and bill) a second run.
    mapError: (error) => (error.kind === 'network' || error.kind === 'timeout' ? error.with({ retryable: false }) : explainFalError(error, endpoint, http.secrets)),
  });
  const id = submitted.request_id;
  const base = `/${app}/requests/${encodeURIComponent(id)}`;
  try {
    for (;;) {
      const status = await http.requestJson({ method: 'GET', path: `${base}/status?logs=1`, accept: 'application/json' }, StatusSchema, {
        ...signalOf(call), mapError: (error) => explainFalError(error, endpoint, http.secrets),
      });
      if (status.status === 'COMPLETED') break;
      if (status.status === 'IN_QUEUE') {
        const where = status.queue_position === undefined ? '' : ` (${status.queue_position} ahead)`;
        call.onProgress?.(0, `${run.prefix}waiting in ${FAL_LABEL}'s queue${where}`);
      } else {
        const seen = progressFromLogs((status.logs ?? []).map((log) => log.message));
        call.onProgress?.(seen?.fraction ?? 0, `${run.prefix}${seen?.message ?? `running on ${FAL_LABEL}`}`);
      }
      await abortableSleep(run.pollMs, call.signal);
    }
    let billableUnits: number | undefined;
    const output = await http.requestJson({ method: 'GET', path: base, accept: 'application/json' }, FalOutputSchema, {
      ...signalOf(call), mapError: (error) => explainFalError(error, endpoint, http.secrets),
      onHeaders(headers) {
        const units = Number(headers.get(BILLABLE_UNITS) ?? Number.NaN);
        billableUnits = Number.isFinite(units) && units >= 0 ? units : undefined;
      },
    });
    return { output, ...(billableUnits === undefined ? {} : { billableUnits }) };
  } catch (error) {
    if (call.signal?.aborted === true) {
      await cancel(http, app, id);
      throw new ApiError({ kind: 'aborted', detail: `cancelled; ${FAL_LABEL} was asked to drop request ${id}`, endpoint: http.endpoint('PUT', `${base}/cancel`), attempts: 1, retryable: false }, http.secrets);
    }
    throw error;
  }
}
