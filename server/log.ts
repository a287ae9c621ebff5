/**
 * The server's log. A request line is method, path, status and duration, nothing else: never a
 * body, a header or a query string, and every line passes through `redact` so a token cannot
 * reach the log even when someone pastes one into a URL.
 */
import { redact } from '../api/redact';

export interface RequestLogEntry {
  method: string;
  /** The raw request target; only its redacted path is written. */
  target: string;
  status: number;
  durationMs: number;
  /** The client went away before the response was complete. */
  aborted: boolean;
}

export interface Logger {
  request(entry: RequestLogEntry): void;
  info(message: string): void;
  warn(message: string): void;
  /** A bug: logs the error's name and stack frames, redacted. */
  error(message: string, error?: unknown): void;
}

interface Sinks {
  out: (line: string) => void;
  err: (line: string) => void;
}

const defaultSinks: Sinks = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/**
 * A path segment that may be a credential: long, made of token characters, mixing letters and
 * digits, and not a file name (built assets are named `index-Bq3xY7kP.js`).
 */
function secretLike(segment: string): boolean {
  return segment.length >= 16 && /^[A-Za-z0-9._~+=-]+$/.test(segment) && /\d/.test(segment) && /[A-Za-z]/.test(segment)
    && !/\.(js|mjs|css|map|html|json|svg|png|jpe?g|webp|avif|gif|ico|woff2?|ttf|wasm|txt)$/i.test(segment);
}

/**
 * Credentials in credential places (`Bearer …`, `Authorization: …`, a URL's key) whatever their
 * value, and each distinctive secret anywhere: a short server token such as `text` is not taken
 * out of `/local/text` (api/redact.ts).
 */
export { redact };

/**
 * The path part of a request target as it may be logged: no query string (it is replaced by
 * `?…`), long token-like segments replaced, control characters dropped.
 */
export function loggablePath(target: string, secrets: readonly string[]): string {
  const queryAt = target.search(/[?#]/);
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const segments = path.slice(0, 300).split('/').map((segment) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // An undecodable segment is logged as sent.
    }
    return secretLike(decoded) ? '[redacted]' : segment;
  });
  const shown = segments.join('/').replace(/[^\x21-\x7e]/g, '');
  return redact(shown, secrets) + (queryAt === -1 ? '' : '?…') + (path.length > 300 ? '…' : '');
}

export function createLogger(secrets: readonly string[], sinks: Sinks = defaultSinks): Logger {
  const clean = (text: string) => redact(text, secrets);
  return {
    request({ method, target, status, durationMs, aborted }) {
      const verb = /^[A-Z]{1,10}$/.test(method) ? method : '?';
      sinks.out(`${verb} ${loggablePath(target, secrets)} ${status} ${durationMs.toFixed(1)}ms${aborted ? ' (client went away)' : ''}`);
    },
    info: (message) => sinks.out(clean(message)),
    warn: (message) => sinks.err(`warning: ${clean(message)}`),
    error(message, error) {
      const detail = error instanceof Error ? `${error.name}: ${error.message}\n${(error.stack ?? '').split('\n').slice(1).join('\n')}` : '';
      sinks.err(clean(`error: ${message}${detail ? `\n${detail}` : ''}`));
    },
  };
}

/** A logger that writes nothing, for the in-process benchmark. */
export const silentLogger: Logger = {
  request: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
