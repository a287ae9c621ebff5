/**
 * Image backends from the command line: `--image-backend KIND` sends every engine's requests to
 * one backend (at `--backend-url`, or where that backend usually listens), `--backends FILE`
 * chooses per engine, and `--checkpoint`, `--refiner`, `--image-model` and `--asset` give the
 * backend-side names. The credential comes from ATELIER_BACKEND_TOKEN only. A workflow file has
 * no say in any of it.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { BackendNamesConfigSchema, EngineBackendsSchema, type BackendNamesConfig, type EngineBackends } from '../api/backends/config';
import { backendChoices, findBackend, missingCredential, orList, type BackendEntry } from '../api/backends/describe';
import { BACKENDS, type BackendKind } from '../api/backends/registry';
import { ENGINES, type EngineId } from '../api/catalog';
import { UsageError, type BackendArgs } from './args';
import { checkBaseUrl } from './endpoints';
import { parseServers } from '../api/backends/pool/servers';

const isEngine = (value: string): value is EngineId => (ENGINES as readonly string[]).includes(value);

/** `KEY=VALUE` split at the first '=', both sides trimmed and non-empty. */
function pair(flag: string, raw: string): [string, string] {
  const at = raw.indexOf('=');
  const key = at < 0 ? '' : raw.slice(0, at).trim();
  const value = at < 0 ? '' : raw.slice(at + 1).trim();
  if (key === '' || value === '') throw new UsageError(`${flag} takes KEY=VALUE, e.g. ${flag} sdxl=sd_xl_base_1.0.safetensors`);
  return [key, value];
}

async function readBackendsFile(path: string, cwd: string): Promise<EngineBackends> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new UsageError(`--backends: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`--backends: ${path} is not JSON`);
  }
  const parsed = EngineBackendsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '(the file)' : issue.path.map(String).join('.');
    throw new UsageError(`--backends: ${path}: ${where}: ${issue?.message ?? 'invalid'}; expected { "sdxl": { "kind": "comfyui", "baseUrl": "http://127.0.0.1:8188", "names": { "checkpoint": "…" } }, … }`);
  }
  return parsed.data as EngineBackends;
}

/**
 * A text name's flag values: `NAME` for every engine, `ENGINE=NAME` for one (a name that has an
 * '=' but does not start with an engine is a name for every engine).
 */
function textName(flag: string, given: string | string[] | undefined, names: BackendNamesConfig, each: Map<EngineId, BackendNamesConfig>, key: 'refiner' | 'model'): void {
  for (const raw of given === undefined ? [] : [given].flat()) {
    const at = raw.indexOf('=');
    const engine = at < 0 ? '' : raw.slice(0, at).trim();
    if (!isEngine(engine)) {
      names[key] = raw;
      continue;
    }
    const value = raw.slice(at + 1).trim();
    if (value === '') throw new UsageError(`${flag} ${engine}=… needs a name after '='`);
    each.set(engine, { ...each.get(engine), [key]: value });
  }
}

/**
 * The backend of each engine the flags route somewhere other than the service's API. Throws a
 * UsageError naming the flag when something does not fit. `entries` is the registry's list
 * unless a test hands its own.
 */
export async function resolveBackends(args: BackendArgs, cwd: string, entries: readonly BackendEntry[] = BACKENDS): Promise<EngineBackends> {
  const backends: EngineBackends = args.file === undefined ? {} : await readBackendsFile(args.file, cwd);
  if (args.kind !== undefined) {
    const entry = findBackend(entries, args.kind);
    if (entry === undefined) {
      throw new UsageError(`--image-backend must be one of ${entries.map((e) => e.description.kind).join(', ')}`);
    }
    const kind = args.kind as BackendKind;
    if (kind === 'service') {
      if (args.url !== undefined) throw new UsageError("--backend-url is for the other backends; the service's API is --image-base-url");
    } else {
      const servers = args.url === undefined ? [] : parseServers([args.url].flat(), (message) => new UsageError(`--backend-url: ${message}`));
      if (servers.length > 1 && entry.description.pool !== true) {
        throw new UsageError(`--backend-url: ${entry.description.label} takes one server; only ${orList(entries.filter((e) => e.description.pool === true).map((e) => e.description.kind))} take several`);
      }
      for (const engine of ENGINES) {
        backends[engine] = servers.length > 1
          ? { kind, baseUrl: servers[0]!.url, baseUrls: servers.map((s) => ({ ...s })) }
          : { kind, baseUrl: servers[0]?.url ?? entry.description.defaultBaseUrl };
      }
    }
  } else if (args.url !== undefined && args.file === undefined) {
    throw new UsageError(`--backend-url needs --image-backend (${orList(backendChoices(entries))})`);
  }

  const names: BackendNamesConfig = {};
  // Per engine: the checkpoints (always ENGINE=NAME), and refiners or models given as ENGINE=NAME.
  const each = new Map<EngineId, BackendNamesConfig>();
  textName('--refiner', args.refiner, names, each, 'refiner');
  textName('--image-model', args.model, names, each, 'model');
  for (const raw of args.assets) {
    const [name, file] = pair('--asset', raw);
    names.assets = { ...names.assets, [name]: file };
  }
  for (const raw of args.checkpoints) {
    const [engine, file] = pair('--checkpoint', raw);
    if (!isEngine(engine)) throw new UsageError(`--checkpoint: '${engine.slice(0, 40)}' is not an engine; use ${ENGINES.join(', ')}`);
    each.set(engine, { ...each.get(engine), checkpoint: file });
  }
  for (const given of [names, ...each.values()]) {
    const checked = BackendNamesConfigSchema.safeParse(given);
    if (!checked.success) throw new UsageError(`a backend name is not usable: ${checked.error.issues[0]?.message ?? 'invalid'}`);
  }

  const routed = ENGINES.filter((engine) => backends[engine] !== undefined);
  if (routed.length === 0 && (Object.keys(names).length > 0 || each.size > 0)) {
    throw new UsageError('--checkpoint, --refiner, --image-model and --asset name files on a backend: give --image-backend or --backends too');
  }
  for (const engine of routed) {
    const config = backends[engine]!;
    const merged = { ...config.names, ...names, ...each.get(engine) };
    if (config.names?.assets !== undefined || names.assets !== undefined) merged.assets = { ...config.names?.assets, ...names.assets };
    backends[engine] = { ...config, ...(Object.keys(merged).length === 0 ? {} : { names: merged }) };
  }
  for (const engine of routed) {
    // Checked here, before anything is built from it, so the mistake names the flag it came from.
    const flag = args.url !== undefined ? '--backend-url' : `--backends (${engine}.baseUrl)`;
    const config = backends[engine]!;
    const checked = (where: string, url: string) => checkBaseUrl(where, url).href.replace(/\/$/, '');
    const baseUrls = config.baseUrls?.map((s, i) => ({ ...s, url: checked(args.url !== undefined ? `--backend-url ${s.label}` : `--backends (${engine}.baseUrls.${i}.url)`, s.url) }));
    // The first server is the backend's base URL, for whatever reads only that.
    backends[engine] = { ...config, baseUrl: baseUrls?.[0]?.url ?? checked(flag, config.baseUrl), ...(baseUrls === undefined ? {} : { baseUrls }) };
  }
  for (const [engine, given] of each) {
    const flag = given.checkpoint !== undefined ? '--checkpoint' : given.model !== undefined ? '--image-model' : '--refiner';
    if (backends[engine] === undefined) throw new UsageError(`${flag} ${engine}=…: the ${engine} engine is not routed to a backend`);
  }
  return backends;
}

/** Throws a UsageError when a backend the run uses requires a credential and ATELIER_BACKEND_TOKEN is not set. */
export function checkCredentials(backends: EngineBackends, env: Readonly<Record<string, string | undefined>>, entries: readonly BackendEntry[] = BACKENDS): void {
  const missing = missingCredential(entries, backends, (env.ATELIER_BACKEND_TOKEN?.trim() ?? '') !== '', 'ATELIER_BACKEND_TOKEN');
  if (missing !== undefined) throw new UsageError(missing);
}
