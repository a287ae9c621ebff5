/**
 * OpenAI Images, and servers that speak its API, as a backend: text to image through
 * `POST /v1/images/generations` (JSON), image to image, inpainting and subject transfer through
 * `POST /v1/images/edits` (multipart/form-data), model names from `GET /v1/models`. What each
 * field becomes is plan.ts's; the base URL is the server's root (`https://api.openai.com`,
 * `http://127.0.0.1:8080`) and `/v1` is added, as the openai SDK's default base URL ends in it; a
 * base URL that already ends in `/v1` is taken as well.
 */
import { z } from 'zod';
import { ApiError } from '../../errors';
import { createHttp, type RequestSpec } from '../../http';
import type { FieldIssue } from '../../issues';
import { IMAGE_MAX_RESPONSE_BYTES } from '../../image-client';
import type { ImageResponse } from '../../image-schema';
import type { BackendOptions } from '../options';
import type { ImageBackend, ImageCallOptions } from '../types';
import { openaiDescription } from './describe';
import { explainError, isModelError } from './errors';
import { DEFAULT_MODEL, isOpenAIImageModel } from './models';
import { GENERATIONS_PATH, planRequest, type OpenAIPlan } from './plan';
import { prepareUploads, toForm, UploadError, type Uploads } from './uploads';

const LABEL = openaiDescription.label;

const ImagesResponseSchema = z.looseObject({
  created: z.number(),
  data: z.array(z.looseObject({
    b64_json: z.string().optional(),
    url: z.string().optional(),
    revised_prompt: z.string().optional(),
  })).optional(),
});

const ModelsResponseSchema = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })) });

/** The server's root: a trailing `/v1` (the openai SDK's way of writing it) is taken off and added back per path. */
function serverRoot(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '').replace(/\/v1$/i, '');
}

export function createOpenAIImagesBackend(options: BackendOptions): ImageBackend {
  const model = options.names?.model ?? DEFAULT_MODEL;
  const http = createHttp({ ...options, baseUrl: serverRoot(options.baseUrl) }, IMAGE_MAX_RESPONSE_BYTES);

  async function listModels(signal?: AbortSignal): Promise<string[]> {
    const body = await http.requestJson({ method: 'GET', path: '/v1/models', accept: 'application/json' }, ModelsResponseSchema, { ...(signal === undefined ? {} : { signal }) });
    const ids = body.data.map((m) => m.id).sort();
    const images = ids.filter(isOpenAIImageModel);
    return images.length > 0 ? images : ids;
  }

  function refused(plan: OpenAIPlan, issues: readonly FieldIssue[]): ApiError {
    return new ApiError({
      kind: 'http', endpoint: http.endpoint('POST', plan.path), attempts: 0, retryable: false,
      detail: `not sent: ${LABEL} cannot do this request: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
    }, http.secrets);
  }

  async function send(plan: OpenAIPlan, uploads: Uploads, n: number, call: ImageCallOptions) {
    const body = plan.path === GENERATIONS_PATH ? { ...plan.fields, n } : toForm(plan, uploads, n);
    const spec: RequestSpec = { method: 'POST', path: plan.path, body, accept: 'application/json' };
    const response = await http.requestJson(spec, ImagesResponseSchema, {
      ...(call.signal === undefined ? {} : { signal: call.signal }),
      ...(call.onRetry === undefined ? {} : { onRetry: call.onRetry }),
      mapError: async (error) => {
        const models = isModelError(error) ? await listModels(call.signal).catch(() => undefined) : undefined;
        return explainError(error, plan, http.secrets, models, options.pageOrigin);
      },
    });
    const data = response.data ?? [];
    if (data.length === 0 || data.some((d) => d.b64_json === undefined)) {
      const urls = data.some((d) => d.url !== undefined);
      throw new ApiError({
        kind: 'invalid-response', endpoint: http.endpoint('POST', plan.path), attempts: 1, retryable: false, status: 200,
        detail: urls
          ? 'the server answered with image URLs instead of base64 images (b64_json): it ignores response_format, and Atelier does not download from URLs'
          : `${LABEL} answered with no images`,
      }, http.secrets);
    }
    return data.map((d) => ({ image_b64: d.b64_json!, ...(d.revised_prompt === undefined ? {} : { revised_prompt: d.revised_prompt }) }));
  }

  return {
    kind: 'openai',
    label: LABEL,
    review: (engine, request) => planRequest(engine, request, model).review,

    async generate(engine, request, call = {}): Promise<ImageResponse> {
      const { review, plan } = planRequest(engine, request, model);
      if (review.refusals.length > 0) throw refused(plan, review.refusals);
      const uploads = await prepareUploads(plan).catch((error: unknown) => {
        throw error instanceof UploadError ? refused(plan, [{ path: error.field, message: error.message }]) : error;
      });
      const total = plan.counts.length;
      call.onProgress?.(0, `waiting for ${LABEL}`);
      const images: ImageResponse['images'] = [];
      for (const [i, n] of plan.counts.entries()) {
        images.push(...await send(plan, uploads, n, call));
        call.onProgress?.((i + 1) / total, total > 1 ? `request ${i + 1} of ${total} done` : 'done');
      }
      return { images };
    },

    async listNames(call = {}) {
      return { models: await listModels(call.signal) };
    },
  };
}
