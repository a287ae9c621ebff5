/**
 * A backend's settings: which kind, where it is, and the backend-side names it needs. The same
 * shape is read from the editor's settings, the server's environment or config file and the CLI's
 * flags. Credentials are never part of it (they travel apart, like the service's token), and
 * neither is any of it ever part of a workflow file.
 */
import { z } from 'zod';
import { ENGINES, type EngineId } from '../catalog';
import { BACKEND_DESCRIPTION, BACKEND_KINDS } from './registry';

const name = z.string().trim().min(1, 'must not be empty').max(500, 'is longer than 500 characters');

/** Backend-side names. Every member is optional: a backend says what it needs when it is missing. */
export const BackendNamesConfigSchema = z.strictObject({
  /** The checkpoint (model file) this engine runs when a request names none (ComfyUI, AUTOMATIC1111). */
  checkpoint: name.optional(),
  /** The SDXL refiner checkpoint, for `use_refiner` (ComfyUI, AUTOMATIC1111). */
  refiner: name.optional(),
  /** The model id (OpenAI Images: `gpt-image-1`, `dall-e-2`, `dall-e-3`, or a compatible server's). */
  model: name.optional(),
  /**
   * How the service's asset names (`svc:canny_sdxl`, a private `my-style-lora`) map to the
   * backend's files (`diffusers_xl_canny_full.safetensors`). A name not listed is sent as it is,
   * with `svc:` removed.
   */
  assets: z.record(name, name).optional(),
});
export type BackendNamesConfig = z.infer<typeof BackendNamesConfigSchema>;

/** One server of a pool: its address and how the person names it (the run panel, manifests). */
export const PoolServerSchema = z.strictObject({
  url: z.string().trim().min(1, 'is required'),
  label: z.string().trim().min(1, 'must not be empty').max(60, 'is longer than 60 characters'),
});
export type PoolServer = z.infer<typeof PoolServerSchema>;

/** Most servers one pool takes: more than a home or a rented rack needs, few enough to list. */
export const MAX_POOL_SERVERS = 32;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A pool's settings may leave `baseUrl` out: it is then the first server's. */
function firstServerAsBaseUrl(raw: unknown): unknown {
  if (!isObject(raw) || raw.baseUrl !== undefined || !Array.isArray(raw.baseUrls)) return raw;
  const first: unknown = raw.baseUrls[0];
  return isObject(first) && typeof first.url === 'string' ? { ...raw, baseUrl: first.url } : raw;
}

export const BackendConfigSchema = z.preprocess(firstServerAsBaseUrl, z.strictObject({
  kind: z.enum(BACKEND_KINDS, { error: `must be one of ${BACKEND_KINDS.join(', ')}` }),
  /** The backend's base URL (`http://127.0.0.1:8188` for ComfyUI, `http://127.0.0.1:7860` for AUTOMATIC1111); a pool's first server when left out. */
  baseUrl: z.string().trim().min(1, 'is required'),
  /**
   * A pool: several servers of this kind sharing the runs (a backend whose description sets
   * `pool`). When given, it replaces `baseUrl`; one server behaves exactly as `baseUrl` alone.
   */
  baseUrls: z.array(PoolServerSchema).min(1, 'needs at least one server').max(MAX_POOL_SERVERS, `takes at most ${MAX_POOL_SERVERS} servers`).optional(),
  names: BackendNamesConfigSchema.optional(),
}).superRefine((config, ctx) => {
  if (config.baseUrls === undefined) return;
  if (BACKEND_DESCRIPTION[config.kind].pool !== true) {
    ctx.addIssue({ code: 'custom', path: ['baseUrls'], message: `${BACKEND_DESCRIPTION[config.kind].label} takes one base URL, not a list of servers` });
  }
  const seen = new Set<string>();
  config.baseUrls.forEach((server, i) => {
    if (seen.has(server.label)) ctx.addIssue({ code: 'custom', path: ['baseUrls', i, 'label'], message: `'${server.label}' names two servers: each needs its own label` });
    seen.add(server.label);
  });
}));
export type BackendConfig = z.infer<typeof BackendConfigSchema>;

/** Which backend each engine's requests go to; an engine not listed goes to the service's API. */
export const EngineBackendsSchema = z.partialRecord(z.enum(ENGINES), BackendConfigSchema);
export type EngineBackends = Partial<Record<EngineId, BackendConfig>>;

/**
 * Each engine's backend credential: one for every server, or for a pool one per server (by its
 * position in `baseUrls`; undefined where a server has none of its own).
 */
export type EngineCredentials = Partial<Record<EngineId, string | readonly (string | undefined)[]>>;

export { DEFAULT_BASE_URL } from './registry';

/**
 * The backend-side asset name for a service asset name: the mapping's entry when there is one,
 * else the name without its `svc:` prefix (a private name is the backend's own file name).
 */
export function backendAssetName(names: BackendNamesConfig | undefined, serviceName: string): string {
  return names?.assets?.[serviceName] ?? serviceName.replace(/^svc:/, '');
}
