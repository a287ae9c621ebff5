/**
 * Where the image nodes' requests go: the service's API (the route chosen above them) or a backend
 * (ComfyUI, AUTOMATIC1111 / Forge, OpenAI Images) called from this browser, one choice for every
 * engine with exceptions per engine, each with its base URL, credential and backend-side names.
 *
 * Stored under keys of their own, apart from the v1 settings, so an older build that rewrites
 * those leaves these alone. Credentials are kept like tokens (for the session unless remembered),
 * by slot and backend kind: a key entered for OpenAI is never sent to a ComfyUI chosen later in
 * the same place. This module is in the editor's first load: it holds no backend code, only the
 * settings' shape and what the worker is handed.
 */
import type { BackendNamesConfig, EngineBackends } from '../../api/backends/config';
import { DEFAULT_BASE_URL } from '../../api/backends/defaults';
import { BACKEND_KINDS, BACKEND_LABEL, type BackendKind } from '../../api/backends/types';
import { ENGINES, ENGINE_LABEL, type EngineId } from '../../api/catalog';
import { checkBaseUrl } from './base-url';

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

export interface BackendFields {
  /** '' for the address the backend usually has (DEFAULT_BASE_URL). */
  baseUrl: string;
  /** The checkpoint each engine runs when a request names none; an engine's own slot uses only its own. */
  checkpoints: Partial<Record<EngineId, string>>;
  refiner: string;
  /** OpenAI Images' model id. */
  model: string;
  assets: AssetRow[];
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

/** Credentials by `credentialKey(slot, kind)`. */
export type BackendCredentials = Readonly<Record<string, string>>;

export const credentialKey = (slot: BackendSlotId, kind: RemoteKind): string => `${slot}:${kind}`;

export const DEFAULT_IMAGE_BACKENDS: ImageBackendSettings = { all: { kind: 'service', fields: {} }, engines: {} };

export const EMPTY_FIELDS: BackendFields = { baseUrl: '', checkpoints: {}, refiner: '', model: '', assets: [] };

export const isRemote = (kind: BackendKind): kind is RemoteKind => kind !== 'service';

/** Which names a backend kind takes. */
export const TAKES_FILES: Record<RemoteKind, boolean> = { comfyui: true, a1111: true, openai: false };

export function fieldsOf(slot: BackendSlot, kind: RemoteKind): BackendFields {
  return slot.fields[kind] ?? EMPTY_FIELDS;
}

/** The slot an engine's requests follow. */
export function slotFor(settings: ImageBackendSettings, engine: EngineId): { id: BackendSlotId; slot: BackendSlot } {
  const own = settings.engines[engine];
  return own === undefined ? { id: 'all', slot: settings.all } : { id: engine, slot: own };
}

/** How a slot is named in messages: "all engines", "SDXL v1.0". */
export const slotLabel = (id: BackendSlotId): string => (id === 'all' ? 'all engines' : ENGINE_LABEL[id]);

// Reading back what storage holds: anything of the wrong shape is dropped, never trusted.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 2000) : '');

function readFields(raw: unknown): BackendFields | undefined {
  if (!isObject(raw)) return undefined;
  const checkpoints: Partial<Record<EngineId, string>> = {};
  if (isObject(raw.checkpoints)) {
    for (const engine of ENGINES) {
      const value = text(raw.checkpoints[engine]);
      if (value !== '') checkpoints[engine] = value;
    }
  }
  const assets = Array.isArray(raw.assets)
    ? raw.assets.filter(isObject).slice(0, 200).map((row) => ({ name: text(row.name), file: text(row.file) }))
    : [];
  return { baseUrl: text(raw.baseUrl), checkpoints, refiner: text(raw.refiner), model: text(raw.model), assets };
}

function readSlot(raw: unknown): BackendSlot | undefined {
  if (!isObject(raw) || !(BACKEND_KINDS as readonly unknown[]).includes(raw.kind)) return undefined;
  const fields: BackendSlot['fields'] = {};
  if (isObject(raw.fields)) {
    for (const kind of BACKEND_KINDS) {
      if (!isRemote(kind)) continue;
      const read = readFields(raw.fields[kind]);
      if (read !== undefined) fields[kind] = read;
    }
  }
  return { kind: raw.kind as BackendKind, fields };
}

export function readImageBackends(raw: unknown): ImageBackendSettings {
  if (!isObject(raw)) return DEFAULT_IMAGE_BACKENDS;
  const engines: ImageBackendSettings['engines'] = {};
  if (isObject(raw.engines)) {
    for (const engine of ENGINES) {
      const slot = readSlot(raw.engines[engine]);
      if (slot !== undefined) engines[engine] = slot;
    }
  }
  return { all: readSlot(raw.all) ?? DEFAULT_IMAGE_BACKENDS.all, engines };
}

export function readCredentials(raw: unknown): BackendCredentials {
  if (!isObject(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

// What the worker is handed.

/** The base URL a backend is reached at: the one entered, else its usual one. */
export function backendUrl(kind: RemoteKind, fields: BackendFields): { ok: true; url: string } | { ok: false; reason: string } {
  return fields.baseUrl.trim() === '' ? { ok: true, url: DEFAULT_BASE_URL[kind] } : checkBaseUrl(fields.baseUrl);
}

function namesFor(kind: RemoteKind, fields: BackendFields, engine: EngineId): BackendNamesConfig | undefined {
  const names: BackendNamesConfig = {};
  if (TAKES_FILES[kind]) {
    const checkpoint = fields.checkpoints[engine]?.trim();
    if (checkpoint) names.checkpoint = checkpoint;
    if (fields.refiner.trim() !== '') names.refiner = fields.refiner.trim();
    const rows = fields.assets.filter((row) => row.name.trim() !== '' && row.file.trim() !== '');
    if (rows.length > 0) names.assets = Object.fromEntries(rows.map((row) => [row.name.trim(), row.file.trim()]));
  } else if (fields.model.trim() !== '') {
    names.model = fields.model.trim();
  }
  return Object.keys(names).length === 0 ? undefined : names;
}

export interface ResolvedBackends {
  /** Engines routed to a backend; the others go to the service's API. */
  backends: EngineBackends;
  credentials: Partial<Record<EngineId, string>>;
  /** What stops a run, each naming the setting and where to fix it. */
  problems: string[];
}

/** The backend of each engine, with its credential; an unusable setting is a problem, never sent. */
export function resolveImageBackends(settings: ImageBackendSettings, credentials: BackendCredentials): ResolvedBackends {
  const resolved: ResolvedBackends = { backends: {}, credentials: {}, problems: [] };
  const judged = new Set<BackendSlotId>();
  for (const engine of ENGINES) {
    const { id, slot } = slotFor(settings, engine);
    if (!isRemote(slot.kind)) continue;
    const fields = fieldsOf(slot, slot.kind);
    const url = backendUrl(slot.kind, fields);
    if (!judged.has(id)) {
      judged.add(id);
      resolved.problems.push(...slotProblems(id, slot.kind, fields, url));
    }
    if (!url.ok) continue;
    const names = namesFor(slot.kind, fields, engine);
    resolved.backends[engine] = { kind: slot.kind, baseUrl: url.url, ...(names === undefined ? {} : { names }) };
    const credential = credentials[credentialKey(id, slot.kind)];
    if (credential !== undefined && credential !== '') resolved.credentials[engine] = credential;
  }
  return resolved;
}

function slotProblems(id: BackendSlotId, kind: RemoteKind, fields: BackendFields, url: ReturnType<typeof backendUrl>): string[] {
  const where = `in Settings (Image backend, ${slotLabel(id)})`;
  const label = BACKEND_LABEL[kind];
  const problems: string[] = [];
  if (!url.ok) problems.push(`the ${label} base URL ${url.reason}: correct it ${where}`);
  if (!TAKES_FILES[kind]) return problems;
  const seen = new Set<string>();
  fields.assets.forEach((row, i) => {
    const name = row.name.trim();
    const file = row.file.trim();
    if (name === '' && file === '') return;
    const rowName = `asset row ${i + 1}`;
    if (name === '') problems.push(`${label} ${rowName} has a file ('${file}') but no asset name: add the name it stands for ${where}`);
    else if (file === '') problems.push(`${label} ${rowName} has no file for '${name}': add the file ${where}`);
    else if (seen.has(name)) problems.push(`${label} ${rowName} maps '${name}' a second time: keep one ${where}`);
    seen.add(name);
  });
  return problems;
}

/** Whether any engine's requests go to the service's API (and so need its base URL). */
export function usesServiceApi(settings: ImageBackendSettings): boolean {
  return ENGINES.some((engine) => !isRemote(slotFor(settings, engine).slot.kind));
}

/** Every base URL and credential the backend settings hold, in use or not: kept out of manifests. */
export function backendSecrets(settings: ImageBackendSettings, credentials: BackendCredentials): string[] {
  const slots = [settings.all, ...ENGINES.map((engine) => settings.engines[engine])];
  const urls = slots.flatMap((slot) => (slot === undefined ? [] : Object.values(slot.fields).map((f) => f.baseUrl)));
  return [...Object.values(credentials), ...urls];
}
