/**
 * A test double of Replicate's HTTP API on 127.0.0.1 and a free port, written from its reference
 * (https://replicate.com/docs/reference/http) and its JS client (replicate/replicate-javascript
 * index.js, lib/predictions.js, lib/files.js, lib/error.js): `POST /v1/models/{owner}/{name}/
 * predictions` (official models), `POST /v1/predictions` with a `version`, `GET /v1/predictions/
 * {id}`, `POST /v1/predictions/{id}/cancel`, `POST /v1/files` (multipart `content`, `metadata`),
 * `GET /v1/collections/{slug}`, `Prefer: wait`, `Authorization: Bearer` (or the older `Token`;
 * anything else 401), problem-detail errors (`{title, detail, status}`, `invalid_fields` on a
 * 422). Each poll moves a prediction one step (`starting` for `coldPolls`, then `processing` with
 * a tqdm bar in its logs, then `succeeded` with output URLs on the double and
 * `metrics.predict_time`), so tests never wait on a clock. A prompt matching `flagPrompts` fails
 * as Replicate's SDXL fails its safety checker.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { listenOnLoopback, sendJson } from '../misbehaving-server';
import { renderImages } from './openai-images-files';
import { checkInput } from './hosted-schema';
import { REPLICATE_MODELS, type DoubleModel } from './replicate-models';

export interface ReplicateReceived {
  method: string;
  path: string;
  authorization: string | undefined;
  prefer: string | undefined;
  body?: unknown;
  unknownFields?: string[];
}

interface Prediction {
  id: string;
  model: DoubleModel;
  input: Record<string, unknown>;
  polls: number;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  output?: unknown;
  error?: string;
  logs: string;
}

export interface ReplicateDoubleOptions {
  token?: string;
  /** Polls a prediction spends `starting` (a cold start). */
  coldPolls?: number;
  /** Polls it spends `processing`, a step each. */
  steps?: number;
  flagPrompts?: RegExp;
}

export interface ReplicateDouble {
  url: string;
  token: string;
  received: ReplicateReceived[];
  predictions: Prediction[];
  files: Map<string, { type: string; bytes: Buffer }>;
  failNext(...answers: { status: number; body: unknown; headers?: Record<string, string> }[]): void;
  close(): Promise<void>;
}

const problem = (status: number, title: string, detail: string, extra: Record<string, unknown> = {}) => ({ type: `https://replicate.com/docs/reference/http#${status}`, title, detail, status, ...extra });

export async function startReplicateDouble(options: ReplicateDoubleOptions = {}): Promise<ReplicateDouble> {
  const token = options.token ?? 'r8_double0123456789abcdefghijklmnopqrst';
  const received: ReplicateReceived[] = [];
  const predictions: Prediction[] = [];
  const files = new Map<string, { type: string; bytes: Buffer }>();
  const failures: { status: number; body: unknown; headers?: Record<string, string> }[] = [];
  const counter = { made: 0 };
  let origin = '';

  const view = (p: Prediction) => ({
    id: p.id, model: `${p.model.owner}/${p.model.name}`, version: p.model.version ?? 'hidden', input: p.input, logs: p.logs,
    output: p.output ?? null, error: p.error ?? null, status: p.status, created_at: new Date(0).toISOString(),
    ...(p.status === 'succeeded' ? { metrics: { predict_time: 2.5 } } : {}),
    urls: { get: `${origin}/v1/predictions/${p.id}`, cancel: `${origin}/v1/predictions/${p.id}/cancel` },
  });

  async function advance(p: Prediction): Promise<void> {
    if (p.status === 'succeeded' || p.status === 'failed' || p.status === 'canceled') return;
    p.polls++;
    const cold = options.coldPolls ?? 1;
    const steps = options.steps ?? 2;
    if (p.polls <= cold) return;
    if (p.polls <= cold + steps) {
      const step = p.polls - cold;
      p.status = 'processing';
      p.logs += `${Math.round((step / steps) * 100)}%|█████     | ${step}/${steps} [00:01<00:01,  8.76it/s]\n`;
      return;
    }
    await complete(p);
  }

  async function complete(p: Prediction): Promise<void> {
    if (options.flagPrompts?.test(String(p.input.prompt)) === true) {
      p.status = 'failed';
      p.error = 'NSFW content detected. Try running it again, or try a different prompt.';
      return;
    }
    const n = p.model.outputs(p.input);
    const images = await renderImages(String(p.input.prompt), n, { width: 64, height: 64 }, 'png', counter);
    const urls = images.map((b64, i) => {
      const id = `${p.id}/out-${i}.png`;
      files.set(`delivery/${id}`, { type: 'image/png', bytes: Buffer.from(b64, 'base64') });
      return `${origin}/delivery/${id}`;
    });
    p.output = p.model.singleOutput === true ? urls[0] : urls;
    p.status = 'succeeded';
  }

  async function create(model: DoubleModel, body: Record<string, unknown>, prefer: string | undefined, res: ServerResponse, record: ReplicateReceived): Promise<void> {
    const input = body.input;
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return sendJson(res, 422, problem(422, 'Input validation failed', '- input: Invalid type. Expected: object, given: null\n', { invalid_fields: [{ type: 'invalid_type', field: 'input', description: 'Invalid type. Expected: object' }] }));
    }
    const { problems, unknown } = checkInput(model.schema, input as Record<string, unknown>);
    record.unknownFields = unknown;
    if (problems.length > 0) {
      const fields = problems.map((p) => ({ type: p.type, field: `input.${p.field}`, description: p.msg }));
      return sendJson(res, 422, problem(422, 'Input validation failed', fields.map((f) => `- ${f.field}: ${f.description}\n`).join(''), { invalid_fields: fields }));
    }
    const p: Prediction = { id: randomUUID().replace(/-/g, '').slice(0, 26), model, input: input as Record<string, unknown>, polls: 0, status: 'starting', logs: '' };
    predictions.push(p);
    // Sync mode: the answer waits for the output (within the time asked; the double is quick).
    // With no cold start and no steps the double answers at once (a test's shortcut, not Replicate's).
    const instant = (options.coldPolls ?? 1) === 0 && (options.steps ?? 2) === 0;
    if (instant || (prefer !== undefined && /^wait(=\d+)?$/.test(prefer))) await complete(p);
    return sendJson(res, 201, view(p));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    const record: ReplicateReceived = { method: req.method ?? '', path: path + url.search, authorization: req.headers.authorization, prefer: req.headers.prefer as string | undefined };
    received.push(record);
    if (req.method === 'GET' && path.startsWith('/delivery/')) {
      const file = files.get(path.slice(1));
      if (file === undefined) return sendJson(res, 404, problem(404, 'Not found', 'Not found.'));
      res.writeHead(200, { 'Content-Type': file.type }).end(file.bytes);
      return;
    }
    const auth = req.headers.authorization ?? '';
    if (auth !== `Bearer ${token}` && auth !== `Token ${token}`) {
      return sendJson(res, 401, problem(401, 'Unauthenticated', 'You did not pass a valid authentication token'));
    }
    if (req.method === 'POST' && path === '/v1/files') {
      const form = await new Request(`${origin}${path}`, { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: req as unknown as BodyInit, duplex: 'half' } as RequestInit).formData();
      const content = form.get('content');
      if (!(content instanceof File)) return sendJson(res, 422, problem(422, 'Invalid request', 'content is required'));
      const id = randomUUID();
      files.set(`files/${id}`, { type: content.type, bytes: Buffer.from(await content.arrayBuffer()) });
      return sendJson(res, 201, { id, name: content.name, content_type: content.type, size: content.size, etag: id, checksums: {}, metadata: {}, created_at: new Date(0).toISOString(), expires_at: new Date(86_400_000).toISOString(), urls: { get: `${origin}/v1/files/${id}` } });
    }
    if (req.method === 'GET' && path.startsWith('/v1/collections/')) {
      return sendJson(res, 200, { name: 'Text to image', slug: path.slice(16), description: '', models: REPLICATE_MODELS.map((m) => ({ owner: m.owner, name: m.name, url: `https://replicate.com/${m.owner}/${m.name}` })) });
    }
    const byId = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
    if (byId !== null) {
      const p = predictions.find((x) => x.id === byId[1]);
      if (p === undefined) return sendJson(res, 404, problem(404, 'Not found', 'Not found.'));
      if (byId[2] !== undefined && req.method === 'POST') {
        if (p.status === 'starting' || p.status === 'processing') p.status = 'canceled';
        return sendJson(res, 200, view(p));
      }
      if (req.method !== 'GET') return sendJson(res, 405, problem(405, 'Method not allowed', 'Method not allowed.'));
      await advance(p);
      return sendJson(res, 200, view(p));
    }
    if (req.method !== 'POST') return sendJson(res, 404, problem(404, 'Not found', 'Not found.'));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, problem(400, 'Invalid JSON', 'The request body is not valid JSON.'));
    }
    record.body = body;
    const failure = failures.shift();
    if (failure !== undefined) return sendJson(res, failure.status, failure.body, failure.headers);
    const named = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    if (named !== null) {
      const model = REPLICATE_MODELS.find((m) => m.owner === named[1] && m.name === named[2]);
      if (model === undefined) return sendJson(res, 404, problem(404, 'Not found', 'The requested resource could not be found.'));
      // A community model has no default version to run by name.
      if (!model.official) return sendJson(res, 422, problem(422, 'Invalid version or not permitted', 'This model does not have a default version: create the prediction with a version.'));
      return create(model, body, record.prefer, res, record);
    }
    if (path === '/v1/predictions') {
      const model = REPLICATE_MODELS.find((m) => m.version !== undefined && m.version === body.version);
      if (model === undefined) return sendJson(res, 422, problem(422, 'Invalid version or not permitted', 'The specified version does not exist (or perhaps you don\'t have permission to use it?)'));
      return create(model, body, record.prefer, res, record);
    }
    return sendJson(res, 404, problem(404, 'Not found', 'Not found.'));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => sendJson(res, 500, problem(500, 'Internal server error', String(error))));
  });
  const listening = await listenOnLoopback(server);
  origin = listening.url;
  return { url: listening.url, token, received, predictions, files, failNext: (...answers) => failures.push(...answers), close: listening.close };
}
