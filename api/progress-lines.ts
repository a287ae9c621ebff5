/**
 * Reading the local server's progress lines (its forwarder's `application/x-ndjson` answer to a
 * request that asks for them): one JSON object a line, `{"progress":{fraction,message}}` while a
 * backend runs, `{"servers":{pool,engines,servers}}` while a pool's servers change (labels only),
 * then `{"result": …}` or `{"error":{status,message}}`; blank lines keep it alive.
 */
import { z } from 'zod';
import { ENGINES } from './catalog';
import type { ServersReport } from './client-types';
import { ApiError } from './errors';
import { formatBytes, type Exchange } from './exchange';
import { isRetryableStatus } from './retry';

/** Asks for progress lines, taking plain JSON from a server that has none. */
export const PROGRESS_ACCEPT = 'application/x-ndjson, application/json;q=0.9';

/** Whether the answer is progress lines rather than the plain JSON response. */
export function isProgressLines(exchange: Exchange): boolean {
  return /^application\/x-ndjson\b/i.test(exchange.response.headers.get('content-type') ?? '');
}

const count = z.number().int().nonnegative();
const time = z.number().nonnegative().optional();

/** A pool's servers as the server reports them: bounded, labels and counts only. */
const ServersReportSchema = z.object({
  pool: z.string().max(200),
  engines: z.array(z.enum(ENGINES)).max(ENGINES.length),
  servers: z.array(z.object({
    label: z.string().max(200), inFlight: count, queued: count, down: z.boolean(), made: count, downSince: time, retryAt: time,
  })).max(256),
});

const LineSchema = z.union([
  z.object({ progress: z.object({ fraction: z.number().min(0).max(1), message: z.string().optional() }) }),
  z.object({ servers: ServersReportSchema }),
  z.object({ error: z.object({ status: z.number().int().min(400).max(599), message: z.string() }) }),
  z.object({ result: z.unknown() }),
]);

/**
 * Reads the lines, telling `onProgress` each report, and resolves with the last line's `result`
 * (to be validated by the caller). The end line's `error` is thrown as the HTTP error the plain
 * route would have answered; a stream that stops without an end is a network error (retryable,
 * as a cut JSON answer is); more than `maxBytes` in all is refused.
 */
export async function readProgressLines(
  exchange: Exchange, maxBytes: number, secrets: readonly string[], onProgress: (fraction: number, message?: string) => void,
  onServers?: (report: ServersReport) => void,
): Promise<unknown> {
  const at = { endpoint: exchange.endpoint, attempts: exchange.attempt };
  const invalid = (detail: string) => new ApiError({ ...at, kind: 'invalid-response', retryable: false, status: 200, detail }, secrets);
  const decoder = new TextDecoder();
  // The pieces of the line being read: a result line can be many megabytes, so it is joined once.
  let pieces: string[] = [];
  let total = 0;
  const take = (text: string): { result: unknown } | undefined => {
    if (text.trim() === '') return undefined;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw invalid(`a progress line is not JSON (starting "${text.slice(0, 60)}")`);
    }
    const line = LineSchema.safeParse(json);
    if (!line.success) throw invalid(`a progress line has none of progress, servers, result or error (starting "${text.slice(0, 60)}")`);
    if ('progress' in line.data) {
      onProgress(line.data.progress.fraction, line.data.progress.message);
      return undefined;
    }
    if ('servers' in line.data) {
      const { servers, ...rest } = line.data.servers;
      // Optional times the line left out stay out, as the pool itself leaves them.
      onServers?.({
        ...rest,
        servers: servers.map(({ downSince, retryAt, ...s }) => ({ ...s, ...(downSince === undefined ? {} : { downSince }), ...(retryAt === undefined ? {} : { retryAt }) })),
      });
      return undefined;
    }
    if ('error' in line.data) {
      const { status, message } = line.data.error;
      throw new ApiError({ ...at, kind: 'http', status, retryable: isRetryableStatus(status), detail: `HTTP ${status}: ${message}`, serviceMessage: message }, secrets);
    }
    return { result: line.data.result };
  };
  for await (const chunk of exchange.chunks()) {
    total += chunk.byteLength;
    if (total > maxBytes) throw invalid(`the response body is larger than the ${formatBytes(maxBytes)} this client accepts; refused`);
    const parts = decoder.decode(chunk, { stream: true }).split('\n');
    for (let i = 0; i < parts.length - 1; i++) {
      pieces.push(parts[i]!);
      const ended = take(pieces.join(''));
      pieces = [];
      if (ended !== undefined) {
        exchange.close();
        return ended.result;
      }
    }
    pieces.push(parts.at(-1)!);
  }
  const last = take(pieces.join('') + decoder.decode());
  if (last !== undefined) return last.result;
  throw new ApiError({ ...at, kind: 'network', retryable: true, detail: 'the server closed the connection before the result came' }, secrets);
}
