/**
 * Progress over the forwarder's backend route. A client that asks for it (`Accept` naming
 * `application/x-ndjson`) gets, once the backend reports progress, a 200 whose body is one JSON
 * object a line: `{"progress":{"fraction","message"}}` as the backend tells it, then the end,
 * `{"result": <the service's response>}` or `{"error":{"status","message"}}` with the status the
 * plain route would have answered. A pool's backend also says how its servers stand, from the
 * start, `{"servers":{"pool","engines","servers"}}` (labels and counts, never an address). Blank lines keep a quiet connection (a long cold start) alive.
 * A failure before any progress is answered as the plain route answers it; a client that does not
 * ask gets the plain JSON route, unchanged.
 */
import type { ServerResponse } from 'node:http';
import type { ServersReport } from '../../api/client-types';
import { redact } from '../log';
import { BASE_HEADERS, HttpError, sendJson } from '../http-utils';

export const PROGRESS_TYPE = 'application/x-ndjson';

/** A blank line this often while the backend says nothing: below any client's idle timeout (60 s). */
const KEEP_ALIVE_MS = 15_000;

/** Whether the request's Accept asks for progress lines (a media range `application/x-ndjson`, not refused with q=0). */
export function wantsProgress(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    return type === PROGRESS_TYPE && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

/**
 * What a progress message may say: no secret and no backend address, taken out as the server's
 * log takes them out, and no longer than a status line.
 */
export function cleanProgress(message: string, secrets: readonly string[], addresses: readonly string[]): string {
  let text = redact(message, secrets);
  for (const address of addresses) text = text.split(address).join('the backend');
  return text.replace(/\p{Cc}+/gu, ' ').slice(0, 300);
}

/**
 * Runs `generate`, telling it where to report progress, and answers `res` with progress lines
 * (from the first report on) or, when nothing was reported, as the plain route does.
 */
export async function answerWithProgress(
  res: ServerResponse,
  generate: (onProgress: (fraction: number, message?: string) => void, onServers: (report: ServersReport) => void) => Promise<unknown>,
  clean: (message: string) => string,
): Promise<void> {
  let streaming = false;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const line = (value: unknown) => {
    if (!res.destroyed) res.write(`${JSON.stringify(value)}\n`);
  };
  /** Starts the lines unless they have started (or the answer is over); false when too late. */
  const stream = (): boolean => {
    if (res.destroyed || res.writableEnded) return false;
    if (!streaming) {
      streaming = true;
      res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': `${PROGRESS_TYPE}; charset=utf-8`, 'Cache-Control': 'no-store' });
      keepAlive = setInterval(() => { if (!res.destroyed) res.write('\n'); }, KEEP_ALIVE_MS);
    }
    return true;
  };
  const onServers = (report: ServersReport) => {
    if (stream()) line({ servers: report });
  };
  const onProgress = (fraction: number, message?: string) => {
    if (!stream()) return;
    const share = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
    line({ progress: { fraction: share, ...(message === undefined ? {} : { message: clean(message) }) } });
  };
  try {
    const result = await generate(onProgress, onServers);
    if (!streaming) return sendJson(res, 200, result);
    line({ result });
    res.end();
  } catch (error) {
    if (!streaming || !(error instanceof HttpError)) throw error;
    line({ error: { status: error.status, message: error.message } });
    res.end();
  } finally {
    clearInterval(keepAlive);
  }
}
