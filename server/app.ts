/**
 * The local server: one Node http server with the guard, the routes, error handling and the
 * request log. `createAtelierServer(config)` is used by main.ts, the tests' helpers and the bench.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { needsWebSocket } from '../api/backends/describe';
import { BACKENDS } from '../api/backends/registry';
import { type ServerConfig } from './config';
import { createGuard, type Guard } from './guard';
import { HttpError, sendText } from './http-utils';
import { createLogger, type Logger } from './log';
import { route, type Route } from './router';
import { forwarderRoutes } from './routes/forwarder';
import { infoRoutes } from './routes/info';
import { localImageRoutes } from './routes/local-image';
import { localTextRoutes } from './routes/local-text';
import { serveStatic } from './routes/static';
import { nodeWebSocket } from './node-websocket';

export interface AtelierServer {
  /** `http://host:port`, the address to open (loopback when bound to every interface). */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting, lets requests in flight finish for up to `graceMs`, then cuts them off. */
  close(graceMs?: number): Promise<void>;
}

export interface ServerOptions {
  logger?: Logger;
}

/** Paths the server owns outright: anything unmatched under them is a 404, never the editor. */
const API_PREFIXES = ['/local', '/forward', '/api'];

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/** Every secret the server knows, so the log can redact them wherever they appear. */
export function secretsOf(config: ServerConfig): string[] {
  return [config.localToken, config.forwarder.token, config.forwarder.backendToken, ...(config.forwarder.serverTokens?.values() ?? [])].filter((s): s is string => s !== undefined);
}

function isClientGone(error: unknown, req: IncomingMessage): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return req.destroyed || code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error | undefined)?.message === 'aborted';
}

function requestUrl(req: IncomingMessage): URL {
  const target = req.url ?? '/';
  try {
    // A path target is appended, never resolved, so `//other.host/x` stays a path here.
    return target.startsWith('/') ? new URL(`http://server${target}`) : new URL(target);
  } catch {
    throw new HttpError(400, 'path: the request target is not a valid URL path');
  }
}

export async function createAtelierServer(config: ServerConfig, options: ServerOptions = {}): Promise<AtelierServer> {
  const logger = options.logger ?? createLogger(secretsOf(config));
  const usesSocket = needsWebSocket(BACKENDS, Object.values(config.forwarder.imageBackends).map((b) => b.kind));
  const routes: Route[] = [
    ...infoRoutes(config),
    ...localImageRoutes(config),
    ...localTextRoutes(config),
    ...(await forwarderRoutes(config, usesSocket ? { WebSocket: await nodeWebSocket() } : {})),
  ];

  function fail(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    if (error instanceof HttpError) {
      if (res.headersSent) res.destroy();
      else sendText(res, error.status, error.message, error.headers);
      return;
    }
    if (isClientGone(error, req)) return;
    logger.error(`${req.method ?? '?'} request failed unexpectedly`, error);
    if (res.headersSent) res.destroy();
    else sendText(res, 500, 'internal error in the local server: the request failed unexpectedly (the server log has the details)');
  }

  async function handle(guard: Guard, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    res.once('close', () => {
      logger.request({
        method: req.method ?? '?',
        target: req.url ?? '/',
        status: res.statusCode,
        durationMs: performance.now() - started,
        aborted: !res.writableFinished,
      });
    });
    try {
      guard.check(req);
      const url = requestUrl(req);
      const method = req.method ?? 'GET';
      const origin = `http://${req.headers.host!.toLowerCase()}`;
      const matched = route(routes, method, url.pathname);
      if (matched !== undefined) {
        await matched.handler({ req, res, url, params: matched.params, origin });
      } else if (API_PREFIXES.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`))) {
        throw new HttpError(404, `path: nothing at ${url.pathname.slice(0, 100)}; the local engines are under /local/image and /local/text, the forwarder under /forward/image and /forward/text`);
      } else if (method === 'GET' || method === 'HEAD') {
        await serveStatic({ req, res, url, params: {}, origin }, config);
      } else {
        throw new HttpError(405, `method: ${method.slice(0, 10)} is not allowed on ${url.pathname.slice(0, 100)}; use GET or HEAD`, { Allow: 'GET, HEAD' });
      }
    } catch (error) {
      fail(req, res, error);
    }
  }

  const server = createServer();

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(config.port, config.host.replace(/^\[|\]$/g, ''), () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  server.on('error', (error) => logger.error('server error', error));

  const port = (server.address() as AddressInfo).port;
  // The guard needs the real port (PORT=0), so requests are taken only from here on.
  const guard = createGuard(config.host, port, config.allowedOrigins);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(guard, req, res).catch((error: unknown) => {
      // Only reachable if error handling itself throws; the process must stay up regardless.
      logger.error('error while reporting an error', error);
      res.destroy();
    });
  });
  const shownHost = WILDCARD_HOSTS.has(config.host) ? '127.0.0.1' : config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host;

  return {
    url: `http://${shownHost}:${port}`,
    port,
    server,
    close(graceMs = 0) {
      return new Promise<void>((resolveClose) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          resolveClose();
        });
        server.closeIdleConnections();
      });
    },
  };
}
