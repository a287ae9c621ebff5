/**
 * Where the CLI's requests go: the local engines, started inside this process on 127.0.0.1 with
 * no simulated latency, unless a base URL is given on the command line. The token comes from
 * ATELIER_TOKEN only and goes only to those base URLs; a workflow file has no say in any of it.
 */
import type { ClientConfig } from '../api/http';
import { createChatClient } from '../api/chat-client';
import { createImageClient } from '../api/image-client';
import { BACKEND_LABEL, backendsScope, routeImageRequests, type EngineBackends, type EngineCredentials } from '../api/backends/index';
import { serverCredentials, serverTokenVariable } from '../api/backends/pool/servers';
import { ENGINES } from '../api/catalog';
import type { RunContext } from '../nodes/types';
import { UsageError } from './args';
import type { CliIo } from './io';

/** `local`, or the host (and port) of the base URL: what the manifest and progress show. */
export type EndpointLabel = string;

export interface Endpoints {
  api: RunContext['api'];
  image: EndpointLabel;
  text: EndpointLabel;
  /** Strings that must never be printed or written (the token). */
  secrets: string[];
  /** Names the services for the executor's cache (base URLs, never the token). */
  cacheScope: string;
  /** Things the user should know, safe to print. */
  notes: string[];
  /** Stops the in-process local server, if one was started. */
  close(): Promise<void>;
}

export interface EndpointOptions {
  imageBaseUrl?: string;
  textBaseUrl?: string;
  /** Engines whose requests go to a backend (ComfyUI, AUTOMATIC1111, OpenAI Images). */
  backends?: EngineBackends;
  env: Readonly<Record<string, string | undefined>>;
  /** A WebSocket constructor for backends that report progress over one (Node 20 has none built in). */
  WebSocket?: typeof globalThis.WebSocket;
  /** Whether the workflow has a chat node (to say where its requests go). */
  usesChat?: boolean;
  /** Where the in-process engines report their own failures. */
  log: (line: string) => void;
  client?: CliIo['client'];
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Checks a base URL flag and returns it without a trailing slash; throws UsageError. */
export function checkBaseUrl(flag: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`${flag} is not a URL; expected something like https://api.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http or https URL, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') {
    throw new UsageError(`${flag} must not carry a user name or password: command lines are visible to other users; put the token in ATELIER_TOKEN`);
  }
  if (url.search !== '' || url.hash !== '') throw new UsageError(`${flag} must be a base URL without a query or fragment (keys in URLs end up in logs)`);
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/** The in-process local server: loopback, a free port, no simulated latency, no forwarder. */
async function startLocalEngines(log: (line: string) => void): Promise<{ url: string; close(): Promise<void> }> {
  // Imported only when needed: a run against real endpoints never loads the engines.
  const [{ createAtelierServer }, { createLogger }, { localEnginesConfig }] = await Promise.all([
    import('../server/app'), import('../server/log'), import('../server/config'),
  ]);
  // Images travel as base64 in the request body: a large init image or mask must not be refused.
  const server = await createAtelierServer(localEnginesConfig({ maxBodyBytes: 256 * 1024 * 1024, version: 'cli' }), {
    // Request lines are noise here; only the engines' own failures are worth a line.
    logger: createLogger([], { out: () => undefined, err: (line) => log(`local engines: ${line}`) }),
  });
  return { url: server.url, close: () => server.close(0) };
}

/** `ComfyUI (127.0.0.1:8188)` for each backend in use, and the service for engines left on it. */
function backendLabel(backends: EngineBackends, serviceLabel: string): string {
  const labels = new Set(ENGINES.map((engine) => {
    const config = backends[engine];
    if (config === undefined) return serviceLabel;
    // A pool is named by its servers' labels, as the person chose them.
    if (config.baseUrls !== undefined && config.baseUrls.length > 1) return `${BACKEND_LABEL[config.kind]} (pool: ${config.baseUrls.map((s) => s.label).join(', ')})`;
    return `${BACKEND_LABEL[config.kind]} (${new URL(config.baseUrls?.[0]?.url ?? config.baseUrl).host})`;
  }));
  return [...labels].join(', ');
}

/** Builds the API clients the run uses, starting the local engines when a base URL is missing. */
export async function openEndpoints(options: EndpointOptions): Promise<Endpoints> {
  const image = options.imageBaseUrl === undefined ? undefined : checkBaseUrl('--image-base-url', options.imageBaseUrl);
  const text = options.textBaseUrl === undefined ? undefined : checkBaseUrl('--text-base-url', options.textBaseUrl);
  const rawToken = options.env.ATELIER_TOKEN?.trim();
  const token = rawToken === undefined || rawToken === '' ? undefined : rawToken;
  const rawBackendToken = options.env.ATELIER_BACKEND_TOKEN?.trim();
  const backendToken = rawBackendToken === undefined || rawBackendToken === '' ? undefined : rawBackendToken;
  const backends = options.backends ?? {};
  const routed = ENGINES.filter((engine) => backends[engine] !== undefined);
  const notes: string[] = [];
  if (backendToken !== undefined && routed.length === 0) {
    notes.push('ATELIER_BACKEND_TOKEN is set but not used: no engine goes to a backend (give --image-backend or --backends)');
  }
  // A pool's servers may each have their own credential (ATELIER_BACKEND_TOKEN_<LABEL>).
  const ownCredentials = new Map(routed.map((engine) => [engine, serverCredentials(backends[engine]!.baseUrls ?? [], options.env)]));
  const warned = new Set<string>();
  for (const engine of routed) {
    const config = backends[engine]!;
    const servers = config.baseUrls ?? [{ label: '', url: config.baseUrl }];
    servers.forEach((server, i) => {
      const url = checkBaseUrl(`the ${engine} backend's URL`, server.url);
      const variable = ownCredentials.get(engine)?.[i] !== undefined ? serverTokenVariable(server.label) : backendToken === undefined ? undefined : 'ATELIER_BACKEND_TOKEN';
      if (variable !== undefined && url.protocol === 'http:' && !LOOPBACK.test(url.hostname) && !warned.has(url.host)) {
        warned.add(url.host);
        notes.push(`the ${engine} backend${server.label === '' ? '' : ` (${server.label})`} is plain http to ${url.host}: ${variable} crosses the network unencrypted; use https`);
      }
    });
  }

  if (token !== undefined && image === undefined && text === undefined) {
    notes.push('ATELIER_TOKEN is set but not used: the run goes to the local engines (give --image-base-url / --text-base-url for real endpoints)');
  }
  for (const [flag, url] of [['--image-base-url', image], ['--text-base-url', text]] as const) {
    if (url && token !== undefined && url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
      notes.push(`${flag} is plain http to ${url.host}: ATELIER_TOKEN crosses the network unencrypted; use https`);
    }
  }

  if (text === undefined && options.usesChat === true && (image !== undefined || routed.length > 0)) {
    notes.push('chat goes to the local text engine started in this process, a stand-in (offline, not a language model): give --text-base-url (and --model) for a real chat API');
  }

  const local = image === undefined || text === undefined ? await startLocalEngines(options.log) : undefined;
  const remote = (url: URL): ClientConfig => ({ ...options.client, baseUrl: url.href, ...(token === undefined ? {} : { token }) });
  const viaLocal = (path: string): ClientConfig => ({ ...options.client, baseUrl: `${local!.url}${path}` });
  try {
    const imageConfig = image ? remote(image) : viaLocal('/local/image');
    const textConfig = text ? remote(text) : viaLocal('/local/text');
    const credentials: EngineCredentials = {};
    for (const engine of routed) {
      const own = ownCredentials.get(engine) ?? [];
      if (own.some((c) => c !== undefined)) credentials[engine] = own.map((c) => c ?? backendToken);
      else if (backendToken !== undefined) credentials[engine] = backendToken;
    }
    const imageClient = await routeImageRequests(createImageClient(imageConfig), backends, credentials, { ...options.client, ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}) });
    const serviceLabel = image ? image.host : 'local';
    return {
      api: { image: imageClient, chat: createChatClient(textConfig) },
      image: routed.length === 0 ? serviceLabel : backendLabel(backends, serviceLabel),
      text: text ? text.host : 'local',
      secrets: [token, backendToken, ...[...ownCredentials.values()].flat()].filter((secret): secret is string => secret !== undefined),
      cacheScope: `${image?.href ?? 'local'} ${text?.href ?? 'local'} ${backendsScope(backends)}`.trim(),
      notes,
      close: () => local?.close() ?? Promise.resolve(),
    };
  } catch (error) {
    await local?.close();
    // The clients name a bad setting (a token with spaces); the message never holds the token.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
