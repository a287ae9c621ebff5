/**
 * Replicate as a backend: each engine's model (a setting, per engine: `owner/name` or
 * `owner/name:version`) runs as a prediction (predictions.ts), input images go as data URIs or,
 * over 256 KB, through Replicate's files API (files.ts), and the output images are fetched from
 * the URLs Replicate answers with, without the token. What each field becomes is translate.ts's;
 * models.ts holds the table of models.
 */
import { z } from 'zod';
import type { EngineId } from '../../catalog';
import { ApiError } from '../../errors';
import { createHttp } from '../../http';
import type { FieldIssue } from '../../issues';
import { IMAGE_MAX_RESPONSE_BYTES } from '../../image-client';
import type { ImageRequest, ImageResponse } from '../../image-schema';
import { wantedSize } from '../hosted/common';
import { outputBase64 } from '../hosted/download';
import { quoteFrom, round, type HostedBackend } from '../hosted/price';
import type { BackendOptions } from '../options';
import type { BackendKind, ReportedCost } from '../types';
import { REPLICATE_LABEL as LABEL } from './describe';
import { prepareReplicateImages } from './files';
import { DEFAULT_MODELS, KNOWN_MODELS } from './models';
import { outputRefs, runPrediction } from './predictions';
import { REPLICATE_PRICES } from './prices';
import { planReplicate, type ReplicatePlan } from './translate';

export interface ReplicateBackendOptions extends BackendOptions {
  /** How often a prediction is asked about; replicate-javascript's `wait` polls every 500 ms. */
  pollIntervalMs?: number;
}

const CollectionSchema = z.looseObject({ models: z.array(z.looseObject({ owner: z.string(), name: z.string() })) });

/** The API's root: a trailing `/v1` (replicate-javascript's baseUrl ends in it) is taken off and added back per path. */
function serverRoot(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/i, '');
}

/**
 * What a run was billed by, from what Replicate reported: a prediction carries no money, only
 * `metrics.predict_time` (replicate-javascript index.d.ts: `predict_time`, `total_time`). A model
 * run by version (a community model) is billed per second of GPU time, so those seconds are kept
 * as `billed_seconds` (the hardware's rate is not in the answer: no dollars are made up); an
 * official model priced per image in the table is billed per image Replicate returned, so those
 * images at the published price are the cost. An official model not in the table: nothing.
 */
function billing(p: ReplicatePlan, images: number, seconds: number): { billed_seconds?: number; cost?: ReportedCost & { basis: string } } {
  if (p.model.version !== undefined) return seconds > 0 ? { billed_seconds: round(seconds) } : {};
  const entry = REPLICATE_PRICES.get(p.model.ref);
  if (entry?.per !== 'image') return {};
  return { cost: { amountUsd: round(images * entry.usd), reported: true, basis: `${images} image${images === 1 ? '' : 's'} returned by ${LABEL} at $${entry.usd} per image (${entry.source}, ${entry.date})` } };
}

export function createReplicateBackend(options: ReplicateBackendOptions): HostedBackend {
  const http = createHttp({ ...options, baseUrl: serverRoot(options.baseUrl) }, IMAGE_MAX_RESPONSE_BYTES);
  const modelFor = (engine: EngineId) => options.names?.model ?? DEFAULT_MODELS[engine];
  const plan = (engine: EngineId, request: ImageRequest) => planReplicate(engine, request, modelFor(engine));

  function notSent(p: ReplicatePlan, detail: string): ApiError {
    const path = p.model.version === undefined ? `/v1/models/${p.model.ref}/predictions` : '/v1/predictions';
    return new ApiError({ kind: 'http', endpoint: http.endpoint('POST', path), attempts: 0, retryable: false, detail }, http.secrets);
  }

  function refused(p: ReplicatePlan, issues: readonly FieldIssue[]): ApiError {
    return notSent(p, `not sent: ${LABEL} cannot do this request: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`);
  }

  return {
    kind: 'replicate' as BackendKind,
    label: LABEL,
    review: (engine, request) => plan(engine, request).review,

    price(engine, request) {
      const { model } = plan(engine, request).plan;
      const { width, height } = wantedSize(engine, request);
      // Run by version, a model is billed by GPU time; by name, it may be billed per output: not guessed.
      const why = model.version === undefined
        ? `Atelier's table has no price for ${model.ref}: ${LABEL} bills an official model per output and others by GPU time (see https://replicate.com/${model.ref})`
        : `${LABEL} bills ${model.ref} by the second of GPU time it takes (no price per image that Atelier knows); the run reports the seconds`;
      return quoteFrom(REPLICATE_PRICES.get(model.ref), request.num_images ?? 1, width, height, why);
    },

    async generate(engine, request, call = {}): Promise<ImageResponse> {
      const { review, plan: p } = plan(engine, request);
      if (review.refusals.length > 0) throw refused(p, review.refusals);
      if (http.secrets.length === 0) throw notSent(p, `not sent: ${LABEL} needs an API token: set this backend's credential (from replicate.com/account/api-tokens)`);
      call.onProgress?.(0, `sending to ${LABEL}`);
      const inputs = await prepareReplicateImages(http, p.images, call.signal);
      const images: ImageResponse['images'] = [];
      let seconds = 0;
      for (const [i, n] of p.counts.entries()) {
        const prefix = p.counts.length > 1 ? `prediction ${i + 1} of ${p.counts.length}: ` : '';
        const input = { ...p.input, ...inputs, ...(p.input.num_outputs === undefined ? {} : { num_outputs: n }) };
        const prediction = await runPrediction({ http, model: p.model, input, pollMs: options.pollIntervalMs ?? 500, call, prefix });
        seconds += prediction.metrics?.predict_time ?? 0;
        const refs = outputRefs(prediction.output);
        for (const ref of refs) {
          const image_b64 = await outputBase64(ref, { ...(options.fetch === undefined ? {} : { fetch: options.fetch }), maxBytes: IMAGE_MAX_RESPONSE_BYTES, secrets: http.secrets, ...(call.signal === undefined ? {} : { signal: call.signal }) });
          images.push({ image_b64, ...(refs.length === 1 && typeof p.input.seed === 'number' ? { seed: p.input.seed } : {}) });
        }
      }
      if (images.length === 0) {
        throw new ApiError({ kind: 'invalid-response', endpoint: http.endpoint('GET', '/v1/predictions'), attempts: 1, retryable: false, detail: `${LABEL} answered with no images: its safety checker may have removed them; change the prompt or the input image` }, http.secrets);
      }
      call.onProgress?.(1, 'done');
      return { images, ...billing(p, images.length, seconds) };
    },

    async listNames(call = {}) {
      // The text-to-image collection (GET /v1/collections/{slug}) lists the image models Replicate features.
      const body = await http.requestJson({ method: 'GET', path: '/v1/collections/text-to-image', accept: 'application/json' }, CollectionSchema, call.signal === undefined ? {} : { signal: call.signal });
      return { models: [...new Set([...KNOWN_MODELS, ...body.models.map((m) => `${m.owner}/${m.name}`)])] };
    },
  };
}
