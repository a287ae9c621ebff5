/**
 * Every setting of the local server, read once at start-up from the environment (and, for the
 * forwarder, an optional config file). SETTINGS is the table the README copies: keep them in step.
 * The image backend rows are written from the backends' descriptions (api/backends/registry.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { EngineBackendsSchema, type EngineBackends } from '../api/backends/config';
import { backendChoices, findBackend, missingCredential, orList, type BackendEntry } from '../api/backends/describe';
import { BACKENDS, type BackendKind } from '../api/backends/registry';
import { parseServers, poolTokens, serverTokenVariable } from '../api/backends/pool/servers';
import { ENGINES } from '../api/catalog';

/** One environment variable the server reads: its name, default and what it does. */
export interface Setting {
  name: string;
  default: string;
  meaning: string;
}

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 8787,
  stepDelayMs: 5,
  tokenDelayMs: 25,
  maxBodyMb: 64,
} as const;

/** The settings that choose an image backend, written from the descriptions of `entries`. */
export function backendSettings(entries: readonly BackendEntry[]): Setting[] {
  const remote = entries.map((entry) => entry.description).filter((d) => d.kind !== 'service');
  return [
    { name: 'ATELIER_IMAGE_BACKEND', default: '(unset)', meaning: `Forwarder: send every image engine's requests to a backend instead of ATELIER_IMAGE_BASE_URL: ${orList(remote.map((d) => `${d.kind} (${d.label})`))}. The server translates them; the browser still speaks the service's contract. Per-engine choices and backend-side names (checkpoints, model, asset files) go in the config file's "imageBackends".` },
    { name: 'ATELIER_BACKEND_URL', default: "(the backend's usual address)", meaning: `Forwarder: the backend's base URL (${remote.map((d) => `${d.label} ${d.defaultBaseUrl}`).join(', ')}). For a pool (${orList(remote.filter((d) => d.pool === true).map((d) => d.label))}), several servers separated by commas, each LABEL=URL: gpu1=http://127.0.0.1:8188,gpu2=http://10.0.0.7:8188.` },
    { name: 'ATELIER_BACKEND_TOKEN', default: '(unset)', meaning: `Forwarder: the backend's credential (${remote.filter((d) => d.credential !== undefined).map((d) => `${d.label}: ${d.credential!.label}`).join('; ')}). Never sent to the browser or logged.` },
    { name: 'ATELIER_BACKEND_TOKEN_<LABEL>', default: '(unset)', meaning: 'Forwarder: one pool server\'s own credential, by its label in upper case with other characters as _ (ATELIER_BACKEND_TOKEN_GPU2 for gpu2); servers without one use ATELIER_BACKEND_TOKEN.' },
  ];
}

/** The server's settings, as the README lists them. */
export const SETTINGS: readonly Setting[] = [
  { name: 'HOST', default: DEFAULTS.host, meaning: 'Interface to bind. Anything but a loopback address exposes the server to your network (a warning is printed).' },
  { name: 'PORT', default: String(DEFAULTS.port), meaning: 'Port to listen on; 0 picks a free one (the listening line says which).' },
  { name: 'ATELIER_LOCAL_STEP_MS', default: String(DEFAULTS.stepDelayMs), meaning: 'Simulated time per diffusion step of the local image engine, in ms, so progress and parallelism can be seen. 0 for none.' },
  { name: 'ATELIER_LOCAL_TOKEN_MS', default: String(DEFAULTS.tokenDelayMs), meaning: 'Simulated time per streamed chat token of the local text engine, in ms. 0 for none.' },
  { name: 'ATELIER_LOCAL_TOKEN', default: '(unset)', meaning: 'When set, the local engines and the forwarder require exactly this Bearer token (401 otherwise); when unset any token or none is accepted.' },
  { name: 'ATELIER_MAX_BODY_MB', default: String(DEFAULTS.maxBodyMb), meaning: 'Largest request body accepted, in MB (413 above it).' },
  { name: 'ATELIER_IMAGE_BASE_URL', default: '(unset)', meaning: 'Forwarder: the real image API base URL; /forward/image/generate/{engine} goes to {this}/generate/{engine}.' },
  { name: 'ATELIER_TEXT_BASE_URL', default: '(unset)', meaning: 'Forwarder: the real chat API base URL; /forward/text/v1/... goes to {this}/v1/... Unset: the local text engine (the offline stand-in, not a language model) answers there, and /api/info says so.' },
  { name: 'ATELIER_TOKEN', default: '(unset)', meaning: 'Forwarder: the token the server sends upstream as Authorization: Bearer. Never sent to the browser or logged.' },
  ...backendSettings(BACKENDS),
  { name: 'ATELIER_CONFIG', default: '~/.config/atelier/config.json', meaning: 'JSON file with { imageBaseUrl, textBaseUrl, token, imageBackends, backendToken, backendTokens } for the forwarder; the variables above override it. "imageBackends" is { "sdxl": { "kind": "comfyui", "baseUrl": "…", "names": { "checkpoint": "…", "refiner": "…", "model": "…", "assets": { "svc:canny_sdxl": "…" } } }, … }; a pool gives "baseUrls": [{ "label": "gpu1", "url": "…" }, …] instead of "baseUrl", and "backendTokens" { "gpu2": "…" } holds the credential of a server, by its label. Must not be readable by other users when it holds a token.' },
  { name: 'ATELIER_ALLOWED_ORIGINS', default: '(unset)', meaning: 'Comma-separated extra browser origins whose requests are accepted, e.g. http://localhost:5173 when a Vite dev server proxies to this one. The server\'s own origin is always allowed; no CORS headers are sent.' },
  { name: 'ATELIER_DIST_DIR', default: 'dist', meaning: 'Folder of the built editor served at /, relative to the project root.' },
];

/** SETTINGS as a Markdown table, for the README (`npx tsx -e "import('./server/config.ts').then(m => console.log(m.settingsMarkdown()))"`). */
export function settingsMarkdown(settings: readonly Setting[] = SETTINGS): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...settings.map((s) => `| \`${s.name}\` | ${cell(s.default)} | ${cell(s.meaning)} |`)].join('\n');
}

export interface ForwarderConfig {
  imageBaseUrl: string | undefined;
  textBaseUrl: string | undefined;
  token: string | undefined;
  /** Engines whose forwarded requests the server translates for a backend (ComfyUI, AUTOMATIC1111, OpenAI Images). */
  imageBackends: EngineBackends;
  /** The backends' credential; never sent to the browser or logged. */
  backendToken: string | undefined;
  /** A pool server's own credential, by its label (ATELIER_BACKEND_TOKEN_<LABEL>, the file's backendTokens). */
  serverTokens?: ReadonlyMap<string, string>;
}

export interface ServerConfig {
  host: string;
  port: number;
  stepDelayMs: number;
  tokenDelayMs: number;
  /** When set, the local engines require this Bearer token. */
  localToken: string | undefined;
  maxBodyBytes: number;
  forwarder: ForwarderConfig;
  allowedOrigins: readonly string[];
  distDir: string;
  version: string;
}

/** A setting that cannot be used; the message names the variable or file and what to do. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const PROJECT_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

export interface LoadedConfig {
  config: ServerConfig;
  /** Things the operator should know (printed at start-up), never containing a secret. */
  warnings: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads every setting; throws ConfigError naming the first setting that is unusable. `backends`
 * is the registry's list unless a test hands its own.
 */
export function loadConfig(env: Env = process.env, backends: readonly BackendEntry[] = BACKENDS): LoadedConfig {
  const warnings: string[] = [];
  const fromFile = readConfigFile(env, warnings);
  const pick = (name: string, fileValue: string | undefined) => nonEmpty(env[name]) ?? fileValue;
  const forwarder: ForwarderConfig = {
    imageBaseUrl: baseUrl('ATELIER_IMAGE_BASE_URL', pick('ATELIER_IMAGE_BASE_URL', fromFile.imageBaseUrl)),
    textBaseUrl: baseUrl('ATELIER_TEXT_BASE_URL', pick('ATELIER_TEXT_BASE_URL', fromFile.textBaseUrl)),
    token: pick('ATELIER_TOKEN', fromFile.token),
    imageBackends: imageBackends(env, fromFile, backends),
    backendToken: pick('ATELIER_BACKEND_TOKEN', fromFile.backendToken),
  };
  const serverTokens = poolTokens(Object.values(forwarder.imageBackends), env, fromFile.backendTokens);
  if (serverTokens.size > 0) forwarder.serverTokens = serverTokens;
  const missing = missingCredential(backends, forwarder.imageBackends, forwarder.backendToken !== undefined, 'ATELIER_BACKEND_TOKEN or the config file\'s "backendToken"');
  if (missing !== undefined) throw new ConfigError(missing);
  for (const [engine, backend] of Object.entries(forwarder.imageBackends)) {
    for (const server of backend.baseUrls ?? [{ label: '', url: backend.baseUrl }]) {
      const url = new URL(server.url);
      const token = serverTokens.has(server.label) ? serverTokenVariable(server.label) : forwarder.backendToken === undefined ? undefined : 'ATELIER_BACKEND_TOKEN';
      if (token !== undefined && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
        warnings.push(`the ${engine} backend${server.label === '' ? '' : ` (${server.label})`} is plain http to ${url.host}: ${token} would cross the network unencrypted. Use https.`);
      }
    }
  }
  for (const [name, url] of [['ATELIER_IMAGE_BASE_URL', forwarder.imageBaseUrl], ['ATELIER_TEXT_BASE_URL', forwarder.textBaseUrl]] as const) {
    if (url !== undefined && forwarder.token !== undefined && new URL(url).protocol === 'http:' && !isLoopbackHost(new URL(url).hostname)) {
      warnings.push(`${name} is plain http to ${new URL(url).host}: the forwarder's token would cross the network unencrypted. Use https.`);
    }
  }

  const distDir = nonEmpty(env.ATELIER_DIST_DIR) ?? 'dist';
  return {
    warnings,
    config: {
      host: nonEmpty(env.HOST) ?? DEFAULTS.host,
      port: integer(env, 'PORT', DEFAULTS.port, 0, 65_535),
      stepDelayMs: integer(env, 'ATELIER_LOCAL_STEP_MS', DEFAULTS.stepDelayMs, 0, 10_000),
      tokenDelayMs: integer(env, 'ATELIER_LOCAL_TOKEN_MS', DEFAULTS.tokenDelayMs, 0, 10_000),
      localToken: nonEmpty(env.ATELIER_LOCAL_TOKEN),
      maxBodyBytes: Math.round(number(env, 'ATELIER_MAX_BODY_MB', DEFAULTS.maxBodyMb, 0.001, 4096) * 1024 * 1024),
      forwarder,
      allowedOrigins: origins(env.ATELIER_ALLOWED_ORIGINS),
      distDir: isAbsolute(distDir) ? distDir : join(PROJECT_ROOT, distDir),
      version: packageVersion(),
    },
  };
}

/**
 * The local engines alone, for a server started inside another program (the CLI, tests, benches):
 * loopback on a free port, no simulated latency, no token, no forwarder, no other origins. Reads
 * no environment and no config file, so a person's forwarder settings never leak in. `overrides`
 * changes any of it (a test's slow steps).
 */
export function localEnginesConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    stepDelayMs: 0,
    tokenDelayMs: 0,
    localToken: undefined,
    maxBodyBytes: DEFAULTS.maxBodyMb * 1024 * 1024,
    forwarder: { imageBaseUrl: undefined, textBaseUrl: undefined, token: undefined, imageBackends: {}, backendToken: undefined },
    allowedOrigins: [],
    distDir: join(PROJECT_ROOT, 'dist'),
    version: packageVersion(),
    ...overrides,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function number(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new ConfigError(`${name}=${JSON.stringify(raw)} is not a number between ${min} and ${max}`);
  }
  return value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = number(env, name, fallback, min, max);
  if (!Number.isInteger(value)) throw new ConfigError(`${name}=${JSON.stringify(env[name])} must be a whole number`);
  return value;
}

function origins(raw: string | undefined): string[] {
  if (nonEmpty(raw) === undefined) return [];
  return raw!.split(',').map((s) => s.trim()).filter((s) => s !== '').map((s) => {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      throw new ConfigError(`ATELIER_ALLOWED_ORIGINS: '${s}' is not an origin such as http://localhost:5173`);
    }
    if (url.origin !== s.replace(/\/$/, '')) throw new ConfigError(`ATELIER_ALLOWED_ORIGINS: '${s}' must be an origin only (scheme, host and port), such as ${url.origin}`);
    return url.origin;
  });
}

/** Checks an upstream base URL and returns it without a trailing slash. */
function baseUrl(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a URL (expected something like https://api.example.com/v1)`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${name} must be an http or https URL, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new ConfigError(`${name} must not carry credentials; put the token in ATELIER_TOKEN or the config file's "token"`);
  if (url.search !== '' || url.hash !== '') throw new ConfigError(`${name} must be a base URL without a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The image backends: the config file's per-engine `imageBackends`, with ATELIER_IMAGE_BACKEND
 * (and ATELIER_BACKEND_URL) sending every engine to one backend instead.
 */
function imageBackends(env: Env, file: ConfigFile, entries: readonly BackendEntry[]): EngineBackends {
  const backends: EngineBackends = { ...(file.imageBackends as EngineBackends | undefined) };
  const kind = nonEmpty(env.ATELIER_IMAGE_BACKEND);
  const url = nonEmpty(env.ATELIER_BACKEND_URL);
  if (kind !== undefined) {
    const entry = findBackend(entries, kind);
    if (entry === undefined) {
      throw new ConfigError(`ATELIER_IMAGE_BACKEND=${JSON.stringify(kind)} is not a backend; use one of ${backendChoices(entries).join(', ')}`);
    }
    if (kind !== 'service') {
      const servers = url === undefined ? [] : parseServers([url], (message) => new ConfigError(`ATELIER_BACKEND_URL: ${message}`));
      if (servers.length > 1 && entry.description.pool !== true) throw new ConfigError(`ATELIER_BACKEND_URL: ${entry.description.label} takes one server, not a list`);
      for (const engine of ENGINES) {
        const where = servers.length > 1 ? { baseUrl: servers[0]!.url, baseUrls: servers.map((s) => ({ ...s })) } : { baseUrl: servers[0]?.url ?? entry.description.defaultBaseUrl };
        backends[engine] = { kind: kind as BackendKind, ...where, ...(backends[engine]?.names ? { names: backends[engine].names } : {}) };
      }
    }
  } else if (url !== undefined) {
    throw new ConfigError(`ATELIER_BACKEND_URL needs ATELIER_IMAGE_BACKEND (${orList(backendChoices(entries))})`);
  }
  for (const [engine, backend] of Object.entries(backends)) {
    if (backend.baseUrls !== undefined) backend.baseUrls = backend.baseUrls.map((server, i) => ({ ...server, url: baseUrl(`the ${engine} backend's server ${server.label} (baseUrls.${i})`, server.url)! }));
    backend.baseUrl = backend.baseUrls?.[0]?.url ?? baseUrl(`the ${engine} backend's baseUrl`, backend.baseUrl)!;
  }
  return backends;
}


const ConfigFileSchema = z.strictObject({
  imageBaseUrl: z.string().min(1).optional(),
  textBaseUrl: z.string().min(1).optional(),
  token: z.string().min(1).optional(),
  imageBackends: EngineBackendsSchema.optional(),
  backendToken: z.string().min(1).optional(),
  backendTokens: z.record(z.string(), z.string().min(1)).optional(),
});
type ConfigFile = z.infer<typeof ConfigFileSchema>;

function readConfigFile(env: Env, warnings: string[]): ConfigFile {
  const explicit = nonEmpty(env.ATELIER_CONFIG);
  const path = explicit ?? join(nonEmpty(env.HOME) ?? homedir(), '.config', 'atelier', 'config.json');
  let text: string;
  let mode: number;
  try {
    mode = statSync(path).mode;
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && explicit === undefined) return {};
    throw new ConfigError(`cannot read the config file ${path} (ATELIER_CONFIG): ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`the config file ${path} is not valid JSON`);
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => (i.code === 'unrecognized_keys' ? i.keys.join(', ') : i.path.join('.'))).join(', ');
    throw new ConfigError(`the config file ${path} has unusable fields (${fields}); it takes only imageBaseUrl, textBaseUrl, token and backendToken (strings), backendTokens (a pool server's credential by label) and imageBackends (per engine: kind, baseUrl or baseUrls, names)`);
  }
  const file = parsed.data;
  // Like ssh with private keys: a token others can read is refused rather than used.
  if ((file.token !== undefined || file.backendToken !== undefined || file.backendTokens !== undefined) && process.platform !== 'win32' && (mode & 0o077) !== 0) {
    warnings.push(`the config file ${path} holds a token but other users can read it; its tokens are ignored until you run: chmod 600 ${path}`);
    return { ...file, token: undefined, backendToken: undefined, backendTokens: undefined };
  }
  return file;
}

let cachedVersion: string | undefined;
function packageVersion(): string {
  if (cachedVersion === undefined) {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version?: unknown };
    cachedVersion = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  }
  return cachedVersion;
}

/** 127.0.0.0/8, ::1 and localhost: names that never leave this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}
