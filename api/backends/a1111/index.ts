/**
 * AUTOMATIC1111's web API (and Forge's, which keeps it) as a backend: `/sdapi/v1/txt2img` and
 * `/img2img`, progress by polling `/sdapi/v1/progress`, cancel by `/sdapi/v1/interrupt`, HTTP
 * basic authentication for a server started with `--api-auth user:password`.
 *
 * `review` translates from the request alone (translate.ts). `generate` then asks the server
 * whether it has every name the request needs (check.ts), since it would otherwise quietly use
 * something else, and only then sends it.
 */
import { readBody } from '../../exchange';
import { createHttp, type RequestOptions } from '../../http';
import { IMAGE_MAX_RESPONSE_BYTES } from '../../image-client';
import type { ImageResponse } from '../../image-schema';
import { ApiError } from '../../errors';
import { withRetries } from '../../retry';
import { elideImage, elideImages } from '../elide';
import type { BackendOptions } from '../options';
import type { BackendNames, ImageBackend, ImageCallOptions } from '../types';
import { a1111Description } from './describe';
import { checkNames } from './check';
import { missingFromLists } from './listed';
import { describeError, refusal, type ErrorContext } from './errors';
import { checkpointLabel, createServerLists } from './lists';
import { pollProgress } from './progress';
import { GenerationInfoSchema, GenerationSchema, ProgressSchema, SamplersSchema } from './schemas';
import { needsOf } from '../pool/placement';
import { translate, type Translation } from './translate';

export interface A1111Options extends BackendOptions {
  /** How often progress is asked for while a generation runs; 1000 ms by default. */
  progressIntervalMs?: number;
}

/**
 * The wait for a generation's answer, which starts only once every image is made: a home GPU can
 * take many minutes over a large batch with a refiner, and progress shows meanwhile that it works.
 */
const GENERATION_HEADERS_MS = 30 * 60_000;
const LABEL = a1111Description.label;

export function createA1111Backend(options: A1111Options): ImageBackend {
  const config = { ...options, auth: 'basic' as const };
  const http = createHttp(config, IMAGE_MAX_RESPONSE_BYTES);
  const generation = createHttp({ ...config, timeouts: { headersMs: GENERATION_HEADERS_MS, ...options.timeouts } }, IMAGE_MAX_RESPONSE_BYTES);
  const lists = createServerLists(http);
  const { secrets } = http;
  const origin = new URL(options.baseUrl.trim()).origin;
  const credential = (options.token ?? '').trim() !== '';
  const context = (t?: Translation): ErrorContext => {
    const page = options.pageOrigin === undefined ? {} : { pageOrigin: options.pageOrigin };
    if (t === undefined) return { origin, credential, secrets, ...page };
    const { batch_size: n, width, height } = t.payload as { batch_size: number; width: number; height: number };
    return { origin, credential, secrets, ...page, asked: `${n} image${n === 1 ? '' : 's'} of ${width}×${height}` };
  };

  /** Stops whatever the server is running: its interrupt has no job id. Failures are not reported. */
  async function interrupt(): Promise<void> {
    try {
      const exchange = await http.open({ method: 'POST', path: '/sdapi/v1/interrupt', accept: 'application/json' }, 1);
      exchange.close();
    } catch {
      // The cancel itself has happened (the request is aborted); the interrupt only saves GPU time.
    }
  }

  async function send(t: Translation, path: string, call: ImageCallOptions): Promise<ImageResponse> {
    const ctx = context(t);
    const { signal } = call;
    let sent = false;
    const onAbort = () => { if (sent) void interrupt(); };
    signal?.addEventListener('abort', onAbort, { once: true });
    const polling = call.onProgress === undefined ? undefined : pollProgress(http, options.progressIntervalMs ?? 1000, call.onProgress);
    try {
      const body = await withRetries(async (attempt) => {
        try {
          sent = true;
          const exchange = await generation.open({ method: 'POST', path, body: t.payload, accept: 'application/json' }, attempt, signal);
          return generation.parseJson(exchange, await readBody(exchange, IMAGE_MAX_RESPONSE_BYTES, 'refuse', secrets), GenerationSchema);
        } catch (error) {
          throw describeError(error, ctx, true);
        }
      }, generation.policy, signal, secrets, call.onRetry);
      return imagesOf(body, t.payload.batch_size as number, generation.endpoint('POST', path));
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await polling?.stop();
    }
  }

  function imagesOf(body: { images: string[] | null; info: string }, count: number, endpoint: string): ImageResponse {
    let info: { all_seeds?: number[]; index_of_first_image?: number } = {};
    try {
      const parsed = GenerationInfoSchema.safeParse(JSON.parse(body.info));
      if (parsed.success) info = parsed.data;
    } catch {
      // Seeds are a nicety: the images stand without them.
    }
    const first = info.index_of_first_image ?? 0;
    const images = (body.images ?? []).slice(first, first + count);
    if (images.length === 0) {
      throw new ApiError({ kind: 'invalid-response', endpoint, attempts: 1, retryable: false, status: 200, detail: 'AUTOMATIC1111 answered without images' }, secrets);
    }
    return {
      images: images.map((image_b64, i) => {
        const seed = info.all_seeds?.[i];
        return seed === undefined || !Number.isInteger(seed) ? { image_b64 } : { image_b64, seed };
      }),
    };
  }

  return {
    kind: 'a1111',
    label: LABEL,
    review(engine, request) {
      const t = translate(engine, request, options.names, elideImage);
      return {
        backend: 'a1111', label: LABEL, refusals: [...t.refusals, ...missingFromLists(engine, t.needs, options.listed)], notes: t.notes,
        translated: { path: `/sdapi/v1/${t.route}`, body: elideImages(t.payload) },
      };
    },
    async generate(engine, request, call = {}) {
      const t = translate(engine, request, options.names);
      const path = `/sdapi/v1/${t.route}`;
      const endpoint = generation.endpoint('POST', path);
      if (t.refusals.length > 0) throw refusal(endpoint, t.refusals, secrets);
      const asking: RequestOptions = { signal: call.signal, onRetry: call.onRetry };
      let issues;
      try {
        issues = await checkNames(t, lists, asking);
      } catch (error) {
        throw describeError(error, context(t), false);
      }
      if (issues.length > 0) throw refusal(endpoint, issues, secrets);
      return send(t, path, call);
    },
    placementNeeds(engine, request) {
      const { needs } = translate(engine, request, options.names, elideImage);
      return needsOf([
        ...[needs.checkpoint, needs.refiner].flatMap((n) => (n === undefined ? [] : [{ list: 'checkpoints', name: n.name }])),
        ...needs.loras.map((n) => ({ list: 'loras', name: n.name })),
        ...(needs.controlnet === undefined ? [] : [{ list: 'controlnets', name: needs.controlnet.name }]),
      ]);
    },
    /** AUTOMATIC1111 runs one job at a time and shows no queue: busy (job_count above 0) counts as 1. */
    async serverQueue(call = {}) {
      try {
        const answer = await http.requestJson({ method: 'GET', path: '/sdapi/v1/progress?skip_current_image=true', accept: 'application/json' }, ProgressSchema, call);
        return (answer.state.job_count ?? 0) > 0 ? 1 : 0;
      } catch (error) {
        throw describeError(error, context(), false);
      }
    },
    async listNames(call = {}): Promise<BackendNames> {
      const get = (path: string) => http.requestJson({ method: 'GET', path, accept: 'application/json' }, SamplersSchema, call);
      const [checkpoints, samplers, loras, vaes, embeddings, controlnets] = await Promise.allSettled([
        lists.checkpoints(call), get('/sdapi/v1/samplers'), lists.loras(call), lists.vaes(call), lists.embeddings(call), lists.controlnets(call),
      ]);
      if (checkpoints.status === 'rejected') throw describeError(checkpoints.reason, context(), false);
      const value = <T>(result: PromiseSettledResult<T>): T | undefined => (result.status === 'fulfilled' ? result.value : undefined);
      const names: BackendNames = { checkpoints: checkpoints.value.map(checkpointLabel) };
      const found = {
        samplers: value(samplers)?.map((s) => s.name),
        // A LoRA answers to its alias in a prompt too (check.ts), so both are names it has.
        loras: value(loras)?.flatMap((l) => (l.alias && l.alias !== l.name ? [l.name, l.alias] : [l.name])),
        vaes: value(vaes),
        embeddings: ((e) => (e === undefined ? undefined : [...e.loaded, ...e.skipped]))(value(embeddings)),
        controlnets: value(controlnets),
      };
      for (const [key, list] of Object.entries(found)) if (list !== undefined) names[key as keyof BackendNames] = list;
      return names;
    },
  };
}
