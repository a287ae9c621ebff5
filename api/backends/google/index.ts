/**
 * Google's Gemini API as an image backend: each image is one
 * `POST /v1beta/models/{model}:generateContent` on a Gemini image model (gemini-2.5-flash-image by
 * default), and `GET /v1beta/models` lists the image models for the settings. Plain fetch, no SDK;
 * the API key goes in the `x-goog-api-key` header, never in a URL. What each field becomes is
 * plan.ts's; errors are errors.ts's; reading an answer (and refusing one without an image) is
 * response.ts's; money is prices.ts's.
 *
 * The base URL is the API's root, `https://generativelanguage.googleapis.com` (the official SDK's
 * `httpOptions.baseUrl`); a base URL ending in `/v1beta` is taken as well.
 */
import { z } from 'zod';
import { ApiError } from '../../errors';
import { createHttp } from '../../http';
import type { FieldIssue } from '../../issues';
import { IMAGE_MAX_RESPONSE_BYTES } from '../../image-client';
import type { ImageResponse } from '../../image-schema';
import type { BackendOptions } from '../options';
import type { ImageBackend, ImageCallOptions } from '../types';
import { explainError, isModelNotFound } from './errors';
import { LABEL } from './label';
import { bareModelId, DEFAULT_MODEL, isGeminiImageModel } from './models';
import { planRequest, type GeminiPlan } from './plan';
import { costOfUsage, quoteImage, type ReportedCost } from './prices';
import { GenerateContentResponseSchema, readImages } from './response';

const ModelListSchema = z.looseObject({
  models: z.array(z.looseObject({ name: z.string(), supportedGenerationMethods: z.array(z.string()).optional() })).optional(),
  nextPageToken: z.string().optional(),
});

/** Pages of `GET /v1beta/models` read at most (the API lists about fifty models a page of 1000 holds). */
const MAX_MODEL_PAGES = 5;

/** The API's root: a trailing `/v1beta` is taken off (paths add it). A key in the URL is refused. */
function apiRoot(baseUrl: string): string {
  const trimmed = baseUrl.trim();
  if (/[?&](key|api_key)=/i.test(trimmed)) {
    throw new TypeError('the Google backend\'s base URL must not carry an API key (?key=…): a URL ends up in logs and history. Set the key as the backend\'s credential; it is sent in the x-goog-api-key header');
  }
  return trimmed.replace(/\/+$/, '').replace(/\/v1beta$/i, '');
}

/** The Gemini model each engine runs: the settings' model, or the default. */
function modelFor(options: BackendOptions): string {
  return bareModelId(options.names?.model ?? DEFAULT_MODEL);
}

export function createGoogleBackend(options: BackendOptions): ImageBackend & Required<Pick<ImageBackend, 'price'>> {
  const model = modelFor(options);
  const http = createHttp({ ...options, baseUrl: apiRoot(options.baseUrl), auth: { header: 'x-goog-api-key' } }, IMAGE_MAX_RESPONSE_BYTES);

  async function listModels(signal?: AbortSignal): Promise<string[]> {
    const names: string[] = [];
    let token: string | undefined;
    for (let page = 0; page < MAX_MODEL_PAGES; page++) {
      const query = `pageSize=1000${token === undefined ? '' : `&pageToken=${encodeURIComponent(token)}`}`;
      const body = await http.requestJson({ method: 'GET', path: `/v1beta/models?${query}`, accept: 'application/json' }, ModelListSchema, signal === undefined ? {} : { signal });
      for (const m of body.models ?? []) {
        if (m.supportedGenerationMethods?.includes('generateContent') !== false && isGeminiImageModel(m.name)) names.push(bareModelId(m.name));
      }
      token = body.nextPageToken;
      if (token === undefined || token === '') break;
    }
    return names.sort();
  }

  function refused(plan: GeminiPlan, issues: readonly FieldIssue[]): ApiError {
    return new ApiError({
      kind: 'http', endpoint: http.endpoint('POST', plan.path), attempts: 0, retryable: false,
      detail: `not sent: ${LABEL} cannot do this request: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
    }, http.secrets);
  }

  async function sendOne(plan: GeminiPlan, call: ImageCallOptions) {
    const response = await http.requestJson({ method: 'POST', path: plan.path, body: plan.body, accept: 'application/json' }, GenerateContentResponseSchema, {
      ...(call.signal === undefined ? {} : { signal: call.signal }),
      ...(call.onRetry === undefined ? {} : { onRetry: call.onRetry }),
      mapError: async (error) => {
        const models = isModelNotFound(error) ? await listModels(call.signal).catch(() => undefined) : undefined;
        return explainError(error, plan, http.secrets, models);
      },
    });
    return { images: readImages(response, http.endpoint('POST', plan.path), http.secrets), cost: costOfUsage(plan.model, response.usageMetadata) };
  }

  return {
    kind: 'google',
    label: LABEL,
    review: (engine, request) => planRequest(engine, request, model).review,

    price(engine, request) {
      const { review, plan } = planRequest(engine, request, model);
      if (review.refusals.length > 0) return { known: false, why: 'the request is refused before sending' };
      return quoteImage(plan.model, plan.size);
    },

    async generate(engine, request, call = {}): Promise<ImageResponse> {
      const { review, plan } = planRequest(engine, request, model);
      if (review.refusals.length > 0) throw refused(plan, review.refusals);
      call.onProgress?.(0, `waiting for ${LABEL}`);
      const images: ImageResponse['images'] = [];
      const costs: (ReportedCost | undefined)[] = [];
      for (let i = 0; i < plan.count; i++) {
        const one = await sendOne(plan, call);
        images.push(...one.images.map((image) => ({ image_b64: image.image_b64 })));
        costs.push(one.cost);
        call.onProgress?.((i + 1) / plan.count, plan.count > 1 ? `image ${i + 1} of ${plan.count} done` : 'done');
      }
      // Money only when every request reported its usage: a partial sum would read as the whole.
      const reported = costs.every((c) => c !== undefined) ? costs as ReportedCost[] : [];
      if (reported.length === 0) return { images };
      const amountUsd = reported.reduce((sum, c) => sum + c.amountUsd, 0);
      return { images, cost: { amountUsd, reported: true, basis: reported.length === 1 ? reported[0]!.basis : `${reported.length} requests; first: ${reported[0]!.basis}` } };
    },

    async listNames(call = {}) {
      return { models: await listModels(call.signal) };
    },
  };
}
