/**
 * The local text engine's HTTP face at /local/text: `POST /v1/chat/completions` (whole or streamed
 * as server-sent events, section 2.9) and `GET /v1/models`, so OpenAI-compatible clients work
 * with base URL `{origin}/local/text/v1`.
 */
import { ChatRequestSchema, STREAM_DONE, type ChatRequest } from '../../api/chat';
import { formatIssues, zodIssues } from '../../api/image';
import { createChatCompletion, listModels, LOCAL_CHAT_MODELS, streamChatCompletion } from '../engines/text';
import { type ServerConfig } from '../config';
import { checkBearer } from '../guard';
import { BASE_HEADERS, clientGoneSignal, HttpError, readJsonObject, sendJson, writeChunk } from '../http-utils';
import { type RequestContext, type Route } from '../router';
import { standInRoute } from './stand-in';

export const LOCAL_TEXT_BASE = '/local/text';

export const TEXT_STAND_IN_NOTE =
  'A deterministic local stand-in, not a language model: it writes fluent, prompt-like text from the ' +
  'conversation (deterministic at temperature 0, varied above it) and honours max_tokens, stop, the ' +
  'penalties and streaming, so workflows can be built and tested offline.';

export function localTextRoutes(config: ServerConfig): Route[] {
  return [
    standInRoute(config, LOCAL_TEXT_BASE, (origin) => ({
      service: 'Atelier local text engine',
      description: TEXT_STAND_IN_NOTE,
      openaiCompatibleBaseUrl: `${origin}${LOCAL_TEXT_BASE}/v1`,
      endpoints: [
        { method: 'POST', path: `${LOCAL_TEXT_BASE}/v1/chat/completions` },
        { method: 'GET', path: `${LOCAL_TEXT_BASE}/v1/models` },
      ],
      models: LOCAL_CHAT_MODELS,
      simulatedTokenMs: config.tokenDelayMs,
    })),
    { path: `${LOCAL_TEXT_BASE}/v1/models`, methods: { GET: (ctx) => localModels(ctx, config) } },
    { path: `${LOCAL_TEXT_BASE}/v1/chat/completions`, methods: { POST: (ctx) => localChat(ctx, config) } },
  ];
}

/** `GET …/v1/models` of the local text engine; the forwarder answers with it when it has no chat upstream. */
export function localModels({ req, res }: RequestContext, config: ServerConfig): void {
  checkBearer(req, config.localToken);
  sendJson(res, 200, listModels());
}

/** `POST …/v1/chat/completions` of the local text engine; the forwarder answers with it when it has no chat upstream. */
export async function localChat({ req, res }: RequestContext, config: ServerConfig): Promise<void> {
  checkBearer(req, config.localToken);
  const body = await readJsonObject(req, config.maxBodyBytes);
  const parsed = ChatRequestSchema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, formatIssues(zodIssues(parsed.error)));
  // Any model name is answered and reported back: the interface does not show which names the
  // service accepts (section 4, rule 3), so refusing one would refuse what the service may take.
  const request = parsed.data;
  if (request.stream === true) {
    await stream(res, request, config);
  } else {
    sendJson(res, 200, createChatCompletion(request));
  }
}

async function stream(res: RequestContext['res'], request: ChatRequest, config: ServerConfig): Promise<void> {
  const signal = clientGoneSignal(res);
  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no',
  });
  // Headers go out now so the client sees the stream open before the first token.
  res.flushHeaders();
  try {
    for await (const chunk of streamChatCompletion(request, { tokenDelayMs: config.tokenDelayMs, signal })) {
      if (signal.aborted) return;
      await writeChunk(res, `data: ${JSON.stringify(chunk)}\n\n`, signal);
    }
  } catch (error) {
    if (signal.aborted) return;
    // The status is already sent: end without [DONE] so the client sees a stream cut short.
    res.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  if (!signal.aborted) res.end(`data: ${STREAM_DONE}\n\n`);
}
