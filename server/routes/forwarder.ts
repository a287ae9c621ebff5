/**
 * The forwarder: lets a browser reach the real APIs when they do not allow it directly (CORS),
 * without the browser ever holding the token. Targets are fixed by the server's own settings; the
 * request only picks an engine id from the known list. The browser's Authorization (checked
 * against ATELIER_LOCAL_TOKEN when that is set), cookies and every other header are dropped; the
 * server adds its own token.
 */
import { Readable } from 'node:stream';
import { type ReadableStream as NodeReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { backendChoices } from '../../api/backends/describe';
import { BACKENDS } from '../../api/backends/registry';
import { ENGINES, type EngineId } from '../../api/catalog';
import { type ForwarderConfig, type ServerConfig } from '../config';
import { checkBearer } from '../guard';
import { BASE_HEADERS, clientGoneSignal, HttpError, readJsonObject, sendJson } from '../http-utils';
import { forwardBackends, generateOnBackend } from './forward-backend';
import { answerWithProgress, cleanProgress, wantsProgress } from './forward-progress';
import { localChat, localModels } from './local-text';
import { redact } from '../log';
import { type RequestContext, type Route } from '../router';

export const FORWARD_IMAGE_BASE = '/forward/image';
export const FORWARD_TEXT_BASE = '/forward/text';

/** Response headers passed back from upstream; everything else (cookies included) stays behind. */
const PASSED_BACK = ['content-type', 'cache-control', 'retry-after', 'x-request-id'];

/** How much of an upstream error body is passed back; the rest is cut with a note. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Reads a response body as text up to `max` bytes, then stops reading. */
async function readBounded(response: Response, max: number): Promise<string> {
  if (response.body === null) return '';
  const decoder = new TextDecoder();
  let text = '';
  let read = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    read += chunk.byteLength;
    if (read > max) {
      text += decoder.decode(chunk.subarray(0, Math.max(0, chunk.byteLength - (read - max))));
      await response.body.cancel().catch(() => undefined);
      return `${text}… (cut at ${max / 1024} kB)`;
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/** The image route with neither an upstream nor a backend set (chat falls back to the local stand-in instead). */
function notConfigured(): HttpError {
  return new HttpError(503, `forwarder not configured: set ATELIER_IMAGE_BASE_URL (and ATELIER_TOKEN) for the service's API, or ATELIER_IMAGE_BACKEND (${backendChoices(BACKENDS).join(', ')}) for a backend, in the server's environment or its config file (ATELIER_CONFIG), then restart the server`);
}

function imageBase(forwarder: ForwarderConfig): string {
  if (forwarder.imageBaseUrl === undefined) throw notConfigured();
  return forwarder.imageBaseUrl;
}

/** The forwarder's routes, once the backends the settings name are built (their code loaded). */
export async function forwarderRoutes(config: ServerConfig, options: { WebSocket?: typeof globalThis.WebSocket } = {}): Promise<Route[]> {
  const { forwarder } = config;
  const backends = await forwardBackends(forwarder, options.WebSocket);
  const secrets = [config.localToken, forwarder.token, forwarder.backendToken].filter((s): s is string => s !== undefined);
  // Where the backends are is the server's business: a progress message never names it.
  const addresses = [...new Set(Object.values(forwarder.imageBackends).flatMap((b) => [new URL(b.baseUrl).origin, new URL(b.baseUrl).host]))];
  return [
    {
      path: `${FORWARD_IMAGE_BASE}/generate/:engine`,
      methods: {
        POST: async (ctx) => {
          const engine = ctx.params.engine ?? '';
          if (!(ENGINES as readonly string[]).includes(engine)) {
            throw new HttpError(404, `engine_id: unknown engine '${engine.slice(0, 60)}'; use one of ${ENGINES.join(', ')}`);
          }
          const backend = backends.get(engine as EngineId);
          if (backend === undefined) return forward(ctx, config, 'POST', `${imageBase(forwarder)}/generate/${engine}`);
          checkBearer(ctx.req, config.localToken);
          const body = await readJsonObject(ctx.req, config.maxBodyBytes);
          const reviewer = await backends.reviewer(engine as EngineId);
          const signal = clientGoneSignal(ctx.res);
          if (!wantsProgress(ctx.req.headers.accept)) {
            sendJson(ctx.res, 200, await generateOnBackend(backend, engine as EngineId, body, signal, reviewer));
            return;
          }
          await answerWithProgress(ctx.res, async (onProgress, onServers) => {
            // A pool's servers, for the page's run panel while this request goes: labels only.
            const served = backends.enginesOf(backend);
            const stop = backend.watchServers?.((report) => onServers({ ...report, engines: served }));
            try {
              return await generateOnBackend(backend, engine as EngineId, body, signal, reviewer, onProgress);
            } finally {
              stop?.();
            }
          }, (m) => cleanProgress(m, secrets, addresses));
        },
      },
    },
    // With no chat upstream, chat is answered by the local text engine (the offline stand-in,
    // as /api/info says) rather than refused: images can go to a backend with no chat service.
    {
      path: `${FORWARD_TEXT_BASE}/v1/chat/completions`,
      methods: { POST: (ctx) => (forwarder.textBaseUrl === undefined ? localChat(ctx, config) : forward(ctx, config, 'POST', `${forwarder.textBaseUrl}/v1/chat/completions`)) },
    },
    {
      path: `${FORWARD_TEXT_BASE}/v1/models`,
      methods: { GET: (ctx) => (forwarder.textBaseUrl === undefined ? localModels(ctx, config) : forward(ctx, config, 'GET', `${forwarder.textBaseUrl}/v1/models`)) },
    },
  ];
}

async function forward({ req, res }: RequestContext, config: ServerConfig, method: 'GET' | 'POST', target: string): Promise<void> {
  // With ATELIER_LOCAL_TOKEN set, other users of this machine cannot spend the upstream token either.
  checkBearer(req, config.localToken);
  // The body is parsed, not passed blind: only a JSON object ever goes out with the token.
  const body = method === 'POST' ? JSON.stringify(await readJsonObject(req, config.maxBodyBytes)) : undefined;
  const headers: Record<string, string> = { Accept: req.headers.accept ?? 'application/json, text/event-stream' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (config.forwarder.token !== undefined) headers.Authorization = `Bearer ${config.forwarder.token}`;

  const signal = clientGoneSignal(res);
  const upstreamHost = new URL(target).host;
  let upstream: Response;
  try {
    upstream = await fetch(target, { method, headers, body, signal, redirect: 'manual' });
  } catch (error) {
    if (signal.aborted) return;
    const cause = (error as { cause?: { code?: unknown } }).cause?.code;
    throw new HttpError(502, `upstream: cannot reach ${upstreamHost}${typeof cause === 'string' ? ` (${cause})` : ''}; check the forwarder's base URL and your network`);
  }
  if (upstream.status >= 300 && upstream.status < 400) {
    // Following a redirect could carry the token to a host nobody configured.
    await upstream.body?.cancel();
    throw new HttpError(502, `upstream: ${upstreamHost} answered with a redirect (${upstream.status}); the forwarder only talks to its configured base URL, so set that to the final address`);
  }

  const out: Record<string, string> = { ...BASE_HEADERS };
  for (const name of PASSED_BACK) {
    const value = upstream.headers.get(name);
    if (value !== null) out[name] = value;
  }
  if (upstream.status < 200 || upstream.status >= 300) {
    // An error body is text for a person; an upstream that echoes the request into it would hand
    // the browser the server's token, so it is read (bounded) and the token taken out first.
    const text = await readBounded(upstream, MAX_ERROR_BODY_BYTES);
    res.writeHead(upstream.status, out);
    res.end(redact(text, config.forwarder.token === undefined ? [] : [config.forwarder.token]));
    return;
  }
  res.writeHead(upstream.status, out);
  if (upstream.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  try {
    await pipeline(Readable.fromWeb(upstream.body as NodeReadableStream<Uint8Array>), res);
  } catch (error) {
    if (signal.aborted || res.destroyed) return;
    throw error;
  }
}
