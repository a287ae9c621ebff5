/**
 * The user's settings: where requests go, the tokens that reach them, the image backends, the chat
 * model and how many nodes run at once. They are the user's, never the workflow's: stored apart
 * (localStorage), never written into a workflow file, an autosave or an export. Tokens and backend
 * credentials are kept in sessionStorage unless the user asks to remember them on this device.
 */
import type { BackendConfig } from '../../api/backends/config';
import type { BackendNames } from '../../api/backends/types';
import type { EngineId } from '../../api/catalog';
import type { ApiUse } from '../../nodes/api-use';
import type { WorkerSettings } from '../../workers/worker-api';
import { NO_IMAGE_BACKENDS, type BackendCredentials, type BackendRules, type ImageBackendSettings } from './backend-types';
import { checkBaseUrl } from './base-url';
import { forwardedBackends, type ServerInfoState } from './server-info';

export { checkBaseUrl };

/**
 * - `local`: the local server's offline engines (`/local/image`, `/local/text`);
 * - `forward`: the real endpoints through the local server, which holds the token;
 * - `direct`: the real endpoints straight from the browser (they must allow CORS).
 */
export type EndpointMode = 'local' | 'forward' | 'direct';

/**
 * Where chat nodes go, chosen apart from images: `route`, the chat API of the route above (the
 * local engines, the server's chat upstream, or the direct Chat API base URL); `local`, the local
 * text engine, an offline stand-in that is not a language model, on any route.
 */
export type ChatChoice = 'route' | 'local';

/** How the local chat engine is named wherever a person chooses it or is told a run uses it. */
export const CHAT_STAND_IN_LABEL = 'local stand-in (offline, not a language model)';

export interface Settings {
  mode: EndpointMode;
  /** Base URLs for `direct` mode. */
  directImageBaseUrl: string;
  directTextBaseUrl: string;
  /** Bearer token for `direct` mode. */
  directToken: string;
  /** Bearer token for the local server, when it was started with ATELIER_LOCAL_TOKEN. */
  serverToken: string;
  /** Keep the tokens in localStorage instead of only for this browser session. */
  rememberTokens: boolean;
  /** Where chat nodes go (the route's chat API, or the local stand-in). */
  chat: ChatChoice;
  /** Used by chat nodes whose own model field is empty. */
  chatModel: string;
  /** How many nodes may run at once. */
  concurrency: number;
  /** Where each image engine's requests go on the local and direct routes (backend-settings.ts). */
  imageBackends: ImageBackendSettings;
  /** The backends' credentials, kept like the tokens. */
  backendCredentials: BackendCredentials;
  /** Runs one fan-out of a node that calls an API may make before the editor asks. */
  maxFanOut: number;
}

export const LOCAL_IMAGE_PATH = '/local/image';
export const LOCAL_TEXT_PATH = '/local/text';
export const FORWARD_IMAGE_PATH = '/forward/image';
export const FORWARD_TEXT_PATH = '/forward/text';
export const MAX_CONCURRENCY = 16;
export const MAX_FAN_OUT_SETTING = 10_000;

export const DEFAULT_SETTINGS: Settings = {
  mode: 'local',
  directImageBaseUrl: '',
  directTextBaseUrl: '',
  directToken: '',
  serverToken: '',
  rememberTokens: false,
  chat: 'route',
  chatModel: 'atelier-local-chat',
  concurrency: 4,
  imageBackends: NO_IMAGE_BACKENDS,
  backendCredentials: {},
  maxFanOut: 64,
};

/** The storages settings live in; the browser's by default, plain maps in tests. */
export interface SettingsStorage {
  local: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  session: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

const SETTINGS_KEY = 'atelier.settings.v1';
const TOKENS_KEY = 'atelier.tokens.v1';
const TOKEN_FIELDS = ['directToken', 'serverToken'] as const;

function readJson(storage: SettingsStorage['local'], key: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(storage.getItem(key) ?? '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    // A damaged entry is replaced by the defaults on the next save.
    return {};
  }
}

const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);

/**
 * Settings read back from storage; anything missing or malformed takes its default. The image
 * backends are read by their `rules` (backend-settings.ts), loaded only where some are stored.
 */
export function loadSettings(storage: SettingsStorage, rules?: BackendRules): Settings {
  const saved = readJson(storage.local, SETTINGS_KEY);
  const mode = saved.mode === 'forward' || saved.mode === 'direct' ? saved.mode : 'local';
  const concurrency = typeof saved.concurrency === 'number' && Number.isInteger(saved.concurrency)
    ? Math.min(MAX_CONCURRENCY, Math.max(1, saved.concurrency))
    : DEFAULT_SETTINGS.concurrency;
  const maxFanOut = typeof saved.maxFanOut === 'number' && Number.isInteger(saved.maxFanOut)
    ? Math.min(MAX_FAN_OUT_SETTING, Math.max(1, saved.maxFanOut))
    : DEFAULT_SETTINGS.maxFanOut;
  const rememberTokens = saved.rememberTokens === true;
  const tokens = readJson(rememberTokens ? storage.local : storage.session, TOKENS_KEY);
  return {
    mode,
    directImageBaseUrl: str(saved.directImageBaseUrl, ''),
    directTextBaseUrl: str(saved.directTextBaseUrl, ''),
    directToken: str(tokens.directToken, ''),
    serverToken: str(tokens.serverToken, ''),
    rememberTokens,
    chat: saved.chat === 'local' ? 'local' : 'route',
    chatModel: str(saved.chatModel, DEFAULT_SETTINGS.chatModel),
    concurrency,
    ...(rules === undefined ? { imageBackends: NO_IMAGE_BACKENDS, backendCredentials: {} } : rules.read(storage, rememberTokens)),
    maxFanOut,
  };
}

/**
 * Writes settings; tokens go to session storage, or local storage when remembered (never both).
 * The image backends are written by their `rules`, when loaded (nothing of them has changed else).
 */
export function saveSettings(settings: Settings, storage: SettingsStorage, rules?: BackendRules): void {
  const { directToken, serverToken, imageBackends, backendCredentials, ...rest } = settings;
  storage.local.setItem(SETTINGS_KEY, JSON.stringify(rest));
  const tokens: Record<string, string> = {};
  if (directToken !== '') tokens.directToken = directToken;
  if (serverToken !== '') tokens.serverToken = serverToken;
  const [keep, clear] = settings.rememberTokens ? [storage.local, storage.session] : [storage.session, storage.local];
  clear.removeItem(TOKENS_KEY);
  if (Object.keys(tokens).length === 0) keep.removeItem(TOKENS_KEY);
  else keep.setItem(TOKENS_KEY, JSON.stringify(tokens));
  rules?.save({ imageBackends, backendCredentials }, storage, settings.rememberTokens);
}

/** Whether any token or backend credential is set (for "remember" warnings). */
export function hasTokens(settings: Settings): boolean {
  return TOKEN_FIELDS.some((f) => settings[f] !== '') || Object.values(settings.backendCredentials).some((c) => c !== '');
}

export interface Endpoints {
  imageBaseUrl: string;
  textBaseUrl: string;
  token?: string;
  /** Set when chat goes elsewhere than `token` may: the chat requests' own token (none when empty). */
  chatAuth?: { token?: string };
}

/** The token chat requests carry for these endpoints. */
export function chatTokenOf(endpoints: Endpoints): string | undefined {
  return endpoints.chatAuth === undefined ? endpoints.token : endpoints.chatAuth.token;
}

/** Where requests go for these settings, as absolute URLs for a page served from `origin`. */
export function endpointsFor(settings: Settings, origin: string): Endpoints {
  const server = settings.serverToken === '' ? {} : { token: settings.serverToken };
  const routed = routeEndpoints(settings, origin, server);
  if (settings.chat !== 'local' || settings.mode === 'local') return routed;
  // Chat on this server's local engine: it carries this server's token, never the direct one.
  const textBaseUrl = `${origin}${LOCAL_TEXT_PATH}`;
  return settings.mode === 'forward' ? { ...routed, textBaseUrl } : { ...routed, textBaseUrl, chatAuth: server };
}

function routeEndpoints(settings: Settings, origin: string, server: { token?: string }): Endpoints {
  switch (settings.mode) {
    case 'local':
      return { imageBaseUrl: `${origin}${LOCAL_IMAGE_PATH}`, textBaseUrl: `${origin}${LOCAL_TEXT_PATH}`, ...server };
    case 'forward':
      return { imageBaseUrl: `${origin}${FORWARD_IMAGE_PATH}`, textBaseUrl: `${origin}${FORWARD_TEXT_PATH}`, ...server };
    case 'direct': {
      const image = checkBaseUrl(settings.directImageBaseUrl);
      const text = checkBaseUrl(settings.directTextBaseUrl);
      return {
        imageBaseUrl: image.ok ? image.url : '',
        textBaseUrl: text.ok ? text.url : '',
        ...(settings.directToken === '' ? {} : { token: settings.directToken }),
      };
    }
  }
}

/** What a backend listed it has, as the settings asked it (backend-names.ts); undefined when not known. */
export type ListedNames = (config: BackendConfig, credential: string) => BackendNames | undefined;

/**
 * What the run worker's `configure()` takes for these settings. Through the server, the engines
 * go where the server sends them (`server`'s answer says which backends, for the review before a
 * run); on the other routes, to the backends of these settings, each with its own credential and,
 * where `listed` knows them, the names it has (checked before a run).
 */
export function workerSettingsFor(settings: Settings, origin: string, server: ServerInfoState = null, rules?: BackendRules, listed?: ListedNames): WorkerSettings {
  const base: WorkerSettings = { ...endpointsFor(settings, origin), chatModel: settings.chatModel, concurrency: settings.concurrency, maxFanOut: settings.maxFanOut };
  if (settings.mode === 'forward') {
    const forwarded = forwardedBackends(server);
    return forwarded === undefined ? base : { ...base, forwardedBackends: forwarded };
  }
  // Without its rules no backend can be chosen: settingsProblems says so when one is.
  if (rules === undefined) return base;
  const { backends, credentials } = rules.resolve(settings);
  if (Object.keys(backends).length === 0) return base;
  const names: Partial<Record<EngineId, BackendNames>> = {};
  for (const [engine, config] of Object.entries(backends) as [EngineId, BackendConfig][]) {
    // A pool's servers hold different files: which can run a request is placement's to say, server by server.
    const credential = credentials[engine];
    if (config.baseUrls !== undefined && config.baseUrls.length > 1) continue;
    const known = listed?.(config, typeof credential === 'string' ? credential : '');
    if (known !== undefined) names[engine] = known;
  }
  return {
    ...base, imageBackends: backends,
    ...(Object.keys(credentials).length === 0 ? {} : { backendCredentials: credentials }),
    ...(Object.keys(names).length === 0 ? {} : { backendNames: names }),
  };
}

/** Every token, credential and endpoint the settings hold, in use or not: never let into a manifest. */
export function settingsSecrets(settings: Settings, origin: string, rules?: BackendRules): string[] {
  const endpoints = endpointsFor(settings, origin);
  return [
    settings.directToken, settings.serverToken, settings.directImageBaseUrl, settings.directTextBaseUrl, endpoints.imageBaseUrl, endpoints.textBaseUrl, origin,
    ...(rules?.secrets(settings) ?? Object.values(settings.backendCredentials)),
  ].map((v) => v.trim()).filter((v) => v !== '');
}

/** A base URL of the direct route that cannot be used, and where to fix it. */
function directUrlProblem(label: string, value: string): string | undefined {
  const check = checkBaseUrl(value);
  if (check.ok) return undefined;
  return `${label} ${check.reason}: ${check.reason === 'is empty' ? 'enter it' : 'correct it'} in Settings (Direct endpoints)`;
}

/**
 * Problems that stop a run with these settings, each naming what to change and where. Empty when
 * fine. `server` is what the local server says it has (unknown: nothing is assumed missing);
 * `uses`, the APIs the run calls: a forwarder without a chat upstream does not stop a run that
 * only draws. The direct route needs the chat URL whatever the run, as the worker is set up with
 * it, and the image URL unless every engine goes to a backend.
 */
export function settingsProblems(settings: Settings, server: ServerInfoState = null, uses: ApiUse = { image: true, text: true }, rules?: BackendRules): string[] {
  const problems: string[] = [];
  const loaded = rules;
  if (settings.mode !== 'forward' && uses.image && rules !== undefined) problems.push(...rules.resolve(settings).problems);
  if (settings.mode === 'direct') {
    const image = (loaded?.usesServiceApi(settings.imageBackends) ?? true) ? directUrlProblem('Image API base URL', settings.directImageBaseUrl) : undefined;
    const chat = settings.chat === 'local' ? undefined : directUrlProblem('Chat API base URL', settings.directTextBaseUrl);
    for (const problem of [image, chat === undefined ? undefined : `${chat}, or choose Chat: ${CHAT_STAND_IN_LABEL} in Settings (Chat)`]) {
      if (problem !== undefined) problems.push(problem);
    }
    if (settings.chat !== 'local' || !uses.text || server === null || server === 'unreachable') return problems;
  }
  if (server === null || server === 'unreachable' || (!uses.image && !uses.text)) return problems;
  if (settings.mode === 'forward') {
    if (uses.image && server.forwarder?.image !== true) {
      problems.push('this server has no image API to forward to: set ATELIER_IMAGE_BASE_URL (and ATELIER_TOKEN) or ATELIER_IMAGE_BACKEND (and ATELIER_BACKEND_URL) on the server and restart it, or choose another route in Settings');
    }
    if (uses.text && !chatOnStandIn(settings, server) && server.forwarder?.text !== true) {
      problems.push('this server has no chat API to forward to: set ATELIER_TEXT_BASE_URL (and ATELIER_TOKEN) on the server and restart it, or choose another route in Settings');
    }
  }
  const usesServer = settings.mode !== 'direct' || (uses.text && settings.chat === 'local');
  if (usesServer && server.localEngines?.tokenRequired === true && settings.serverToken.trim() === '') {
    problems.push('this server requires a token (it was started with ATELIER_LOCAL_TOKEN) and none is set: enter the server’s token in Settings (This server’s token)');
  }
  return problems;
}

/**
 * Whether chat nodes go to the local text engine, the offline stand-in: on the local route, when
 * chosen for chat, or through a server that has no chat upstream (its /api/info says so).
 */
export function chatOnStandIn(settings: Settings, server: ServerInfoState): boolean {
  if (settings.mode === 'local' || settings.chat === 'local') return true;
  if (settings.mode !== 'forward' || server === null || server === 'unreachable') return false;
  return server.forwarder?.text !== true && server.forwarder?.chat === 'local';
}
