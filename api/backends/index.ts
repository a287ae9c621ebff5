/**
 * Builds the backends the settings name and routes each engine to its own. Every engine with
 * no backend of its own goes to the service's API at `serviceBaseUrl` (the local engines by
 * default), so a setting that names none changes nothing.
 */
import { ENGINES, type EngineId } from '../catalog';
import type { ImageClient } from '../client-types';
import type { ClientConfig } from '../http';
import type { BackendConfig, BackendNamesConfig, EngineBackends } from './config';
import type { BackendOptions } from './options';
import { createImageRouter, type EngineRoutes } from './router';
import { createA1111Backend } from './a1111/index';
import { createComfyBackend } from './comfyui/index';
import { createOpenAIImagesBackend } from './openai/index';
import { createServiceBackend } from './service';
import type { BackendKind, BackendNames, ImageBackend } from './types';

const FACTORIES: Record<BackendKind, ((options: BackendOptions) => ImageBackend) | undefined> = {
  service: createServiceBackend,
  comfyui: createComfyBackend,
  a1111: createA1111Backend,
  openai: createOpenAIImagesBackend,
};

/** Backend settings with their credentials, as the editor, the server and the CLI hold them. */
export interface BackendSetup {
  config: BackendConfig;
  /** The backend's credential (a bearer token; `user:password` for AUTOMATIC1111's --api-auth). */
  credential?: string;
  /** What the backend listed it has, when known: names missing from it are refused in review. */
  listed?: BackendNames;
}

export function createBackend(setup: BackendSetup, common: CommonOptions = {}): ImageBackend {
  const factory = FACTORIES[setup.config.kind];
  if (factory === undefined) throw new TypeError(`the ${setup.config.kind} backend is not available in this build`);
  return factory({
    ...common,
    baseUrl: setup.config.baseUrl,
    ...(setup.credential === undefined || setup.credential === '' ? {} : { token: setup.credential }),
    ...(setup.config.names === undefined ? {} : { names: setup.config.names }),
    ...(setup.listed === undefined ? {} : { listed: setup.listed }),
  });
}

type CommonOptions = Omit<ClientConfig, 'baseUrl' | 'token'> & Pick<BackendOptions, 'WebSocket'>;

/**
 * The image client for a run: each engine listed in `backends` on its backend (with its
 * credential from `credentials`, keyed by engine), every other engine on `service`, the
 * service's own client. With no backends, `service` itself.
 */
export function routeImageRequests(
  service: ImageClient,
  backends: EngineBackends = {},
  credentials: Partial<Record<EngineId, string>> = {},
  common: CommonOptions = {},
  make: (setup: BackendSetup, common: CommonOptions) => ImageBackend = createBackend,
): ImageClient {
  if (ENGINES.every((engine) => backends[engine] === undefined)) return service;
  const routes = {} as EngineRoutes;
  for (const engine of ENGINES) {
    const config = backends[engine];
    routes[engine] = config === undefined ? service : make({ config, credential: credentials[engine] }, common);
  }
  return createImageRouter(routes);
}

/** A backend another program (the local server's forwarder) sends to: what the page knows of it. */
export interface RemoteBackend {
  kind: BackendKind;
  names?: BackendNamesConfig;
  /** What that backend listed it has, when known (the server asked it): checked in review. */
  listed?: BackendNames;
}

/**
 * `client` (the forwarder's route, which speaks the service's contract) with the review of the
 * backends the server sends each engine to, so the run's problems and cost panel say before a
 * run what they will approximate or refuse. The backends built here only review: the requests
 * still go through `client` to the server, which holds the backends' addresses and credentials.
 * The same serves a routed client whose backends' lists became known (`withListedNames`).
 */
export function reviewForwardedBackends(client: ImageClient, forwarded: Partial<Record<EngineId, RemoteBackend>>, placeholderUrl: string): ImageClient {
  const reviewers = new Map<EngineId, ImageBackend>();
  for (const engine of ENGINES) {
    const remote = forwarded[engine];
    if (remote !== undefined && remote.kind !== 'service') {
      const config = { kind: remote.kind, baseUrl: placeholderUrl, ...(remote.names === undefined ? {} : { names: remote.names }) };
      reviewers.set(engine, createBackend({ config, ...(remote.listed === undefined ? {} : { listed: remote.listed }) }));
    }
  }
  if (reviewers.size === 0) return client;
  return {
    generate: (engine, request, options) => client.generate(engine, request, options),
    review: (engine, request) => reviewers.get(engine)?.review(engine, request) ?? client.review?.(engine, request),
  };
}

/**
 * `client` (routed by `backends`) whose review also checks each engine's request against the
 * names its backend listed (`listed`, by engine, as the settings or the worker asked them): a
 * file the backend lacks is a refusal before anything is sent. Engines whose lists are not known
 * keep the client's own review.
 */
export function withListedNames(client: ImageClient, backends: EngineBackends = {}, listed: Partial<Record<EngineId, BackendNames>> = {}): ImageClient {
  const remotes: Partial<Record<EngineId, RemoteBackend>> = {};
  for (const engine of ENGINES) {
    const config = backends[engine];
    const names = listed[engine];
    if (config !== undefined && names !== undefined) remotes[engine] = { kind: config.kind, ...(config.names === undefined ? {} : { names: config.names }), listed: names };
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
    return config === undefined ? '' : `${engine}=${JSON.stringify([config.kind, config.baseUrl, config.names ?? {}])}`;
  }).filter((part) => part !== '').join(' ');
}

export * from './types';
export * from './config';
export type { BackendOptions } from './options';
