/**
 * fal as a backend: each engine's model (a setting, per engine) runs through fal's queue
 * (queue.ts), input images go as data URIs or, when large, through fal's storage (uploads.ts),
 * answers come back as data URIs (`sync_mode`) or CDN URLs fetched without the key. An image
 * fal's safety checker flags (`has_nsfw_concepts`) is never returned as the picture. What each
 * field becomes is translate.ts's; models.ts holds the table of models.
 */
import { z } from 'zod';
import type { EngineId } from '../../catalog';
import { ApiError } from '../../errors';
import { createHttp } from '../../http';
import type { FieldIssue } from '../../issues';
import { IMAGE_MAX_RESPONSE_BYTES } from '../../image-client';
import type { ImageRequest, ImageResponse } from '../../image-schema';
import { outputBase64 } from '../hosted/download';
import { quoteFrom, round, type HostedBackend } from '../hosted/price';
import { wantedSize } from '../hosted/common';
import type { BackendOptions } from '../options';
import type { BackendKind, ReportedCost } from '../types';
import { FAL_LABEL as LABEL } from './describe';
import { DEFAULT_MODELS, KNOWN_MODELS } from './models';
import { FAL_PRICES } from './prices';
import { runQueued, type FalOutput } from './queue';
import { planFal, type FalPlan } from './translate';
import { prepareFalImages, UPLOAD_OVER_BYTES } from './uploads';

export interface FalBackendOptions extends BackendOptions {
  /** How often a queued request's status is asked for; 500 ms, as fal-js polls. */
  pollIntervalMs?: number;
  /** Input images larger than this go through fal's storage instead of a data URI. */
  uploadOverBytes?: number;
}

const ModelListSchema = z.looseObject({ models: z.array(z.looseObject({ endpoint_id: z.string() })) });

/** fal's other hosts for its own base URL; any other base URL (a proxy, a test double) serves all. */
function hostFor(baseUrl: string, host: 'rest.fal.ai' | 'api.fal.ai'): string {
  const url = new URL(baseUrl);
  return url.host === 'queue.fal.run' ? `https://${host}` : baseUrl;
}

/**
 * The money of a request from what fal reported: the billable units of its answers at the
 * endpoint's published price per unit (the table's, in fal's unit: a megapixel for FLUX). Without
 * the units or without a price, nothing: the quote before the run stays an estimate.
 */
function reportedCost(endpoint: string, units: number | undefined): { cost?: ReportedCost & { basis: string } } {
  const entry = FAL_PRICES.get(endpoint);
  if (units === undefined || entry === undefined) return {};
  return { cost: { amountUsd: round(units * entry.usd), reported: true, basis: `${units} billable ${entry.per}${units === 1 ? '' : 's'} reported by ${LABEL} (x-fal-billable-units) at $${entry.usd} per ${entry.per} (${entry.source}, ${entry.date})` } };
}

export function createFalBackend(options: FalBackendOptions): HostedBackend {
  const auth = { ...options, auth: 'key' as const };
  const queue = createHttp(auth, IMAGE_MAX_RESPONSE_BYTES);
  const rest = createHttp({ ...auth, baseUrl: hostFor(options.baseUrl, 'rest.fal.ai') }, IMAGE_MAX_RESPONSE_BYTES);
  const platform = createHttp({ ...auth, baseUrl: hostFor(options.baseUrl, 'api.fal.ai') }, 16 * 1024 * 1024);
  const modelFor = (engine: EngineId) => options.names?.model ?? DEFAULT_MODELS[engine];
  const plan = (engine: EngineId, request: ImageRequest) => planFal(engine, request, modelFor(engine), options.names);

  function notSent(endpoint: string, detail: string, attempts = 0): ApiError {
    return new ApiError({ kind: 'http', endpoint: queue.endpoint('POST', `/${endpoint}`), attempts, retryable: false, detail }, queue.secrets);
  }

  function refused(p: FalPlan, issues: readonly FieldIssue[]): ApiError {
    return notSent(p.endpoint, `not sent: ${LABEL} cannot do this request: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`);
  }

  async function images(output: FalOutput, n: number, call: { signal?: AbortSignal }): Promise<{ kept: ImageResponse['images']; flagged: number }> {
    const kept: ImageResponse['images'] = [];
    let flagged = 0;
    for (const [i, image] of output.images.entries()) {
      // The checker's verdict, image by image: a flagged picture is blacked out by fal, never the picture asked for.
      if (output.has_nsfw_concepts?.[i] === true) {
        flagged++;
        continue;
      }
      const image_b64 = await outputBase64(image.url, { ...(options.fetch === undefined ? {} : { fetch: options.fetch }), maxBytes: IMAGE_MAX_RESPONSE_BYTES, secrets: queue.secrets, ...(call.signal === undefined ? {} : { signal: call.signal }) });
      kept.push({ image_b64, ...(n === 1 && output.seed !== undefined ? { seed: output.seed } : {}) });
    }
    return { kept, flagged };
  }

  return {
    kind: 'fal' as BackendKind,
    label: LABEL,
    review: (engine, request) => plan(engine, request).review,

    price(engine, request) {
      const p = plan(engine, request).plan;
      const { width, height } = wantedSize(engine, request);
      return quoteFrom(FAL_PRICES.get(p.endpoint), request.num_images ?? 1, width, height, `${LABEL} publishes no fixed price for ${p.endpoint} that Atelier knows: it bills by the GPU time a request takes`);
    },

    async generate(engine, request, call = {}): Promise<ImageResponse> {
      const { review, plan: p } = plan(engine, request);
      if (review.refusals.length > 0) throw refused(p, review.refusals);
      if (queue.secrets.length === 0) throw notSent(p.endpoint, `not sent: ${LABEL} needs an API key: set this backend's credential (a fal key, from fal.ai/dashboard/keys)`);
      call.onProgress?.(0, `sending to ${LABEL}`);
      const inputs = await prepareFalImages(p.images, { rest, uploadOverBytes: options.uploadOverBytes ?? UPLOAD_OVER_BYTES, ...(call.signal === undefined ? {} : { signal: call.signal }), ...(options.fetch === undefined ? {} : { fetch: options.fetch }) });
      const out: ImageResponse['images'] = [];
      let flagged = 0;
      // Units billed, summed while every answer says them: a partial sum would read as the whole.
      let units: number | undefined = 0;
      for (const [i, n] of p.counts.entries()) {
        const prefix = p.counts.length > 1 ? `request ${i + 1} of ${p.counts.length}: ` : '';
        const { output, billableUnits } = await runQueued({ http: queue, endpoint: p.endpoint, input: { ...p.input, ...inputs, num_images: n }, pollMs: options.pollIntervalMs ?? 500, call, prefix });
        units = units === undefined || billableUnits === undefined ? undefined : units + billableUnits;
        const got = await images(output, n, call);
        out.push(...got.kept);
        flagged += got.flagged;
      }
      if (out.length === 0) {
        throw notSent(p.endpoint, `${LABEL}'s safety checker flagged ${flagged === 1 ? 'the image' : `all ${flagged} images`} (has_nsfw_concepts), so none is kept; sending it again will not help, change the prompt or the input image`, 1);
      }
      call.onProgress?.(1, flagged > 0 ? `done; ${flagged} image${flagged === 1 ? '' : 's'} flagged by ${LABEL}'s safety checker left out` : 'done');
      return { images: out, ...(flagged > 0 ? { safety_flagged: flagged } : {}), ...reportedCost(p.endpoint, units) };
    },

    async listNames(call = {}) {
      // fal's Platform API lists its models (https://docs.fal.ai/platform-apis/v1/models).
      const body = await platform.requestJson({ method: 'GET', path: '/v1/models?category=text-to-image&status=active', accept: 'application/json' }, ModelListSchema, call.signal === undefined ? {} : { signal: call.signal });
      return { models: [...new Set([...KNOWN_MODELS, ...body.models.map((m) => m.endpoint_id)])] };
    },
  };
}
