/**
 * A test double of the Gemini API (generativelanguage.googleapis.com) on 127.0.0.1 and a free
 * port: `POST /v1beta/models/{model}:generateContent` on the image models of gemini-rules.ts,
 * `GET /v1beta/models` (paged) and `GET /v1beta/models/{model}`, the `x-goog-api-key` check, and the
 * API's google.rpc.Status error bodies. It refuses what the real API refuses (no key, a wrong key, a
 * bearer token, an unknown model, unknown fields, bad parts, base64 that does not decode, input
 * bytes that are no image, several candidates, a ratio or size the model does not make) and, by
 * Atelier's own rule, a key in the URL (`?key=`), which the real API would take.
 *
 * It answers with real images of the model's pixel size for the ratio and size (PNG from
 * gemini-2.5-flash-image, JPEG from the Gemini 3 models, which also send a thought text and a
 * draft image marked `thought` first), `usageMetadata` with IMAGE output tokens, and lets a test see
 * what it received, script answers (safety blocks, quotas), and hold an answer to cancel it.
 *
 * Browsers: like Google's front end, it answers any page's origin (echoed in
 * Access-Control-Allow-Origin) and a preflight with the methods and the headers asked for, so a page
 * can call it with its key in x-goog-api-key; a preflight is the browser's, not recorded.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import sharp from 'sharp';
import { listenOnLoopback, sendJson, sendText } from '../misbehaving-server';
import {
  BEARER_NOT_OAUTH, DOUBLE_MODELS, KEY_INVALID, KEY_MISSING, OTHER_MODELS, checkRequest, modelNotFound, pixelsFor, status,
  type CheckedRequest, type DoubleModel, type GoogleStatus,
} from './gemini-rules';

export interface GeminiReceived {
  method: string;
  path: string;
  query: string;
  apiKey: string | undefined;
  authorization: string | undefined;
  json?: unknown;
}

export interface GeminiCanned {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface GeminiDouble {
  url: string;
  apiKey: string;
  received: GeminiReceived[];
  /** Answers the next generateContent requests with these, in order, after the key check. */
  failNext(...answers: GeminiCanned[]): void;
  /** Holds the next generateContent answer: `arrived` when it is in, `hungUp` when the client left. */
  hold(): { arrived: Promise<void>; hungUp: Promise<void>; release(): void };
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

const sendStatus = (res: ServerResponse, s: GoogleStatus) => sendJson(res, s.httpStatus, s.body);

/** Google's front end answers a path it does not route with an HTML page, not JSON. */
function notRouted(res: ServerResponse, path: string): void {
  sendText(res, 404, `<!DOCTYPE html>\n<html lang=en><title>Error 404 (Not Found)!!1</title><p><b>404.</b> <ins>That’s an error.</ins><p>The requested URL <code>${path}</code> was not found on this server.  <ins>That’s all we know.</ins>`, { 'Content-Type': 'text/html; charset=UTF-8' });
}

/** Google's front end's CORS: any origin echoed; true when it answered the request itself (a preflight). */
function cors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || origin === '') return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Vary', 'Origin, X-Origin, Referer');
  if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
  res.setHeader('Access-Control-Allow-Methods', 'DELETE,GET,HEAD,PATCH,POST,PUT');
  const asked = req.headers['access-control-request-headers'];
  if (asked !== undefined) res.setHeader('Access-Control-Allow-Headers', asked);
  res.setHeader('Access-Control-Max-Age', '3600');
  res.writeHead(200).end();
  return true;
}

function modelEntry(id: string) {
  const image = DOUBLE_MODELS[id];
  return {
    name: `models/${id}`, version: '001', displayName: image?.displayName ?? id, description: `The double's ${id}.`,
    inputTokenLimit: 32_768, outputTokenLimit: 32_768,
    supportedGenerationMethods: id.startsWith('imagen') ? ['predict'] : id.includes('embedding') ? ['embedContent'] : ['generateContent', 'countTokens'],
  };
}

async function render(seed: string, mime: string, size: { width: number; height: number }): Promise<string> {
  const digest = createHash('sha256').update(seed).digest();
  const image = sharp({ create: { width: size.width, height: size.height, channels: 3, background: { r: digest[0]!, g: digest[1]!, b: digest[2]! } } });
  return (await (mime === 'image/jpeg' ? image.jpeg() : image.png()).toBuffer()).toString('base64');
}

async function answer(name: string, model: DoubleModel, request: CheckedRequest, made: number): Promise<Record<string, unknown>> {
  const size = pixelsFor(request.ratio, request.size);
  const data = await render(`${request.text}\n${request.seed ?? made}`, model.mime, size);
  const parts: Record<string, unknown>[] = [];
  if (model.thinks) {
    parts.push({ text: '**Composing the scene**\nI will place the subject first.', thought: true });
    parts.push({ inlineData: { mimeType: model.mime, data: await render(`draft ${made}`, model.mime, { width: 64, height: 64 }) }, thought: true });
  }
  if (request.modalities.includes('IMAGE')) parts.push({ inlineData: { mimeType: model.mime, data }, ...(model.thinks ? { thoughtSignature: 'c2lnbmF0dXJl' } : {}) });
  const promptTokens = Math.ceil(request.text.length / 4) + 258 * request.images.length;
  const imageTokens = request.modalities.includes('IMAGE') ? model.tokens[request.size] ?? 1290 : 0;
  return {
    candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: promptTokens, candidatesTokenCount: imageTokens, totalTokenCount: promptTokens + imageTokens + (model.thinks ? 180 : 0),
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens - 258 * request.images.length }, ...(request.images.length > 0 ? [{ modality: 'IMAGE', tokenCount: 258 * request.images.length }] : [])],
      candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: imageTokens }],
      ...(model.thinks ? { thoughtsTokenCount: 180 } : {}),
    },
    modelVersion: name,
    responseId: `double-${made}`,
  };
}

export async function startGeminiDouble(options: { apiKey?: string } = {}): Promise<GeminiDouble> {
  const apiKey = options.apiKey ?? 'AIzaSyDouble-atelier-0123456789abcdefgh';
  const received: GeminiReceived[] = [];
  const canned: GeminiCanned[] = [];
  let made = 0;
  let held: { arrive: () => void; hangUp: () => void; released: Promise<void> } | undefined;

  async function generate(name: string, raw: Buffer, record: GeminiReceived, res: ServerResponse, hungUp: Promise<void>): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      return sendStatus(res, status(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unexpected token.'));
    }
    record.json = json;
    const next = canned.shift();
    if (next !== undefined) return sendJson(res, next.status, next.body, next.headers);
    const model = DOUBLE_MODELS[name];
    if (model === undefined) return sendStatus(res, modelNotFound(name));
    const checked = checkRequest(json, name, model);
    if ('httpStatus' in checked) return sendStatus(res, checked);
    for (const image of checked.images) {
      const format = await sharp(image.bytes).metadata().then((m) => m.format, () => undefined);
      if (format === undefined) return sendStatus(res, status(400, 'INVALID_ARGUMENT', 'Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting'));
    }
    if (held !== undefined) {
      const hold = held;
      held = undefined;
      void hungUp.then(hold.hangUp);
      hold.arrive();
      await Promise.race([hold.released, hungUp]);
      if (res.destroyed) return;
    }
    const body = await answer(name, model, checked, made++);
    if (!res.destroyed) sendJson(res, 200, body);
  }

  async function route(req: IncomingMessage, res: ServerResponse, hungUp: Promise<void>): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://double');
    const header = req.headers['x-goog-api-key'];
    const record: GeminiReceived = {
      method: req.method ?? '', path: url.pathname, query: url.search,
      apiKey: Array.isArray(header) ? header[0] : header, authorization: req.headers.authorization,
    };
    received.push(record);
    const generateMatch = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(url.pathname);
    const modelMatch = /^\/v1beta\/models\/([^/:]+)$/.exec(url.pathname);
    const routed = (req.method === 'POST' && generateMatch !== null) || (req.method === 'GET' && (url.pathname === '/v1beta/models' || modelMatch !== null));
    if (!routed) return notRouted(res, url.pathname);
    if (url.searchParams.has('key')) return sendStatus(res, status(400, 'INVALID_ARGUMENT', 'This double refuses an API key in the URL (?key=): Atelier sends it in the x-goog-api-key header only.'));
    if (record.apiKey === undefined) return sendStatus(res, /^Bearer /.test(record.authorization ?? '') ? BEARER_NOT_OAUTH : KEY_MISSING);
    if (record.apiKey !== apiKey) return sendStatus(res, KEY_INVALID);
    const all = [...Object.keys(DOUBLE_MODELS), ...OTHER_MODELS];
    if (url.pathname === '/v1beta/models') {
      const size = Math.min(Number(url.searchParams.get('pageSize') ?? 50) || 50, 1000);
      const start = Number(url.searchParams.get('pageToken') ?? 0) || 0;
      const page = all.slice(start, start + size);
      return sendJson(res, 200, { models: page.map(modelEntry), ...(start + size < all.length ? { nextPageToken: String(start + size) } : {}) });
    }
    if (modelMatch !== null) {
      return all.includes(modelMatch[1]!) ? sendJson(res, 200, modelEntry(modelMatch[1]!)) : sendStatus(res, status(404, 'NOT_FOUND', `models/${modelMatch[1]!} is not found for API version v1beta.`));
    }
    return generate(decodeURIComponent(generateMatch![1]!), raw, record, res, hungUp);
  }

  const server = createServer((req, res) => {
    if (cors(req, res)) return;
    const hungUp = new Promise<void>((resolve) => res.on('close', () => { if (!res.writableEnded) resolve(); }));
    route(req, res, hungUp).catch((error: unknown) => {
      if (!res.headersSent) sendStatus(res, status(500, 'INTERNAL', `double failed: ${String(error)}`));
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
      let hangUp!: () => void;
      const arrived = new Promise<void>((resolve) => { arrive = resolve; });
      const released = new Promise<void>((resolve) => { release = resolve; });
      const hungUp = new Promise<void>((resolve) => { hangUp = resolve; });
      held = { arrive, hangUp, released };
      return { arrived, hungUp, release };
    },
    close: listening.close,
  };
}
