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
import { createGoogleBackend } from './google/index';
import { createOpenAIImagesBackend } from './openai/index';
import { createServiceBackend } from './service';
import type { BackendKind, ImageBackend } from './types';

const FACTORIES: Record<BackendKind, ((options: BackendOptions) => ImageBackend) | undefined> = {
  service: createServiceBackend,
  comfyui: createComfyBackend,
  a1111: createA1111Backend,
  openai: createOpenAIImagesBackend,
  google: createGoogleBackend,
};

/** Backend settings with their credentials, as the editor, the server and the CLI hold them. */
export interface BackendSetup {
  config: BackendConfig;
  /** The backend's credential (a bearer token; `user:password` for AUTOMATIC1111's --api-auth). */
  credential?: string;
}

export function createBackend(setup: BackendSetup, common: CommonOptions = {}): ImageBackend {
  const factory = FACTORIES[setup.config.kind];
  if (factory === undefined) throw new TypeError(`the ${setup.config.kind} backend is not available in this build`);
  return factory({
    ...common,
    baseUrl: setup.config.baseUrl,
    ...(setup.credential === undefined || setup.credential === '' ? {} : { token: setup.credential }),
    ...(setup.config.names === undefined ? {} : { names: setup.config.names }),
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
}

/**
 * `client` (the forwarder's route, which speaks the service's contract) with the review of the
 * backends the server sends each engine to, so the run's problems and cost panel say before a
 * run what they will approximate or refuse. The backends built here only review: the requests
 * still go through `client` to the server, which holds the backends' addresses and credentials.
 */
export function reviewForwardedBackends(client: ImageClient, forwarded: Partial<Record<EngineId, RemoteBackend>>, placeholderUrl: string): ImageClient {
  const reviewers = new Map<EngineId, ImageBackend>();
  for (const engine of ENGINES) {
    const remote = forwarded[engine];
    if (remote !== undefined && remote.kind !== 'service') {
      reviewers.set(engine, createBackend({ config: { kind: remote.kind, baseUrl: placeholderUrl, ...(remote.names === undefined ? {} : { names: remote.names }) } }));
    }
  }
  if (reviewers.size === 0) return client;
  return {
    generate: (engine, request, options) => client.generate(engine, request, options),
    review: (engine, request) => reviewers.get(engine)?.review(engine, request) ?? client.review?.(engine, request),
  };
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
