/**
 * `GET /api/info`: what the editor's settings panel needs to offer the local engines and the
 * forwarder. Never a token: only whether things are configured.
 */
import type { BackendNamesConfig } from '../../api/backends/config';
import { BACKEND_LABEL, type BackendKind } from '../../api/backends/registry';
import type { BackendNames } from '../../api/backends/types';
import type { EngineId } from '../../api/catalog';
import { backendLists } from './backend-lists';
import { LOCAL_CHAT_MODELS } from '../engines/text';
import { type ServerConfig } from '../config';
import { sendJson } from '../http-utils';
import { type Route } from '../router';
import { FORWARD_IMAGE_BASE, FORWARD_TEXT_BASE } from './forwarder';
import { LOCAL_IMAGE_BASE } from './local-image';
import { LOCAL_TEXT_BASE } from './local-text';

export interface ServerInfo {
  version: string;
  localEngines: {
    imageBaseUrl: string;
    textBaseUrl: string;
    models: readonly string[];
    /** Whether the local engines require a token (ATELIER_LOCAL_TOKEN is set). */
    tokenRequired: boolean;
    standIn: true;
  };
  forwarder: {
    image: boolean;
    /** Whether a chat upstream is configured (ATELIER_TEXT_BASE_URL). */
    text: boolean;
    /** Where /forward/text goes: the chat upstream, or without one the local text engine (the offline stand-in). */
    chat: 'upstream' | 'local';
    /** Where the browser sends forwarded requests; meaningful only when the flag above is true. */
    imageBaseUrl: string;
    textBaseUrl: string;
    /**
     * Engines the server translates for a backend, with the backend-side names, so the editor can
     * say before a run what each will approximate or refuse. Never its URL or credential.
     */
    imageBackends: Partial<Record<EngineId, { kind: BackendKind; label: string; names?: BackendNamesConfig; listed?: BackendNames; servers?: number }>>;
  };
}

/** How long /api/info waits for the backends' lists; after it, the last ones known (or none). */
const LISTS_WAIT_MS = 2_000;

export function infoRoutes(config: ServerConfig): Route[] {
  const lists = backendLists(config.forwarder);
  return [
    {
      path: '/api/info',
      methods: {
        GET: async ({ res, origin }) => {
          const engines = Object.entries(config.forwarder.imageBackends) as [EngineId, NonNullable<ServerConfig['forwarder']['imageBackends'][EngineId]>][];
          // What each backend has, so the editor checks a run's names before it (never its URL or credential).
          const listed = await Promise.all(engines.map(([engine]) => lists.get(engine, LISTS_WAIT_MS)));
          const info: ServerInfo = {
            version: config.version,
            localEngines: {
              imageBaseUrl: `${origin}${LOCAL_IMAGE_BASE}`,
              textBaseUrl: `${origin}${LOCAL_TEXT_BASE}`,
              models: LOCAL_CHAT_MODELS,
              tokenRequired: config.localToken !== undefined,
              standIn: true,
            },
            forwarder: {
              image: config.forwarder.imageBaseUrl !== undefined || Object.keys(config.forwarder.imageBackends).length > 0,
              text: config.forwarder.textBaseUrl !== undefined,
              chat: config.forwarder.textBaseUrl === undefined ? 'local' : 'upstream',
              imageBaseUrl: `${origin}${FORWARD_IMAGE_BASE}`,
              textBaseUrl: `${origin}${FORWARD_TEXT_BASE}`,
              imageBackends: Object.fromEntries(engines.map(([engine, backend], i) => [
                engine, {
                  kind: backend.kind, label: BACKEND_LABEL[backend.kind], ...(backend.names === undefined ? {} : { names: backend.names }),
                  ...(listed[i] === undefined ? {} : { listed: listed[i] }),
                  // A pool's size, for the cost view ("shared by 3 servers"): never an address.
                  ...((backend.baseUrls?.length ?? 0) > 1 ? { servers: backend.baseUrls!.length } : {}),
                },
              ])),
            },
          };
          sendJson(res, 200, info);
        },
      },
    },
  ];
}
