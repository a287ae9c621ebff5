/**
 * Small pieces every route uses: text and JSON responses, a typed HTTP error, and reading a JSON
 * body with a size limit. Errors are text/plain, as the interface says (section 7).
 */
import { type IncomingMessage, type ServerResponse } from 'node:http';

/** A request that cannot be served; the message is the text body, naming the field at fault. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** Headers every response carries: no MIME sniffing, no framing by other sites. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

export function sendText(res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  const body = Buffer.from(text.endsWith('\n') ? text : `${text}\n`, 'utf8');
  res.writeHead(status, {
    ...BASE_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): void {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  res.writeHead(status, {
    ...BASE_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

/** Whether a Content-Type header names JSON (`application/json`, any parameters, or `+json`). */
export function isJsonContentType(value: string): boolean {
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${mb >= 1 ? mb.toFixed(mb % 1 === 0 ? 0 : 1) : mb.toFixed(3)} MB`;
}

/**
 * Reads the whole body, refusing more than `limit` bytes (413) as soon as the declared length or
 * the bytes received pass it. A Content-Type, when given, must be JSON (415).
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const type = req.headers['content-type'];
  if (type !== undefined && !isJsonContentType(type)) {
    throw new HttpError(415, `Content-Type: must be application/json, not '${type.slice(0, 80)}'`);
  }
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    throw new HttpError(415, `Content-Encoding: '${encoding.slice(0, 40)}' is not supported; send the JSON body uncompressed`);
  }
  const tooLarge = () => new HttpError(413, `body: larger than the limit of ${megabytes(limit)} (ATELIER_MAX_BODY_MB)`, { Connection: 'close' });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Reads and parses a JSON object body; every failure is an HttpError naming `body`. */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<Record<string, unknown>> {
  const raw = await readBody(req, limit);
  const text = raw.toString('utf8');
  if (text.trim() === '') throw new HttpError(400, 'body: is empty; send a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 160) : 'unparseable';
    throw new HttpError(400, `body: is not valid JSON (${reason})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HttpError(400, `body: must be a JSON object, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

/**
 * An AbortSignal that fires when the client goes away before the response is complete, so the
 * engines stop work nobody will read.
 */
export function clientGoneSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client closed the connection'));
  });
  return controller.signal;
}

/** Writes one piece of a streamed body, waiting for the socket to drain when it is full. */
export async function writeChunk(res: ServerResponse, data: string, signal: AbortSignal): Promise<void> {
  if (res.write(data)) return;
  await new Promise<void>((resolvePromise) => {
    const done = () => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolvePromise();
    };
    res.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
