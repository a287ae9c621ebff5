/**
 * Builds the backends the settings name and routes each engine to its own. Every engine with
 * no backend of its own goes to the service's API at `serviceBaseUrl` (the local engines by
 * default), so a setting that names none changes nothing.
 */
import { ENGINES } from '../catalog';
import type { ClientConfig } from '../http';
import type { BackendConfig, EngineBackends } from './config';
import type { BackendOptions } from './options';
import { createImageRouter, type EngineRoutes } from './router';
import { createServiceBackend } from './service';
import type { BackendKind, ImageBackend } from './types';

const FACTORIES: Record<BackendKind, ((options: BackendOptions) => ImageBackend) | undefined> = {
  service: createServiceBackend,
  comfyui: undefined,
  a1111: undefined,
  openai: undefined,
};

/** Backend settings with their credentials, as the editor, the server and the CLI hold them. */
export interface BackendSetup {
  config: BackendConfig;
  /** The backend's credential (a bearer token; `user:password` for AUTOMATIC1111's --api-auth). */
  credential?: string;
}

export function createBackend(setup: BackendSetup, common: Omit<ClientConfig, 'baseUrl' | 'token'> & Pick<BackendOptions, 'WebSocket'> = {}): ImageBackend {
  const factory = FACTORIES[setup.config.kind];
  if (factory === undefined) throw new TypeError(`the ${setup.config.kind} backend is not available in this build`);
  return factory({
    ...common,
    baseUrl: setup.config.baseUrl,
    ...(setup.credential === undefined || setup.credential === '' ? {} : { token: setup.credential }),
    ...(setup.config.names === undefined ? {} : { names: setup.config.names }),
  });
}

/**
 * The image client for a run: each engine's backend from `backends` (with its credential from
 * `credentials`, keyed by engine), the others on the service's API at `service`.
 */
export function createRoutedImageClient(
  service: ClientConfig,
  backends: EngineBackends = {},
  credentials: Partial<Record<string, string>> = {},
  common: Omit<ClientConfig, 'baseUrl' | 'token'> & Pick<BackendOptions, 'WebSocket'> = {},
) {
  const serviceBackend = createServiceBackend(service);
  const routes = {} as EngineRoutes;
  for (const engine of ENGINES) {
    const config = backends[engine];
    routes[engine] = config === undefined ? serviceBackend : createBackend({ config, credential: credentials[engine] }, common);
  }
  return createImageRouter(routes);
}

export * from './types';
export * from './config';
export type { BackendOptions } from './options';
