/**
 * A test double of fal's queue API on 127.0.0.1 and a free port, written from fal's queue docs
 * (https://docs.fal.ai/model-endpoints/queue) and its JS client (fal-ai/fal-js src/queue.ts,
 * request.ts, response.ts, storage.ts): `POST /{endpoint}` (submit, `{request_id, response_url,
 * status_url, cancel_url}`), `GET /{app}/requests/{id}/status?logs=0|1` (202 while `IN_QUEUE` with
 * `queue_position` or `IN_PROGRESS` with `logs`, 200 `COMPLETED`), `GET /{app}/requests/{id}`
 * (the result, or the model's 422 for an input it refuses), `PUT /{app}/requests/{id}/cancel`
 * (202 `CANCELLATION_REQUESTED`, 400 `ALREADY_COMPLETED`), where `{app}` is the endpoint's
 * owner/alias without its sub-path; storage (`POST /storage/upload/initiate`, `PUT` to the signed
 * URL), the Platform API's `GET /v1/models`, and `Authorization: Key <key>` (anything else: 401).
 * Each status poll moves a request one step (queue positions counting down, then steps in its
 * logs), so tests never wait on a clock. A prompt matching `flagPrompts` comes back flagged by the
 * safety checker (`has_nsfw_concepts`, a black image), as fal answers it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { listenOnLoopback, sendJson } from '../misbehaving-server';
import { renderImages } from './openai-images-files';
import { checkInput } from './hosted-schema';
import { FAL_ENDPOINTS, formatOf } from './fal-models';

export interface FalReceived {
  method: string;
  path: string;
  authorization: string | undefined;
  body?: unknown;
  /** Input fields the endpoint does not define (a translation bug when any). */
  unknownFields?: string[];
}

interface Job {
  id: string;
  endpoint: string;
  app: string;
  input: Record<string, unknown>;
  polls: number;
  state: 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'CANCELLED';
  result?: { status: number; body: unknown; units?: number };
}

/**
 * Endpoints fal bills by the megapixel (https://fal.ai/pricing): their result carries the units
 * billed in `x-fal-billable-units` (the header a fal app reports its units in, docs.fal.ai
 * "Define billable units"), each image's megapixels rounded up. Others bill by GPU time: no header.
 */
const MEGAPIXEL_BILLED = new Set(['fal-ai/flux/dev', 'fal-ai/flux/schnell']);

export interface FalDoubleOptions {
  apiKey?: string;
  /** Status polls a request spends in the queue (its position counting down to 0). */
  queuePolls?: number;
  /** Status polls it spends in progress, its logs showing a step each. */
  progressPolls?: number;
  /** Prompts that fal's safety checker flags. */
  flagPrompts?: RegExp;
  /** Requests stay first in the queue (position `queuePolls`), however often polled, until `release()`. */
  holdQueue?: boolean;
}

export interface FalDouble {
  url: string;
  apiKey: string;
  received: FalReceived[];
  jobs: Job[];
  uploads: Map<string, { type: string; bytes: Buffer }>;
  /** Answers the next submits with these (status, detail body, headers), in order. */
  failNext(...answers: { status: number; body: unknown; headers?: Record<string, string> }[]): void;
  /** Lets held requests (`holdQueue`) move through the queue. */
  release(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

/** `owner/alias` of an endpoint id (fal-js parseEndpointId). */
const appOf = (endpoint: string) => endpoint.split('/').slice(0, 2).join('/');

async function inputImage(value: unknown, uploads: FalDouble['uploads'], origin: string): Promise<Buffer | undefined> {
  if (typeof value !== 'string') return undefined;
  const data = /^data:[^,]*;base64,(.*)$/s.exec(value);
  if (data !== null) return Buffer.from(data[1]!, 'base64');
  const file = value.startsWith(`${origin}/files/`) ? uploads.get(value.slice(origin.length + 7)) : undefined;
  return file?.bytes;
}

export async function startFalDouble(options: FalDoubleOptions = {}): Promise<FalDouble> {
  const apiKey = options.apiKey ?? 'fal-key-id:fal-key-secret-0123456789';
  const received: FalReceived[] = [];
  const jobs: Job[] = [];
  const uploads = new Map<string, { type: string; bytes: Buffer }>();
  const failures: { status: number; body: unknown; headers?: Record<string, string> }[] = [];
  const counter = { made: 0 };
  let origin = '';
  let held = options.holdQueue === true;

  async function finish(job: Job): Promise<void> {
    const endpoint = FAL_ENDPOINTS.get(job.endpoint)!;
    const { problems } = checkInput(endpoint.schema, job.input);
    for (const field of ['image_url', 'mask_url', 'control_image_url']) {
      if (job.input[field] === undefined || problems.some((p) => p.field === field)) continue;
      const bytes = await inputImage(job.input[field], uploads, origin);
      const ok = bytes !== undefined && await sharp(bytes).metadata().then(() => true, () => false);
      if (!ok) problems.push({ field, msg: 'could not load the image from the given URL or data URI', type: 'image_load_error' });
    }
    if (problems.length > 0) {
      job.result = { status: 422, body: { detail: problems.map((p) => ({ loc: ['body', p.field], msg: p.msg, type: p.type })) } };
      return;
    }
    const n = typeof job.input.num_images === 'number' ? job.input.num_images : 1;
    const sized = job.input.image_size as { width?: number; height?: number } | undefined;
    const dims = { width: Math.min(sized?.width ?? 1024, 1536), height: Math.min(sized?.height ?? 1024, 1536) };
    const format = formatOf(job.endpoint, job.input);
    const flagged = options.flagPrompts?.test(String(job.input.prompt)) === true;
    const b64s = flagged
      ? await Promise.all(Array.from({ length: n }, async () => (await sharp({ create: { ...dims, channels: 3, background: '#000' } })[format]().toBuffer()).toString('base64')))
      : await renderImages(String(job.input.prompt), n, dims, format, counter);
    const mime = format === 'png' ? 'image/png' : 'image/jpeg';
    const images = b64s.map((b64, i) => {
      if (job.input.sync_mode === true) return { url: `data:${mime};base64,${b64}`, width: dims.width, height: dims.height, content_type: mime };
      const id = `${job.id}-${i}.${format}`;
      uploads.set(id, { type: mime, bytes: Buffer.from(b64, 'base64') });
      return { url: `${origin}/files/${id}`, width: dims.width, height: dims.height, content_type: mime };
    });
    const seed = typeof job.input.seed === 'number' ? job.input.seed : 4242;
    const units = MEGAPIXEL_BILLED.has(job.endpoint) ? n * Math.max(1, Math.ceil((dims.width * dims.height) / 1e6)) : undefined;
    job.result = { status: 200, body: { images, timings: { inference: 0.5 }, seed, has_nsfw_concepts: images.map(() => flagged), prompt: job.input.prompt }, ...(units === undefined ? {} : { units }) };
  }

  function urls(job: Job) {
    const base = `${origin}/${job.app}/requests/${job.id}`;
    return { request_id: job.id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const path = decodeURIComponent(url.pathname).replace(/^\//, '');
    const raw = await readBody(req);
    const record: FalReceived = { method: req.method ?? '', path: url.pathname + url.search, authorization: req.headers.authorization };
    received.push(record);
    // The signed upload URL and the files it makes need no key, as fal's CDN.
    if (req.method === 'PUT' && path.startsWith('upload/')) {
      uploads.set(path.slice(7), { type: req.headers['content-type'] ?? 'application/octet-stream', bytes: raw });
      res.writeHead(200).end();
      return;
    }
    if (req.method === 'GET' && path.startsWith('files/')) {
      const file = uploads.get(path.slice(6));
      if (file === undefined) return sendJson(res, 404, { detail: 'Not Found' });
      res.writeHead(200, { 'Content-Type': file.type }).end(file.bytes);
      return;
    }
    if (req.headers.authorization !== `Key ${apiKey}`) {
      return sendJson(res, 401, { detail: req.headers.authorization === undefined ? 'No authorization header found' : 'No user found for Key ID and Secret' });
    }
    if (req.method === 'GET' && path === 'v1/models') {
      return sendJson(res, 200, { models: [...FAL_ENDPOINTS.keys()].map((endpoint_id) => ({ endpoint_id, metadata: { category: 'text-to-image', status: 'active' } })), has_more: false, next_cursor: null });
    }
    if (req.method === 'POST' && path === 'storage/upload/initiate') {
      const id = `${randomUUID()}.${String((JSON.parse(raw.toString()) as { file_name?: string }).file_name ?? 'bin').split('.').pop()}`;
      return sendJson(res, 200, { upload_url: `${origin}/upload/${id}`, file_url: `${origin}/files/${id}` });
    }
    const request = /^(.+?)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(path);
    if (request !== null) {
      const job = jobs.find((j) => j.id === request[2] && j.app === request[1]);
      if (job === undefined) return sendJson(res, 404, { detail: 'Request not found' });
      if (request[3] === '/cancel' && req.method === 'PUT') {
        if (job.state === 'COMPLETED') return sendJson(res, 400, { status: 'ALREADY_COMPLETED' });
        job.state = 'CANCELLED';
        return sendJson(res, 202, { status: 'CANCELLATION_REQUESTED' });
      }
      if (request[3] === '/status' && req.method === 'GET') return status(job, url.searchParams.get('logs') === '1', res);
      if (request[3] === undefined && req.method === 'GET') {
        if (job.result === undefined) return sendJson(res, 400, { detail: 'Request is still in progress' });
        // fal-js reads the request id of a result from this header (src/response.ts).
        return sendJson(res, job.result.status, job.result.body, { 'x-fal-request-id': job.id, ...(job.result.units === undefined ? {} : { 'x-fal-billable-units': String(job.result.units) }) });
      }
      return sendJson(res, 405, { detail: 'Method Not Allowed' });
    }
    if (req.method !== 'POST') return sendJson(res, 405, { detail: 'Method Not Allowed' });
    if (!FAL_ENDPOINTS.has(path)) return sendJson(res, 404, { detail: `Application '${path}' not found` });
    const failure = failures.shift();
    if (failure !== undefined) return sendJson(res, failure.status, failure.body, failure.headers);
    let input: unknown;
    try {
      input = JSON.parse(raw.toString());
    } catch {
      return sendJson(res, 422, { detail: [{ loc: ['body'], msg: 'Expecting value', type: 'value_error.jsondecode' }] });
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return sendJson(res, 422, { detail: [{ loc: ['body'], msg: 'value is not a valid dict', type: 'type_error.dict' }] });
    record.body = input;
    record.unknownFields = checkInput(FAL_ENDPOINTS.get(path)!.schema, input as Record<string, unknown>).unknown;
    const job: Job = { id: randomUUID(), endpoint: path, app: appOf(path), input: input as Record<string, unknown>, polls: 0, state: 'IN_QUEUE' };
    jobs.push(job);
    return sendJson(res, 200, urls(job));
  }

  async function status(job: Job, logs: boolean, res: ServerResponse): Promise<void> {
    const queuePolls = options.queuePolls ?? 1;
    const progressPolls = options.progressPolls ?? 2;
    // Held: a test sees the queue position for as long as it needs, with no clock deciding.
    if (held && job.state === 'IN_QUEUE') return sendJson(res, 202, { ...urls(job), status: 'IN_QUEUE', queue_position: queuePolls });
    job.polls++;
    if (job.state === 'CANCELLED') return sendJson(res, 200, { ...urls(job), status: 'COMPLETED', logs: logs ? [] : null, error: 'Request was cancelled' });
    if (job.polls <= queuePolls) return sendJson(res, 202, { ...urls(job), status: 'IN_QUEUE', queue_position: queuePolls - job.polls });
    if (job.polls <= queuePolls + progressPolls) {
      job.state = 'IN_PROGRESS';
      const step = job.polls - queuePolls;
      const bar = `${Math.round((step / progressPolls) * 100)}%|█████     | ${step}/${progressPolls} [00:01<00:01, 11.20it/s]`;
      return sendJson(res, 202, { ...urls(job), status: 'IN_PROGRESS', logs: logs ? [{ message: bar, level: 'STDERR', source: 'USER', timestamp: new Date(0).toISOString() }] : null });
    }
    if (job.result === undefined) await finish(job);
    job.state = 'COMPLETED';
    return sendJson(res, 200, { ...urls(job), status: 'COMPLETED', logs: logs ? [] : null, metrics: { inference_time: 0.5 } });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendJson(res, 500, { detail: String(error) }));
  });
  const listening = await listenOnLoopback(server);
  origin = listening.url;
  return { url: listening.url, apiKey, received, jobs, uploads, failNext: (...answers) => failures.push(...answers), release: () => { held = false; }, close: listening.close };
}
