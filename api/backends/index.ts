/**
 * Builds the backends the settings name and routes each engine to its own. Every engine with
 * no backend of its own goes to the service's API at `serviceBaseUrl` (the local engines by
 * default), so a setting that names none changes nothing.
 */
import { ENGINES, type EngineId } from '../catalog';
import type { ImageClient } from '../client-types';
import type { ClientConfig } from '../http';
import type { BackendConfig, BackendNamesConfig, EngineBackends, EngineCredentials } from './config';
import type { BackendOptions } from './options';
import { findBackend, type BackendEntry } from './describe';
import { BACKENDS } from './registry';
import { createWatchedPool } from './watched-pool';
import { createImageRouter, type EngineRoutes } from './router';
import type { BackendKind, BackendNames, ImageBackend } from './types';

/** Backend settings with their credentials, as the editor, the server and the CLI hold them. */
export interface BackendSetup {
  config: BackendConfig;
  /** The backend's credential (a bearer token; `user:password` for AUTOMATIC1111's --api-auth). */
  credential?: string;
  /** What the backend listed it has, when known: names missing from it are refused in review. */
  listed?: BackendNames;
  /** A pool's credentials, by the position of each server in `config.baseUrls`; `credential` for a server without one. */
  credentials?: readonly (string | undefined)[];
}

/**
 * The backend `setup` names, its code loaded on first use (registry.ts). `backends` is the
 * registry's list unless a test hands its own.
 */
export async function createBackend(setup: BackendSetup, common: CommonOptions = {}, backends: readonly BackendEntry[] = BACKENDS): Promise<ImageBackend> {
  const entry = findBackend(backends, setup.config.kind);
  if (entry === undefined) throw new TypeError(`the ${setup.config.kind} backend is not available in this build`);
  const factory = await entry.load();
  const build = (baseUrl: string, credential: string | undefined) => factory({
    ...common,
    baseUrl,
    ...(credential === undefined || credential === '' ? {} : { token: credential }),
    ...(setup.config.names === undefined ? {} : { names: setup.config.names }),
    ...(setup.listed === undefined ? {} : { listed: setup.listed }),
  });
  const servers = setup.config.baseUrls;
  if (servers === undefined) return build(setup.config.baseUrl, setup.credential);
  if (entry.description.pool !== true) throw new TypeError(`${entry.description.label} takes one base URL, not a list of servers`);
  const credentialOf = (i: number) => setup.credentials?.[i] ?? setup.credential;
  // One server is exactly the backend it always was: no pool in between.
  if (servers.length === 1) return build(servers[0]!.url, credentialOf(0));
  return createWatchedPool(servers.map((server, i) => ({ label: server.label, address: server.url, backend: build(server.url, credentialOf(i)) })), { feed: true });
}

export type CommonOptions = Omit<ClientConfig, 'baseUrl' | 'token'> & Pick<BackendOptions, 'WebSocket'>;

/** Every credential `credentials` holds, for the lists of strings never to print. */
export function credentialValues(credentials: EngineCredentials = {}): string[] {
  return Object.values(credentials).flat().filter((c): c is string => c !== undefined && c !== '');
}

/**
 * The image client for a run: each engine listed in `backends` on its backend (with its
 * credential or a pool's credentials from `credentials`, keyed by engine), every other engine on `service`, the
 * service's own client. With no backends, `service` itself. Resolves once every backend's code
 * is loaded.
 */
export async function routeImageRequests(
  service: ImageClient,
  backends: EngineBackends = {},
  credentials: EngineCredentials = {},
  common: CommonOptions = {},
  make: (setup: BackendSetup, common: CommonOptions) => ImageBackend | Promise<ImageBackend> = createBackend,
): Promise<ImageClient> {
  if (ENGINES.every((engine) => backends[engine] === undefined)) return service;
  const routes = {} as EngineRoutes;
  await Promise.all(ENGINES.map(async (engine) => {
    const config = backends[engine];
    const credential = credentials[engine];
    routes[engine] = config === undefined ? service : await make({ config, ...(typeof credential === 'string' ? { credential } : credential === undefined ? {} : { credentials: credential }) }, common);
  }));
  return createImageRouter(routes);
}

/** A backend another program (the local server's forwarder) sends to: what the page knows of it. */
export interface RemoteBackend {
  kind: BackendKind;
  names?: BackendNamesConfig;
  /** What that backend listed it has, when known (the server asked it): checked in review. */
  listed?: BackendNames;
  /** A pool's: how many servers share its requests (never their addresses). */
  servers?: number;
}

/**
 * `client` (the forwarder's route, which speaks the service's contract) with the review of the
 * backends the server sends each engine to, so the run's problems and cost panel say before a
 * run what they will approximate or refuse, and what they quote. The backends built here only review: the requests
 * still go through `client` to the server, which holds the backends' addresses and credentials.
 * The same serves a routed client whose backends' lists became known (`withListedNames`).
 */
export async function reviewForwardedBackends(client: ImageClient, forwarded: Partial<Record<EngineId, RemoteBackend>>, placeholderUrl: string): Promise<ImageClient> {
  const reviewers = new Map<EngineId, ImageBackend>();
  await Promise.all(ENGINES.map(async (engine) => {
    const remote = forwarded[engine];
    if (remote !== undefined && remote.kind !== 'service') {
      const config = { kind: remote.kind, baseUrl: placeholderUrl, ...(remote.names === undefined ? {} : { names: remote.names }) };
      const backend = await createBackend({ config, ...(remote.listed === undefined ? {} : { listed: remote.listed }) });
      const servers = remote.servers;
      // The server holds the pool: its review here is one server's, so the count is the server's word.
      reviewers.set(engine, servers === undefined || servers < 2 ? backend : { ...backend, review: (e, r) => ({ ...backend.review(e, r), servers }) });
    }
  }));
  if (reviewers.size === 0) return client;
  return {
    generate: (engine, request, options) => client.generate(engine, request, options),
    review: (engine, request) => reviewers.get(engine)?.review(engine, request) ?? client.review?.(engine, request),
    price: (engine, request) => reviewers.get(engine)?.price?.(engine, request) ?? client.price?.(engine, request),
    // A ComfyUI workflow node runs through the client it was given, whatever reviews its requests.
    ...(client.runPipeline === undefined ? {} : { runPipeline: client.runPipeline }),
    ...(client.watchServers === undefined ? {} : { watchServers: client.watchServers.bind(client) }),
  };
}

/**
 * `client` (routed by `backends`) whose review also checks each engine's request against the
 * names its backend listed (`listed`, by engine, as the settings or the worker asked them): a
 * file the backend lacks is a refusal before anything is sent. Engines whose lists are not known
 * keep the client's own review.
 */
export async function withListedNames(client: ImageClient, backends: EngineBackends = {}, listed: Partial<Record<EngineId, BackendNames>> = {}): Promise<ImageClient> {
  const remotes: Partial<Record<EngineId, RemoteBackend>> = {};
  for (const engine of ENGINES) {
    const config = backends[engine];
    const names = listed[engine];
    const servers = config?.baseUrls?.length ?? 0;
    if (config !== undefined && names !== undefined) remotes[engine] = { kind: config.kind, ...(config.names === undefined ? {} : { names: config.names }), listed: names, ...(servers > 1 ? { servers } : {}) };
  }
  return reviewForwardedBackends(client, remotes, 'http://127.0.0.1/');
}

/**
 * Names the backends for the result cache (kind, base URL and names, never a credential), so a
 * picture from one backend or checkpoint is not served once the settings point at another.
 */
export function backendsScope(backends: EngineBackends = {}): string {
  return ENGINES.map((engine) => {
    const config = backends[engine];
    if (config === undefined) return '';
    // A pool's servers run the same models, so which of them (or how many) is no part of the key.
    const where = config.baseUrls === undefined || config.baseUrls.length === 1 ? config.baseUrls?.[0]?.url ?? config.baseUrl : 'pool';
    return `${engine}=${JSON.stringify([config.kind, where, config.names ?? {}])}`;
  }).filter((part) => part !== '').join(' ');
}

export * from './types';
export * from './config';
export { BACKENDS, BACKEND_DESCRIPTION, BACKEND_KINDS, BACKEND_LABEL, isBackendKind } from './registry';
export type { BackendDescription, BackendEntry, NameField, NameKey } from './describe';
export type { BackendOptions } from './options';
