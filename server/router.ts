/**
 * A tiny router: fixed paths with at most named segments (`/generate/:engine`), one handler per
 * method. A known path with the wrong method is a 405 with Allow; an unknown path is a 404.
 */
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { HttpError } from './http-utils';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Named path segments, already percent-decoded. */
  params: Readonly<Record<string, string>>;
  /** `http://host:port` as this client addressed the server (Host already checked). */
  origin: string;
}

export type Handler = (ctx: RequestContext) => Promise<void> | void;
export type Method = 'GET' | 'POST';

export interface Route {
  path: string;
  methods: Partial<Record<Method, Handler>>;
}

interface Match {
  route: Route;
  params: Record<string, string>;
}

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        throw new HttpError(400, `path: '${g.slice(0, 60)}' is not a valid URL path segment`);
      }
    } else if (w !== g) {
      return undefined;
    }
  }
  return params;
}

/** Finds the handler for a request, or throws the 404/405 HttpError that explains why not. */
export function route(routes: readonly Route[], method: string, path: string): { handler: Handler; params: Record<string, string> } | undefined {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  let found: Match | undefined;
  for (const r of routes) {
    const params = matchPath(r.path, normalized);
    if (params !== undefined) {
      found = { route: r, params };
      break;
    }
  }
  if (found === undefined) return undefined;
  const effective = method === 'HEAD' ? 'GET' : method;
  const handler = found.route.methods[effective as Method];
  if (handler === undefined) {
    const allow = Object.keys(found.route.methods).flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
    throw new HttpError(405, `method: ${method.slice(0, 10)} is not allowed on ${found.route.path}; use ${allow.join(' or ')}`, { Allow: allow.join(', ') });
  }
  return { handler, params: found.params };
}
