/**
 * A test double of AUTOMATIC1111's web API (1.10, as started with `--api`), a real HTTP server on
 * 127.0.0.1, as strict and as lenient as the real one: a field of the wrong type gets FastAPI's
 * 422; an unknown field, sampler, schedule, checkpoint override, VAE or LoRA is quietly replaced
 * or left out (and recorded here, so tests can see it); an unknown refiner is a 500; ControlNet
 * exists only when the extension is said to be installed; `--api-auth` is enforced on the routes
 * the API registers; a generation runs step by step (by the test's hand when `manual`), shows in
 * `/sdapi/v1/progress`, and `/sdapi/v1/interrupt` ends it early with the images so far.
 * Errors have the real body shape `{error, detail, body, errors}`.
 *
 * Source: AUTOMATIC1111/stable-diffusion-webui modules/api/api.py (routes, `api_middleware`,
 * `Api.auth`, `text2imgapi`, `img2imgapi`, `progressapi`, `decode_base64_to_image`),
 * modules/processing.py (`process_images`, `Processed.js`), extensions-builtin/Lora; the
 * ControlNet routes from Mikubill/sd-webui-controlnet scripts/api.py.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runGeneration, type DoubleEvent, type GenerationRecord, type ServerState } from './a1111-generate';
import { IMG2IMG_FIELDS, parseBool, parseModel, TXT2IMG_FIELDS } from './a1111-model';
import { checkpointTitle, SAMPLERS, SCHEDULERS, sdModelsJson, type A1111DoubleOptions, type CheckpointFile } from './a1111-data';

export type { A1111DoubleOptions, CheckpointFile, DoubleEvent, GenerationRecord };

export interface A1111Double {
  url: string;
  events: DoubleEvent[];
  generations: GenerationRecord[];
  /** Lets a manual generation take `count` more steps. */
  step(count?: number): void;
  /** The first event (past or future) that `match` accepts. */
  waitFor<T extends DoubleEvent['type']>(type: T, match?: (event: Extract<DoubleEvent, { type: T }>) => boolean): Promise<Extract<DoubleEvent, { type: T }>>;
  close(): Promise<void>;
}

export const DEFAULT_CHECKPOINTS: CheckpointFile[] = [
  { name: 'sd_xl_base_1.0.safetensors', shorthash: '31e35c80fc' },
  { name: 'sd_xl_refiner_1.0.safetensors', shorthash: '7440042bbd' },
  { name: 'v1-5-pruned-emaonly.safetensors', shorthash: '6ce0161689' },
];

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
};
/** `api_middleware`'s answer to an exception (an HTTPException's text is empty in Starlette 0.26). */
export const exceptionBody = (error: string, detail: string, errors = '') => ({ error, detail, body: '', errors });

/** HTTPBasic, then `Api.auth`: a missing or non-basic header is "Not authenticated". */
function authProblem(header: string | undefined, apiAuth: string): string | undefined {
  const [scheme, param] = (header ?? '').split(' ');
  if (header === undefined || scheme?.toLowerCase() !== 'basic' || param === undefined) return 'Not authenticated';
  const decoded = Buffer.from(param, 'base64').toString('latin1');
  if (!decoded.includes(':') || [...decoded].some((ch) => ch.charCodeAt(0) > 0x7f)) return 'Invalid authentication credentials';
  return apiAuth.split(',').includes(decoded) ? undefined : 'Incorrect username or password';
}

export async function startA1111Double(given: A1111DoubleOptions = {}): Promise<A1111Double> {
  const checkpoints = given.checkpoints ?? DEFAULT_CHECKPOINTS;
  const events: DoubleEvent[] = [];
  const waiters: { type: string; match: (e: never) => boolean; resolve: (e: DoubleEvent) => void }[] = [];
  let allowed = 0;
  let wake: (() => void) | undefined;
  const generations: GenerationRecord[] = [];
  const state: ServerState = {
    options: { ...given, checkpoints },
    loaded: checkpoints.find((c) => checkpointTitle(c) === given.loaded) ?? checkpoints[0]!,
    job: { step: 0, steps: 0, count: 0, no: 0, interrupted: false },
    emit(event) {
      events.push(event);
      for (const w of [...waiters]) {
        if (w.type === event.type && w.match(event as never)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
      }
    },
    nextStep() {
      if (!given.manual) return Promise.resolve();
      if (allowed > 0 || state.job.interrupted) {
        allowed = Math.max(0, allowed - 1);
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => { wake = resolve; });
    },
  };

  const route = async (req: IncomingMessage, body: string, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const path = url.pathname;
    state.emit({ type: 'request', method: req.method ?? '', path, query: url.search, authorization: req.headers.authorization });
    const get = req.method === 'GET';
    // Routes added beside the API (the Lora extension's, ControlNet's) are outside --api-auth.
    const outsideAuth = path === '/sdapi/v1/loras' || path.startsWith('/controlnet/');
    if (given.apiAuth !== undefined && path.startsWith('/sdapi/') && !outsideAuth) {
      const problem = authProblem(req.headers.authorization, given.apiAuth);
      if (problem !== undefined) return json(res, 401, exceptionBody('HTTPException', problem));
    }
    const opts = state.options;
    if (get && path === '/sdapi/v1/sd-models') return json(res, 200, sdModelsJson(checkpoints));
    if (get && path === '/sdapi/v1/samplers') return json(res, 200, SAMPLERS.map((s) => ({ name: s.name, aliases: s.aliases, options: s.scheduler ? { scheduler: s.scheduler } : {} })));
    if (get && path === '/sdapi/v1/schedulers' && !given.before19) {
      return json(res, 200, SCHEDULERS.map((s) => ({ name: s.name, label: s.label, aliases: s.aliases ?? null, default_rho: -1, need_inner_model: false })));
    }
    if (get && path === '/sdapi/v1/sd-vae') return json(res, 200, (opts.vaes ?? []).map((v) => ({ model_name: v, filename: `/models/VAE/${v}` })));
    if (get && path === '/sdapi/v1/loras' && !opts.loraExtensionOff) return json(res, 200, (opts.loras ?? []).map((l) => ({ name: l.name, alias: l.alias ?? l.name, path: `/models/Lora/${l.name}.safetensors`, metadata: {} })));
    if (get && path === '/sdapi/v1/embeddings') {
      const item = { step: null, sd_checkpoint: null, sd_checkpoint_name: null, shape: 768, vectors: 1 };
      const of = (names: string[] = []) => Object.fromEntries(names.map((n) => [n, item]));
      return json(res, 200, { loaded: of(opts.embeddings?.loaded), skipped: of(opts.embeddings?.skipped) });
    }
    if (get && path === '/sdapi/v1/progress') {
      const raw = url.searchParams.get('skip_current_image');
      if (raw !== null && parseBool(raw) === undefined) {
        return json(res, 422, { detail: [{ loc: ['query', 'skip_current_image'], msg: 'value could not be parsed to a boolean', type: 'type_error.bool' }] });
      }
      const { job } = state;
      const stateDict = { skipped: false, interrupted: job.interrupted, stopping_generation: false, job: job.count > 0 ? 'scripts_txt2img' : '', job_count: job.count, job_timestamp: '20260101000000', job_no: job.no, sampling_step: job.step, sampling_steps: job.steps };
      const progress = job.count === 0 ? 0 : Math.min(1, 0.01 + job.no / job.count + (job.steps > 0 ? (1 / job.count) * (job.step / job.steps) : 0));
      const answer = { progress, eta_relative: 0, state: stateDict, current_image: null, textinfo: null };
      state.emit({ type: 'progress', body: answer });
      return json(res, 200, answer);
    }
    if (req.method === 'POST' && path === '/sdapi/v1/interrupt') {
      state.job.interrupted = true;
      const waiting = wake;
      wake = undefined;
      waiting?.();
      state.emit({ type: 'interrupt' });
      return json(res, 200, {});
    }
    if (req.method === 'POST' && (path === '/sdapi/v1/txt2img' || path === '/sdapi/v1/img2img')) {
      const route = path.endsWith('txt2img') ? 'txt2img' : 'img2img';
      const parsed = parseModel(body, route === 'txt2img' ? TXT2IMG_FIELDS : IMG2IMG_FIELDS);
      if (!parsed.ok) return json(res, 422, { detail: parsed.issues });
      const outcome = await runGeneration(state, route, parsed.fields, parsed.ignored, generations);
      return json(res, outcome.status, outcome.body);
    }
    if (opts.controlnetModels !== undefined && get && path === '/controlnet/model_list') return json(res, 200, { model_list: opts.controlnetModels });
    if (opts.controlnetModels !== undefined && get && path === '/controlnet/module_list') return json(res, 200, { module_list: ['none', 'canny', 'depth', 'openpose'], module_detail: {} });
    return json(res, 404, { detail: 'Not Found' });
  };

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      route(req, Buffer.concat(parts).toString('utf8'), res).catch((error: unknown) => {
        if (!res.headersSent) json(res, 500, exceptionBody((error as Error).name, '', String((error as Error).message)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    events,
    generations,
    step(count = 1) {
      allowed += count;
      if (wake !== undefined && allowed > 0) {
        allowed--;
        const w = wake;
        wake = undefined;
        w();
      }
    },
    waitFor(type, match = () => true) {
      const past = events.find((e) => e.type === type && match(e as never));
      if (past !== undefined) return Promise.resolve(past as never);
      return new Promise((resolve) => waiters.push({ type, match: match as (e: never) => boolean, resolve: resolve as (e: DoubleEvent) => void }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
