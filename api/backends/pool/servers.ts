/**
 * A pool's servers as people type them outside the editor: the CLI's repeated `--backend-url`
 * and the server's `ATELIER_BACKEND_URL` take `[LABEL=]URL` each (`gpu2=http://10.0.0.7:8188`),
 * and each server's own credential comes from the environment, `ATELIER_BACKEND_TOKEN_<LABEL>`,
 * never from a command line. One syntax for both, so what works in one works in the other.
 */
import type { BackendConfig, PoolServer } from '../config';

/** The label a server gets when none is typed: its place in the list, never its address. */
export const defaultServerLabel = (position: number): string => `server ${position + 1}`;

/**
 * `[LABEL=]URL` split into its label and URL. The '=' counts only before any `://`, so a URL is
 * never cut; a missing label is `server N`. Neither side is checked here beyond being non-empty.
 */
export function splitServer(raw: string, position: number): { label: string; url: string } | { error: string } {
  const text = raw.trim();
  const scheme = text.indexOf('://');
  const at = text.indexOf('=');
  if (at < 0 || (scheme >= 0 && at > scheme)) return text === '' ? { error: 'is empty' } : { label: defaultServerLabel(position), url: text };
  const label = text.slice(0, at).trim();
  const url = text.slice(at + 1).trim();
  if (label === '') return { error: `'${text.slice(0, 80)}' has '=' but no label before it` };
  if (url === '') return { error: `'${label.slice(0, 60)}=' has no URL after '='` };
  if (label.length > 60) return { error: `the label '${label.slice(0, 60)}…' is longer than 60 characters` };
  return { label, url };
}

/**
 * The servers of `entries` (each `[LABEL=]URL`; a value may also list several separated by commas
 * or spaces, as an environment variable does). Throws `fail(message)` naming the first bad entry
 * and two servers of one label.
 */
export function parseServers(entries: readonly string[], fail: (message: string) => Error): PoolServer[] {
  const parts = entries.flatMap((entry) => entry.split(/[\s,]+/)).filter((part) => part !== '');
  const servers: PoolServer[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    const split = splitServer(part, servers.length);
    if ('error' in split) throw fail(`server ${servers.length + 1} ${split.error}; expected [LABEL=]URL, e.g. gpu2=http://127.0.0.1:8189`);
    if (seen.has(split.label)) throw fail(`'${split.label}' names two servers: each needs its own label (LABEL=URL)`);
    seen.add(split.label);
    servers.push(split);
  }
  return servers;
}

/** The environment variable of one server's own credential: `ATELIER_BACKEND_TOKEN_GPU2` for `gpu2`. */
export function serverTokenVariable(label: string, prefix = 'ATELIER_BACKEND_TOKEN'): string {
  return `${prefix}_${label.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')}`;
}

/**
 * Each server's own credential from `env`, by position: `ATELIER_BACKEND_TOKEN_<LABEL>` when set,
 * else undefined (the backend's shared credential, `ATELIER_BACKEND_TOKEN`, is used then).
 */
export function serverCredentials(servers: readonly PoolServer[], env: Readonly<Record<string, string | undefined>>): (string | undefined)[] {
  return servers.map((server) => {
    const value = env[serverTokenVariable(server.label)]?.trim();
    return value === undefined || value === '' ? undefined : value;
  });
}

/**
 * Each pool server's own credential, by label, for the server's forwarder: the environment's
 * `ATELIER_BACKEND_TOKEN_<LABEL>` over the config file's `backendTokens`.
 */
export function poolTokens(backends: readonly BackendConfig[], env: Readonly<Record<string, string | undefined>>, file: Readonly<Record<string, string>> = {}): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const backend of backends) {
    for (const { label } of backend.baseUrls ?? []) {
      const token = env[serverTokenVariable(label)]?.trim() || (Object.hasOwn(file, label) ? file[label] : undefined);
      if (token !== undefined && token !== '') tokens.set(label, token);
    }
  }
  return tokens;
}
