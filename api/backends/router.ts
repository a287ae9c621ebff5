/**
 * The image client the executor sees when engines are routed to backends: each engine's
 * requests go to the backend configured for it, and `review` tells before a run what that
 * backend will do with a request, and `price` what it will cost where the backend quotes one.
 */
import type { EngineId } from '../catalog';
import type { ImageClient, ServersReport } from '../client-types';
/** Each engine's client: a backend, or the service's own client. */
export type EngineRoutes = Record<EngineId, ImageClient>;

export function createImageRouter(routes: EngineRoutes): ImageClient {
  // A ComfyUI pipeline belongs to no engine: the first ComfyUI backend among the routes runs it.
  const pipelines = Object.values(routes).find((route) => route.runPipeline !== undefined);
  return {
    ...(pipelines?.runPipeline === undefined ? {} : { runPipeline: pipelines.runPipeline.bind(pipelines) }),
    generate: (engine, request, options) => routes[engine].generate(engine, request, options),
    review(engine, request) {
      const route = routes[engine];
      return route.review === undefined ? undefined : route.review(engine, request);
    },
    price(engine, request) {
      const route = routes[engine];
      return route.price === undefined ? undefined : route.price(engine, request);
    },
    watchServers: (listener) => watchRoutes(routes, listener),
  };
}

/**
 * Watches every route that has servers to watch, once each however many engines share it, and
 * names in each report the engines it serves.
 */
function watchRoutes(routes: EngineRoutes, listener: (report: ServersReport) => void): () => void {
  const engines = new Map<ImageClient, EngineId[]>();
  for (const [engine, route] of Object.entries(routes) as [EngineId, ImageClient][]) {
    if (route.watchServers !== undefined) engines.set(route, [...(engines.get(route) ?? []), engine]);
  }
  const stops = [...engines].map(([route, served]) => route.watchServers!((report) => listener({ ...report, engines: report.engines.length > 0 ? report.engines : served })));
  return () => stops.forEach((stop) => stop());
}
