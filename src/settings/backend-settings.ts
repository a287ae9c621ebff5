/**
 * Where the image nodes' requests go: the service's API (the route chosen above them) or a backend
 * (ComfyUI, AUTOMATIC1111 / Forge, OpenAI Images) called from this browser, one choice for every
 * engine with exceptions per engine, each with its base URL, credential and backend-side names.
 *
 * The rules: reading back what is stored, writing it, resolving each engine's backend and what
 * stops a run. Loaded only when a backend is chosen or stored (the settings store and dialog load
 * it), so a page that uses none starts without it; the shape is in backend-types.ts. Stored under
 * keys of their own, apart from the v1 settings. Credentials are kept like tokens (for the session
 * unless remembered), by slot and backend kind: a key entered for OpenAI is never sent to a
 * ComfyUI chosen later in the same place.
 */
import type { BackendNamesConfig } from '../../api/backends/config';
import { nameField, type NameField, type NameKey } from '../../api/backends/describe';
import { BACKEND_DESCRIPTION, BACKEND_KINDS, isBackendKind, type BackendKind } from '../../api/backends/registry';
import { ENGINES, ENGINE_LABEL, type EngineId } from '../../api/catalog';
import { checkBaseUrl } from './base-url';
import { readServerRows, resolvePool } from './backend-pool';
import {
  BACKENDS_KEY, CREDENTIALS_KEY, NO_IMAGE_BACKENDS,
  type BackendCredentials, type BackendFields, type BackendPart, type BackendRules, type BackendSlot, type BackendSlotId,
  type BackendStorage, type ImageBackendSettings, type RemoteKind, type ResolvedBackends,
} from './backend-types';

export type { AssetRow, BackendFields, BackendSlot, BackendSlotId, ImageBackendSettings, RemoteKind } from './backend-types';

export const credentialKey = (slot: BackendSlotId, kind: RemoteKind): string => `${slot}:${kind}`;

export const EMPTY_FIELDS: BackendFields = { baseUrl: '', checkpoints: {}, refiner: '', model: '', assets: [] };

export const isRemote = (kind: BackendKind): kind is RemoteKind => kind !== 'service';

/** A backend-side name held as text (every one but the asset rows). */
export type TextNameField = NameField & { key: Exclude<NameKey, 'assets'> };

const EACH = { checkpoint: 'checkpoints', refiner: 'refiners', model: 'models' } as const;
const ONE = { checkpoint: 'checkpoint', refiner: 'refiner', model: 'model' } as const;

/** What the fields hold for a text name on `engine` (the per-engine value, or the one value). */
export function nameValue(fields: BackendFields, field: TextNameField, engine: EngineId): string {
  return (field.perEngine === true ? fields[EACH[field.key]]?.[engine] : fields[ONE[field.key]]) ?? '';
}

/** The change of fields that sets a text name on `engine` to `value`. */
export function nameChange(fields: BackendFields, field: TextNameField, engine: EngineId, value: string): Partial<BackendFields> {
  if (field.perEngine !== true) return { [ONE[field.key]]: value };
  const key = EACH[field.key];
  return { [key]: { ...fields[key], [engine]: value } };
}

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

function readPerEngine(raw: unknown): Partial<Record<EngineId, string>> {
  const values: Partial<Record<EngineId, string>> = {};
  if (isObject(raw)) {
    for (const engine of ENGINES) {
      const value = text(raw[engine]);
      if (value !== '') values[engine] = value;
    }
  }
  return values;
}

function readFields(raw: unknown): BackendFields | undefined {
  if (!isObject(raw)) return undefined;
  const assets = Array.isArray(raw.assets)
    ? raw.assets.filter(isObject).slice(0, 200).map((row) => ({ name: text(row.name), file: text(row.file) }))
    : [];
  const fields: BackendFields = { baseUrl: text(raw.baseUrl), checkpoints: readPerEngine(raw.checkpoints), refiner: text(raw.refiner), model: text(raw.model), assets };
  // Kept only when they hold something: the names of backends that ask them per engine.
  for (const key of ['models', 'refiners'] as const) {
    const values = readPerEngine(raw[key]);
    if (Object.keys(values).length > 0) fields[key] = values;
  }
  if (text(raw.checkpoint) !== '') fields.checkpoint = text(raw.checkpoint);
  if (text(raw.label) !== '') fields.label = text(raw.label).slice(0, 60);
  const servers = readServerRows(raw.servers, text);
  if (servers.length > 0) fields.servers = servers;
  return fields;
}

function readSlot(raw: unknown): BackendSlot | undefined {
  if (!isObject(raw) || !isBackendKind(raw.kind)) return undefined;
  const fields: BackendSlot['fields'] = {};
  if (isObject(raw.fields)) {
    for (const kind of BACKEND_KINDS) {
      if (!isRemote(kind)) continue;
      const read = readFields(raw.fields[kind]);
      if (read !== undefined) fields[kind] = read;
    }
  }
  return { kind: raw.kind, fields };
}

function readImageBackends(raw: unknown): ImageBackendSettings {
  if (!isObject(raw)) return NO_IMAGE_BACKENDS;
  const engines: ImageBackendSettings['engines'] = {};
  if (isObject(raw.engines)) {
    for (const engine of ENGINES) {
      const slot = readSlot(raw.engines[engine]);
      if (slot !== undefined) engines[engine] = slot;
    }
  }
  return { all: readSlot(raw.all) ?? NO_IMAGE_BACKENDS.all, engines };
}

function readCredentials(raw: unknown): BackendCredentials {
  if (!isObject(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

// What the worker is handed.

/** The base URL a backend is reached at: the one entered, else its usual one. */
export function backendUrl(kind: RemoteKind, fields: BackendFields): { ok: true; url: string } | { ok: false; reason: string } {
  return fields.baseUrl.trim() === '' ? { ok: true, url: BACKEND_DESCRIPTION[kind].defaultBaseUrl } : checkBaseUrl(fields.baseUrl);
}

/** The names an engine's requests carry: those the backend's description lists, as the fields hold them. */
function namesFor(kind: RemoteKind, fields: BackendFields, engine: EngineId): BackendNamesConfig | undefined {
  const names: BackendNamesConfig = {};
  for (const field of BACKEND_DESCRIPTION[kind].names) {
    if (field.key === 'assets') {
      const rows = fields.assets.filter((row) => row.name.trim() !== '' && row.file.trim() !== '');
      if (rows.length > 0) names.assets = Object.fromEntries(rows.map((row) => [row.name.trim(), row.file.trim()]));
    } else {
      const value = nameValue(fields, field as TextNameField, engine).trim();
      if (value !== '') names[field.key] = value;
    }
  }
  return Object.keys(names).length === 0 ? undefined : names;
}

/** The backend of each engine, with its credential; an unusable setting is a problem, never sent. */
function resolveImageBackends({ imageBackends: settings, backendCredentials: credentials }: BackendPart): ResolvedBackends {
  const resolved: ResolvedBackends = { backends: {}, credentials: {}, problems: [] };
  const judged = new Set<BackendSlotId>();
  for (const engine of ENGINES) {
    const { id, slot } = slotFor(settings, engine);
    if (!isRemote(slot.kind)) continue;
    const fields = fieldsOf(slot, slot.kind);
    const url = backendUrl(slot.kind, fields);
    const credential = credentials[credentialKey(id, slot.kind)];
    const pool = resolvePool(slot.kind, fields, url.ok ? url.url : '', credentialKey(id, slot.kind), credentials, `in Settings (Image backend, ${slotLabel(id)})`);
    if (!judged.has(id)) {
      judged.add(id);
      resolved.problems.push(...slotProblems(id, slot.kind, fields, url, credential), ...pool.problems);
    }
    if (!url.ok) continue;
    const names = namesFor(slot.kind, fields, engine);
    resolved.backends[engine] = { kind: slot.kind, baseUrl: url.url, ...(pool.servers === undefined ? {} : { baseUrls: pool.servers }), ...(names === undefined ? {} : { names }) };
    if (pool.servers !== undefined && pool.credentials.some((c) => c !== undefined && c !== '')) resolved.credentials[engine] = pool.credentials;
    else if (credential !== undefined && credential !== '') resolved.credentials[engine] = credential;
  }
  return resolved;
}

function slotProblems(id: BackendSlotId, kind: RemoteKind, fields: BackendFields, url: ReturnType<typeof backendUrl>, credential: string | undefined): string[] {
  const where = `in Settings (Image backend, ${slotLabel(id)})`;
  const { label, browser, credential: takes } = BACKEND_DESCRIPTION[kind];
  const problems: string[] = [];
  if (!browser.direct) problems.push(`${label} cannot be called from this browser (${browser.why}): choose another backend ${where}, or the route through this server with ATELIER_IMAGE_BACKEND=${kind}`);
  if (!url.ok) problems.push(`the ${label} base URL ${url.reason}: correct it ${where}`);
  if (takes?.required === true && (credential === undefined || credential === '')) problems.push(`${label} needs its ${takes.label}: enter it ${where}`);
  if (nameField(BACKEND_DESCRIPTION[kind], 'assets') === undefined) return problems;
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


function readJson(storage: BackendStorage['local'], key: string): unknown {
  try {
    return JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    // A damaged entry is replaced on the next save.
    return null;
  }
}

const isDefault = (settings: ImageBackendSettings) => JSON.stringify(settings) === JSON.stringify(NO_IMAGE_BACKENDS);

export const backendRules: BackendRules = {
  read(storage, rememberTokens) {
    return {
      imageBackends: readImageBackends(readJson(storage.local, BACKENDS_KEY)),
      backendCredentials: readCredentials(readJson(rememberTokens ? storage.local : storage.session, CREDENTIALS_KEY)),
    };
  },
  save({ imageBackends, backendCredentials }, storage, rememberTokens) {
    // Nothing stored while nothing is set, so the next start need not load these rules.
    if (isDefault(imageBackends)) storage.local.removeItem(BACKENDS_KEY);
    else storage.local.setItem(BACKENDS_KEY, JSON.stringify(imageBackends));
    const credentials = readCredentials(backendCredentials);
    const [keep, clear] = rememberTokens ? [storage.local, storage.session] : [storage.session, storage.local];
    clear.removeItem(CREDENTIALS_KEY);
    if (Object.keys(credentials).length === 0) keep.removeItem(CREDENTIALS_KEY);
    else keep.setItem(CREDENTIALS_KEY, JSON.stringify(credentials));
  },
  resolve: resolveImageBackends,
  usesServiceApi: (settings) => ENGINES.some((engine) => !isRemote(slotFor(settings, engine).slot.kind)),
  secrets({ imageBackends, backendCredentials }) {
    const slots = [imageBackends.all, ...ENGINES.map((engine) => imageBackends.engines[engine])];
    const urls = slots.flatMap((slot) => (slot === undefined ? [] : Object.values(slot.fields).flatMap((f) => [f.baseUrl, ...(f.servers ?? []).map((row) => row.url)])));
    return [...Object.values(backendCredentials), ...urls];
  },
};
