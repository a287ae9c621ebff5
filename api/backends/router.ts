/**
 * The image client the executor sees when engines are routed to backends: each engine's
 * requests go to the backend configured for it, and `review` tells before a run what that
 * backend will do with a request.
 */
import type { EngineId } from '../catalog';
import type { ImageClient } from '../client-types';
import type { ImageBackend } from './types';

export type EngineRoutes = Record<EngineId, ImageBackend>;

export function createImageRouter(routes: EngineRoutes): ImageClient {
  return {
    generate: (engine, request, options) => routes[engine].generate(engine, request, options),
    review: (engine, request) => routes[engine].review(engine, request),
  };
}
