/**
 * A test double of the OpenAI Images API (and of a compatible server's models) on 127.0.0.1 and a
 * free port: `POST /v1/images/generations` (JSON), `POST /v1/images/edits` (multipart, parsed for
 * real, images read with sharp), `GET /v1/models`, bearer-token checks, and the real API's error
 * bodies (openai-images-rules.ts says where each rule comes from). It answers with real small
 * images whose colour depends on the prompt and on how many images it has made, and lets a test
 * see what it received, script failures, and hold an answer to cancel it. Browsers are refused
 * (no CORS headers, OPTIONS unknown) unless `corsAllowOrigins` lets them in.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, sendJson } from '../misbehaving-server';
import {
  COMPATIBLE, DOUBLE_MODELS, EDIT_FIELDS, GENERATION_FIELDS, apiError, checkCommon, maskKey, outputSize,
  type ApiErrorBody, type DoubleModel,
} from './openai-images-rules';
import { checkEditFiles, readFile, renderImages, type ReceivedFile } from './openai-images-files';

export interface ReceivedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The JSON body of a generations request. */
  json?: Record<string, unknown>;
  /** The text fields of an edits request. */
  fields?: Record<string, string>;
  files?: ReceivedFile[];
}

export interface OpenAIImagesDoubleOptions {
  /** The key it takes; requests without it get the real 401. */
  apiKey?: string;
  /** Model ids of a compatible server, taken besides OpenAI's own (any WIDTHxHEIGHT). */
  compatibleModels?: string[];
  /**
   * Origins a browser page may call it from, as a compatible server started with
   * `--cors --cors-allow-origins=A,B` (LocalAI, core/http/app.go: Echo's CORS middleware,
   * labstack/echo middleware/cors.go): an allowed origin is echoed back, a preflight gets 204
   * with the methods and the headers asked for; any other origin gets no CORS header (a
   * preflight still 204), so the browser refuses to let the page read the answer.
   */
  corsAllowOrigins?: string[];
}

/** Echo's default methods for a preflight (DefaultCORSConfig.AllowMethods). */
const CORS_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';

/** Echo's CORS middleware: true when it answered the request itself (a preflight). */
function cors(req: IncomingMessage, res: ServerResponse, allowOrigins: readonly string[]): boolean {
  res.setHeader('Vary', 'Origin');
  const origin = req.headers.origin;
  if (origin === undefined || origin === '') return false;
  const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  const allowed = allowOrigins.find((o) => o.toLowerCase() === origin.toLowerCase());
  if (allowed === undefined) {
    if (preflight) res.writeHead(204).end();
    return preflight;
  }
  res.setHeader('Access-Control-Allow-Origin', allowed);
  if (!preflight) return false;
  res.setHeader('Vary', ['Origin', 'Access-Control-Request-Method', 'Access-Control-Request-Headers']);
  res.setHeader('Access-Control-Allow-Methods', CORS_METHODS);
  const asked = req.headers['access-control-request-headers'];
  if (asked !== undefined) res.setHeader('Access-Control-Allow-Headers', asked);
  res.writeHead(204).end();
  return true;
}

export interface CannedAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface OpenAIImagesDouble {
  url: string;
  apiKey: string;
  received: ReceivedRequest[];
  /** Answers the next image requests with these, in order, after recording them. */
  failNext(...answers: CannedAnswer[]): void;
  /** Holds the next image request's answer: `arrived` resolves when it is in, `hungUp` when the client left. */
  hold(): { arrived: Promise<void>; hungUp: Promise<void>; release(): void };
  /** How many images it has made (each differs in colour). */
  made(): number;
  close(): Promise<void>;
}

const NO_KEY = "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.";

function sendError(res: ServerResponse, problem: ApiErrorBody): void {
  sendJson(res, problem.status, { error: problem.error });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function authProblem(header: string | undefined, apiKey: string): ApiErrorBody | undefined {
  const match = /^Bearer (.+)$/.exec(header ?? '');
  if (match === null) return apiError(401, NO_KEY);
  if (match[1] !== apiKey) {
    return apiError(401, `Incorrect API key provided: ${maskKey(match[1]!)}. You can find your API key at https://platform.openai.com/account/api-keys.`, null, 'invalid_api_key');
  }
  return undefined;
}

export async function startOpenAIImagesDouble(options: OpenAIImagesDoubleOptions = {}): Promise<OpenAIImagesDouble> {
  const apiKey = options.apiKey ?? 'sk-test-atelier-0123456789abcdef';
  const received: ReceivedRequest[] = [];
  const canned: CannedAnswer[] = [];
  const counter = { made: 0 };
  let held: { arrive: () => void; hangUp: () => void; released: Promise<void> } | undefined;

  const modelFor = (name: string): DoubleModel | undefined => DOUBLE_MODELS[name] ?? (options.compatibleModels?.includes(name) ? COMPATIBLE : undefined);

  async function images(path: string, body: Buffer, record: ReceivedRequest, res: ServerResponse, hungUp: Promise<void>): Promise<ApiErrorBody | Record<string, unknown>> {
    const edits = path === '/v1/images/edits';
    let fields: Record<string, unknown>;
    const files: ReceivedFile[] = [];
    if (edits) {
      if (!record.contentType?.startsWith('multipart/form-data')) {
        return apiError(400, `Invalid Content-Type header (${record.contentType ?? 'none'}), expected multipart/form-data.`);
      }
      const form = await new Response(new Uint8Array(body), { headers: { 'content-type': record.contentType } }).formData();
      const text: Record<string, string> = {};
      for (const [name, value] of form.entries()) {
        if (typeof value === 'string') text[name] = value;
        else files.push(await readFile(name, value));
      }
      record.fields = text;
      record.files = files;
      fields = { ...text, ...(text.n === undefined ? {} : { n: Number(text.n) }) };
      for (const file of files) fields[file.field] = 'file';
    } else {
      try {
        fields = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        return apiError(400, "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)");
      }
      record.json = fields;
    }
    const next = canned.shift();
    if (next !== undefined) {
      res.writeHead(next.status, { 'Content-Type': 'application/json', ...next.headers });
      res.end(JSON.stringify(next.body));
      return { handled: true };
    }
    const modelName = String(fields.model ?? (edits ? 'gpt-image-1.5' : 'dall-e-2'));
    const model = modelFor(modelName);
    if (model === undefined) return apiError(400, `The model '${modelName}' does not exist.`, 'model', 'invalid_value', 'image_generation_user_error');
    const problem = checkCommon(fields, edits ? EDIT_FIELDS : GENERATION_FIELDS, modelName, model, edits)
      ?? (edits ? checkEditFiles(files, model) : undefined);
    if (problem !== undefined) return problem;
    if (held !== undefined) {
      const hold = held;
      held = undefined;
      void hungUp.then(hold.hangUp);
      hold.arrive();
      await Promise.race([hold.released, hungUp]);
      if (res.destroyed) return { handled: true };
    }
    const size = outputSize(fields.size);
    const n = Number(fields.n ?? 1);
    const format = String(fields.output_format ?? 'png') as 'png' | 'jpeg' | 'webp';
    const b64 = await renderImages(String(fields.prompt), n, size, format, counter);
    const url = model.kind !== 'gpt-image' && fields.response_format !== 'b64_json';
    const data = b64.map((image, i) => ({
      ...(url ? { url: `http://127.0.0.1/files/${counter.made - n + i}.png` } : { b64_json: image }),
      ...(model.kind === 'dall-e-3' ? { revised_prompt: `A detailed picture of ${String(fields.prompt)}` } : {}),
    }));
    if (model.kind !== 'gpt-image') return { created: Math.floor(Date.now() / 1000), data };
    const text = Math.ceil(String(fields.prompt).length / 4);
    const inputImages = files.filter((f) => f.field.startsWith('image')).length * 323;
    return {
      created: Math.floor(Date.now() / 1000), background: 'opaque', data, output_format: format, quality: 'medium',
      size: `${size.width}x${size.height}`,
      usage: { input_tokens: text + inputImages, input_tokens_details: { image_tokens: inputImages, text_tokens: text }, output_tokens: 1056 * n, total_tokens: text + inputImages + 1056 * n },
    };
  }

  async function route(req: IncomingMessage, res: ServerResponse, hungUp: Promise<void>): Promise<void> {
    const body = await readBody(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    const record: ReceivedRequest = { method: req.method ?? '', path, authorization: req.headers.authorization, contentType: req.headers['content-type'] };
    received.push(record);
    const known = (req.method === 'GET' && path === '/v1/models')
      || (req.method === 'POST' && (path === '/v1/images/generations' || path === '/v1/images/edits'));
    if (!known) return sendError(res, apiError(404, `Invalid URL (${req.method ?? ''} ${path})`));
    const auth = authProblem(req.headers.authorization, apiKey);
    if (auth !== undefined) return sendError(res, auth);
    if (path === '/v1/models') {
      const ids = [...Object.keys(DOUBLE_MODELS), 'gpt-4o-mini', 'whisper-1', ...(options.compatibleModels ?? [])];
      return sendJson(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })) });
    }
    const answer = await images(path, body, record, res, hungUp);
    if ('handled' in answer) return;
    if ('status' in answer && 'error' in answer) return sendError(res, answer as ApiErrorBody);
    if (!res.destroyed) sendJson(res, 200, answer);
  }

  const server = createServer((req, res) => {
    if (options.corsAllowOrigins !== undefined && cors(req, res, options.corsAllowOrigins)) return;
    const hungUp = new Promise<void>((resolve) => res.on('close', () => { if (!res.writableEnded) resolve(); }));
    route(req, res, hungUp).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `double failed: ${String(error)}`, type: 'server_error', param: null, code: null } });
    });
  });
  const listening = await listenOnLoopback(server);

  return {
    url: listening.url,
    apiKey,
    received,
    failNext: (...answers) => { canned.push(...answers); },
    hold() {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => { arrive = resolve; });
      const released = new Promise<void>((resolve) => { release = resolve; });
      let hangUp!: () => void;
      const hungUp = new Promise<void>((resolve) => { hangUp = resolve; });
      held = { arrive, hangUp, released };
      return { arrived, hungUp, release };
    },
    made: () => counter.made,
    close: listening.close,
  };
}
