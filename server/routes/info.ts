/**
 * `GET /api/info`: what the editor's settings panel needs to offer the local engines and the
 * forwarder. Never a token: only whether things are configured.
 */
import type { BackendNamesConfig } from '../../api/backends/config';
import { BACKEND_LABEL, type BackendKind } from '../../api/backends/registry';
import type { EngineId } from '../../api/catalog';
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
    text: boolean;
    /** Where the browser sends forwarded requests; meaningful only when the flag above is true. */
    imageBaseUrl: string;
    textBaseUrl: string;
    /**
     * Engines the server translates for a backend, with the backend-side names, so the editor can
     * say before a run what each will approximate or refuse. Never its URL or credential.
     */
    imageBackends: Partial<Record<EngineId, { kind: BackendKind; label: string; names?: BackendNamesConfig }>>;
  };
}

export function infoRoutes(config: ServerConfig): Route[] {
  return [
    {
      path: '/api/info',
      methods: {
        GET: ({ res, origin }) => {
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
              imageBaseUrl: `${origin}${FORWARD_IMAGE_BASE}`,
              textBaseUrl: `${origin}${FORWARD_TEXT_BASE}`,
              imageBackends: Object.fromEntries(Object.entries(config.forwarder.imageBackends).map(([engine, backend]) => [
                engine, { kind: backend.kind, label: BACKEND_LABEL[backend.kind], ...(backend.names === undefined ? {} : { names: backend.names }) },
              ])),
            },
          };
          sendJson(res, 200, info);
        },
      },
    },
  ];
}
