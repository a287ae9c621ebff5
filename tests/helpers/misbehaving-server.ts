/**
 * A local HTTP server on 127.0.0.1 and a free port that answers each request with whatever a test
 * scripts, including the ways real services and networks fail: error statuses, slow or silent
 * bodies, connections dropped mid-answer, streams cut short. It records every request and notices
 * when a client closes its connection.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** 1 for the first request the server saw. */
  index: number;
}

/** Answers one request; `res` is the live response. The request body has been read already. */
export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface MisbehavingServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** Replaces the handler for the requests that follow. */
  handle(handler: Handler): void;
  /**
   * Resolves when the connection of request `index` (1-based) closed before the server had ended its
   * answer. It may be asked before that request arrives (a loaded machine can be slow to send it).
   */
  clientHungUp(index: number): Promise<void>;
  close(): Promise<void>;
}

export async function startMisbehavingServer(initial: Handler = (_req, res) => sendText(res, 404, 'no handler')): Promise<MisbehavingServer> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const closed = new Map<number, { promise: Promise<void>; resolve: () => void }>();
  const hangUp = (index: number) => {
    let slot = closed.get(index);
    if (!slot) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => { resolve = done; });
      slot = { promise, resolve };
      closed.set(index, slot);
    }
    return slot;
  };
  let seen = 0;

  const server = createServer((req, res) => {
    const index = ++seen;
    const slot = hangUp(index);
    // 'close' also fires after a finished answer; only a close before `end()` is the client hanging up.
    res.on('close', () => { if (!res.writableEnded) slot.resolve(); });
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(parts).toString('utf8'), index,
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
        if (!res.headersSent) sendText(res, 599, `test handler failed: ${String(error)}`);
        else res.destroy();
      });
    });
  });
  const listening = await listenOnLoopback(server);

  return {
    url: listening.url,
    requests,
    handle(next) {
      handler = next;
    },
    clientHungUp(index) {
      return hangUp(index).promise;
    },
    close: listening.close,
  };
}

/**
 * Starts `server` on 127.0.0.1 and a free port. `close` also ends the connections clients keep
 * alive, so a test's teardown never waits on them.
 */
export async function listenOnLoopback(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts an SSE response and writes `frames` (raw text, each written as its own chunk). */
export function startStream(res: ServerResponse, frames: readonly string[] = []): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
  for (const frame of frames) res.write(frame);
}

/** Drops the connection without an HTTP answer, as a crashed proxy does. */
export function dropConnection(res: ServerResponse): void {
  res.socket?.destroy();
}

/** A `data:` frame for one chunk of a streamed chat completion (docs/service-interface.md 2.9). */
export function chunkFrame(content: string | null, options: { role?: string; finish?: string | null; id?: string } = {}): string {
  const delta: Record<string, unknown> = { content };
  if (options.role !== undefined) delta.role = options.role;
  const chunk = {
    id: options.id ?? 'chatcmpl-test', created: 1_700_000_000, model: 'test-model', object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: options.finish ?? null }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

export const DONE_FRAME = 'data: [DONE]\n\n';

/**
 * A whole streamed answer, `pieces` after the role chunk with `finish_reason` on the last, as
 * 2.9 shows it; `done: false` leaves out the closing `data: [DONE]`, as some servers do.
 */
export function streamFrames(pieces: readonly string[], options: { finish?: string; done?: boolean } = {}): string[] {
  const frames = [chunkFrame(null, { role: 'assistant' })];
  pieces.forEach((piece, i) => frames.push(chunkFrame(piece, i === pieces.length - 1 ? { finish: options.finish ?? 'stop' } : {})));
  return options.done === false ? frames : [...frames, DONE_FRAME];
}

/** A whole chat completion body (the service interface, 2.8). */
export function completionBody(content: string, finish = 'stop'): Record<string, unknown> {
  return {
    id: 'chatcmpl-test', object: 'chat.completion', created: 1_700_000_000, model: 'test-model', system_fingerprint: null,
    choices: [{ index: 0, message: { role: 'assistant', content, function_call: null }, delta: null, finish_reason: finish }],
    usage: { completion_tokens: 3, prompt_tokens: 5, total_tokens: 8 },
  };
}
