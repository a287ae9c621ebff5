/**
 * Who may talk to the server. Host is checked on every request so a DNS-rebinding page (a foreign
 * name resolving to 127.0.0.1) is refused; Origin, when a browser sends one, must be the server's
 * own so another site cannot drive the engines or spend the forwarder's token. Clients without an
 * Origin (CLI, SDKs, curl) pass. The local engines' optional token is checked here too.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage } from 'node:http';
import { networkInterfaces, hostname } from 'node:os';
import { isLoopbackHost } from './config';
import { HttpError } from './http-utils';

export interface Guard {
  /** Throws a 403 HttpError when Host or Origin is not acceptable. */
  check(req: IncomingMessage): void;
  /** Host names (with port) this server answers to. */
  readonly hosts: ReadonlySet<string>;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

function hostWithPort(name: string, port: number): string {
  const bare = name.toLowerCase().replace(/^\[|\]$/g, '');
  return `${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}

/**
 * The names the server may be reached by: loopback names, the bound host, and when bound to every
 * interface, this machine's own addresses and hostname.
 */
export function allowedHosts(boundHost: string, port: number): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  if (WILDCARDS.has(boundHost)) {
    for (const list of Object.values(networkInterfaces())) {
      for (const address of list ?? []) names.add(address.address);
    }
    names.add(hostname());
  } else {
    names.add(boundHost);
  }
  const hosts = new Set<string>();
  for (const name of names) {
    hosts.add(hostWithPort(name, port));
    // Browsers leave out the default port.
    if (port === 80) hosts.add(hostWithPort(name, port).replace(/:80$/, ''));
  }
  return hosts;
}

export function createGuard(boundHost: string, port: number, extraOrigins: readonly string[]): Guard {
  const hosts = allowedHosts(boundHost, port);
  const origins = new Set([...[...hosts].map((h) => `http://${h}`), ...extraOrigins]);
  return {
    hosts,
    check(req) {
      const host = req.headers.host?.toLowerCase();
      if (host === undefined || !hosts.has(host)) {
        throw new HttpError(403, `Host: '${(host ?? '(none)').slice(0, 100)}' is not this server; use http://${hostWithPort(isLoopbackHost(boundHost) || WILDCARDS.has(boundHost) ? '127.0.0.1' : boundHost, port)} (requests under other names are refused to stop DNS rebinding)`);
      }
      const origin = req.headers.origin;
      if (origin !== undefined && !origins.has(origin.toLowerCase())) {
        throw new HttpError(403, `Origin: '${origin.slice(0, 100)}' may not use this server; only pages it serves itself (or ATELIER_ALLOWED_ORIGINS) may call it from a browser`);
      }
    },
  };
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** The 401 text: the same whatever was sent, so nothing sent is ever echoed back. */
export const AUTH_FAILED = 'missing or wrong Authorization: Bearer token (this server requires the token set in ATELIER_LOCAL_TOKEN)';

/**
 * Checks `Authorization: Bearer <token>` against the required token, in constant time (both
 * sides are hashed to equal length first). Without a required token, anything passes.
 */
export function checkBearer(req: IncomingMessage, required: string | undefined): void {
  if (required === undefined) return;
  const header = req.headers.authorization ?? '';
  const match = /^Bearer[ \t]+(.+)$/i.exec(header.trim());
  const given = match?.[1]?.trim() ?? '';
  if (!timingSafeEqual(digest(given), digest(required)) || given === '') {
    throw new HttpError(401, AUTH_FAILED, { 'WWW-Authenticate': 'Bearer realm="atelier-local"' });
  }
}
