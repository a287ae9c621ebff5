/**
 * The forwarder's image backends: a browser on the route "through this server" speaks the
 * service's contract to `/forward/image/generate/{engine}`, and for an engine routed to a
 * backend (ComfyUI, AUTOMATIC1111, OpenAI Images) the server translates the request with the
 * same module the editor and the CLI use, holds the backend's credential, and answers in the
 * service's response shape. Nothing the browser sends can change where the request goes.
 */
import { createBackend } from '../../api/backends/index';
import type { PoolBackend } from '../../api/backends/pool/index';
import type { ServerStatus } from '../../api/backends/pool/state';
import type { ImageBackend } from '../../api/backends/types';
import type { EngineId } from '../../api/catalog';
import { isApiError } from '../../api/errors';
import { validateImageRequest } from '../../api/image';
import type { ForwarderConfig } from '../config';
import { HttpError } from '../http-utils';
import { backendLists } from './backend-lists';

export interface ForwardBackends {
  /** The backend for this engine, or undefined when it goes to the image base URL. */
  get(engine: EngineId): ImageBackend | undefined;
  /**
   * The engine's backend for reviewing a request, knowing what the backend lists now (asked by
   * the server), so a file it lacks is refused before sending; the plain one when it cannot say.
   */
  reviewer(engine: EngineId): Promise<ImageBackend | undefined>;
  /** The engines `backend` serves, for a pool's reports. */
  enginesOf(backend: ImageBackend): EngineId[];
}

/** The backends each forwarder settings built, for what /api/info says of their servers. */
const builtFor = new WeakMap<ForwarderConfig, ReadonlyMap<EngineId, ImageBackend>>();

/**
 * The servers of the pool the forwarder sends `engine` to, as its placement sees them now (by
 * label, and whether it is down); undefined when that backend is no pool or not built yet.
 */
export function forwardedServers(forwarder: ForwarderConfig, engine: EngineId): ServerStatus[] | undefined {
  const backend = builtFor.get(forwarder)?.get(engine) as Partial<PoolBackend> | undefined;
  return typeof backend?.status === 'function' ? backend.status() : undefined;
}

/** One backend per engine the settings route, built once at start (they keep no per-request state). */
export async function forwardBackends(forwarder: ForwarderConfig, WebSocket?: typeof globalThis.WebSocket): Promise<ForwardBackends> {
  const built = new Map<EngineId, ImageBackend>();
  for (const [engine, config] of Object.entries(forwarder.imageBackends) as [EngineId, NonNullable<ForwarderConfig['imageBackends'][EngineId]>][]) {
    // A pool server's own credential, by its label; the others use the backend's.
    const credentials = config.baseUrls?.map((server) => forwarder.serverTokens?.get(server.label));
    built.set(engine, await createBackend({
      config, ...(forwarder.backendToken === undefined ? {} : { credential: forwarder.backendToken }), ...(credentials === undefined ? {} : { credentials }),
    }, WebSocket ? { WebSocket } : {}));
  }
  builtFor.set(forwarder, built);
  const lists = backendLists(forwarder);
  return {
    get: (engine) => built.get(engine),
    enginesOf: (backend) => [...built].filter(([, b]) => b === backend).map(([engine]) => engine),
    async reviewer(engine) {
      const config = forwarder.imageBackends[engine];
      // A pool's servers hold different files: its placement checks them server by server.
      const listed = config === undefined || (config.baseUrls?.length ?? 0) > 1 ? undefined : await lists.get(engine);
      return config === undefined || listed === undefined ? built.get(engine) : createBackend({ config, listed });
    },
  };
}

/**
 * Runs one forwarded request on its backend. The request is checked as the service would check
 * it, then as the backend reviews it; what either refuses is a 400 naming the field. A backend's
 * failure keeps its words (never the credential) under a status the browser's client treats
 * alike: 400 when sending again cannot help, else 502 (unreachable, answered badly) or 504 (timed out).
 * `onProgress` hears what the backend reports while it runs.
 */
export async function generateOnBackend(
  backend: ImageBackend, engine: EngineId, body: unknown, signal: AbortSignal, reviewer: ImageBackend = backend,
  onProgress?: (fraction: number, message?: string) => void,
): Promise<unknown> {
  const checked = validateImageRequest(engine, body);
  if (!checked.ok) throw new HttpError(400, checked.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  const request = body as Parameters<ImageBackend['generate']>[1];
  const review = reviewer.review(engine, request);
  if (review.refusals.length > 0) {
    throw new HttpError(400, review.refusals.map((r) => `${r.path}: ${review.label} cannot take this request: ${r.message}`).join('; '));
  }
  try {
    return await backend.generate(engine, request, { signal, ...(onProgress === undefined ? {} : { onProgress }) });
  } catch (error) {
    if (!isApiError(error)) throw error;
    // A failure the backend says sending again cannot mend (a safety refusal, no credit, a submit
    // that may already have run) is never a 502 or 504, which the browser's client retries: each
    // retry would run, and bill, again.
    const refused = !error.retryable || (error.status !== undefined && error.status >= 400 && error.status < 500);
    const status = refused ? 400 : error.kind === 'timeout' ? 504 : 502;
    throw new HttpError(status, `${backend.label}: ${error.detail}`);
  }
}
