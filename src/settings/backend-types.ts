/**
 * The image backend settings' shape, storage keys and default: what the editor's first load
 * needs of them. The rules (reading and checking what is stored, resolving each engine's
 * backend, what stops a run) are in backend-settings.ts, loaded only once a backend is chosen or
 * stored, so the start of a page that uses none carries none of it.
 */
import type { EngineBackends, EngineCredentials } from '../../api/backends/config';
import type { BackendKind } from '../../api/backends/types';
import type { EngineId } from '../../api/catalog';

/** The backends that are not the service's API. */
export type RemoteKind = Exclude<BackendKind, 'service'>;
/** One choice for every engine (`all`), or an engine's own. */
export type BackendSlotId = 'all' | EngineId;

export interface AssetRow {
  /** The service's asset name (`svc:canny_sdxl`) or a private one. */
  name: string;
  /** The backend's file for it. */
  file: string;
}

/** A server of a pool after the first (whose address is `baseUrl`). */
export interface ServerRow {
  /** Stable while the row exists: its credential is stored under it, so removing another row moves nothing. */
  id: string;
  /** How the person names it ("desk GPU"); '' for `server N`. */
  label: string;
  url: string;
}

/**
 * One backend kind's fields in a slot. Each backend-side name its description lists is kept in
 * one place: a name asked once per engine (`perEngine`) in the plural member (`checkpoints`,
 * `models`, `refiners`), else in the singular one (`refiner`, `model`, `checkpoint`). The
 * optional members are stored only when they hold something, so older settings read unchanged.
 */
export interface BackendFields {
  /** '' for the address the backend usually has (its description's defaultBaseUrl). */
  baseUrl: string;
  /** The checkpoint each engine runs when a request names none; an engine's own slot uses only its own. */
  checkpoints: Partial<Record<EngineId, string>>;
  refiner: string;
  /** The model id (OpenAI Images'), when one model serves every engine. */
  model: string;
  assets: AssetRow[];
  /** The model of each engine, for a backend that asks it per engine (a hosted provider's). */
  models?: Partial<Record<EngineId, string>>;
  refiners?: Partial<Record<EngineId, string>>;
  checkpoint?: string;
  /** A pool (a backend whose description sets `pool`): the first server's label. */
  label?: string;
  /** A pool's other servers, after the one at `baseUrl`. */
  servers?: ServerRow[];
}

export interface BackendSlot {
  kind: BackendKind;
  /** Each kind's fields, kept while another kind is chosen, so switching back finds them. */
  fields: Partial<Record<RemoteKind, BackendFields>>;
}

export interface ImageBackendSettings {
  all: BackendSlot;
  /** Engines with a choice of their own; the others follow `all`. */
  engines: Partial<Record<EngineId, BackendSlot>>;
}

/** Credentials by `credentialKey(slot, kind)` (`all:openai`). */
export type BackendCredentials = Readonly<Record<string, string>>;

export interface ResolvedBackends {
  /** Engines routed to a backend; the others go to the service's API. */
  backends: EngineBackends;
  /** By engine: one credential, or a pool's by server (its position in `baseUrls`). */
  credentials: EngineCredentials;
  /** What stops a run, each naming the setting and where to fix it. */
  problems: string[];
}

/** The part of the settings these rules look after. */
export interface BackendPart {
  imageBackends: ImageBackendSettings;
  backendCredentials: BackendCredentials;
}

/** The storages settings live in (settings.ts SettingsStorage). */
export interface BackendStorage {
  local: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  session: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

/** backend-settings.ts, as settings.ts and the settings store use it once it is loaded. */
export interface BackendRules {
  read(storage: BackendStorage, rememberTokens: boolean): BackendPart;
  save(part: BackendPart, storage: BackendStorage, rememberTokens: boolean): void;
  resolve(part: BackendPart): ResolvedBackends;
  /** Whether any engine's requests go to the service's API (and so need its base URL). */
  usesServiceApi(settings: ImageBackendSettings): boolean;
  /** Every base URL and credential held, in use or not. */
  secrets(part: BackendPart): string[];
}

/** Newer than the v1 settings, and apart from them: an older build rewriting v1 keeps these. */
export const BACKENDS_KEY = 'atelier.image-backends.v1';
export const CREDENTIALS_KEY = 'atelier.backend-credentials.v1';

export const NO_IMAGE_BACKENDS: ImageBackendSettings = { all: { kind: 'service', fields: {} }, engines: {} };

/** Whether any engine is set to go somewhere other than the service's API. */
export function backendChosen(settings: ImageBackendSettings): boolean {
  return settings.all.kind !== 'service' || Object.values(settings.engines).some((slot) => slot.kind !== 'service');
}

/** Whether this browser holds backend settings, which must be read before a run. */
export function backendsStored(storage: BackendStorage): boolean {
  return storage.local.getItem(BACKENDS_KEY) !== null || storage.local.getItem(CREDENTIALS_KEY) !== null || storage.session.getItem(CREDENTIALS_KEY) !== null;
}
