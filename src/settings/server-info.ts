/**
 * What the local server says it has (`GET /api/info`): whether its forwarder has upstream base
 * URLs, and whether it was started with ATELIER_LOCAL_TOKEN. The settings dialog shows it, and a
 * run is refused up front when the route chosen cannot work (settingsProblems). Asked the first
 * time it is read and again whenever the settings dialog opens, since the server may have been
 * restarted with other settings meanwhile. It never holds a token, only whether one is needed.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { BackendNamesConfig } from '../../api/backends/config';
import type { RemoteBackend } from '../../api/backends/index';
import type { BackendKind, BackendNames } from '../../api/backends/types';
import type { EngineId } from '../../api/catalog';
import { createSmallStore } from '../ui/small-store';

/** A backend the server sends an engine's requests to: never its address or credential. */
export interface ServerBackend {
  kind: BackendKind;
  label: string;
  names?: BackendNamesConfig;
  /** What the backend listed it has, when the server could ask it. */
  listed?: BackendNames;
  /** A pool's servers, by label (never an address), and whether each is down. */
  servers?: { label: string; down: boolean }[];
}

/** The parts of `/api/info` the editor uses (server/routes/info.ts has the whole answer). */
export interface ServerInfo {
  localEngines?: { models?: string[]; tokenRequired?: boolean };
  forwarder?: {
    image?: boolean;
    text?: boolean;
    /** Where the server sends chat: its upstream, or without one its local text engine (the offline stand-in). */
    chat?: 'upstream' | 'local';
    imageBackends?: Partial<Record<EngineId, ServerBackend>>;
  };
}

/**
 * The backends the server's forwarder translates for, for the worker's review; undefined when
 * none. A pool's servers reach the worker as their count (the cost view's "shared by 3 servers").
 */
export function forwardedBackends(info: ServerInfoState): Partial<Record<EngineId, RemoteBackend>> | undefined {
  const backends = info === null || info === 'unreachable' ? undefined : info.forwarder?.imageBackends;
  if (backends === undefined || Object.keys(backends).length === 0) return undefined;
  const forwarded: Partial<Record<EngineId, RemoteBackend>> = {};
  for (const [engine, backend] of Object.entries(backends) as [EngineId, ServerBackend][]) {
    const { servers, ...rest } = backend;
    forwarded[engine] = { ...rest, ...(Array.isArray(servers) && servers.length > 1 ? { servers: servers.length } : {}) };
  }
  return forwarded;
}

/** `null` while not known yet; 'unreachable' when the server did not answer. */
export type ServerInfoState = ServerInfo | 'unreachable' | null;

export interface ServerInfoSource {
  /** What is known now; the first read starts asking. */
  get(): ServerInfoState;
  /** Asks the server again (what is known stays until the answer comes). */
  refresh(): Promise<void>;
  subscribe(listener: () => void): () => void;
}

export function createServerInfoSource(load: () => Promise<ServerInfo>): ServerInfoSource {
  const state = createSmallStore<ServerInfoState>(null);
  let asking: Promise<void> | undefined;
  const refresh = () => {
    asking ??= load().then(
      (info) => state.set(info),
      () => state.set('unreachable'),
    ).finally(() => {
      asking = undefined;
    });
    return asking;
  };
  let asked = false;
  return {
    get() {
      if (!asked) {
        asked = true;
        void refresh();
      }
      return state.get();
    },
    refresh() {
      asked = true;
      return refresh();
    },
    subscribe: state.subscribe,
  };
}

async function loadServerInfo(): Promise<ServerInfo> {
  const response = await fetch('/api/info', { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`/api/info answered ${response.status}`);
  return (await response.json()) as ServerInfo;
}

/** The server this page came from. */
export const serverInfo: ServerInfoSource = createServerInfoSource(loadServerInfo);

/** The server's info, asked afresh when the calling component mounts (the settings dialog opens). */
export function useServerInfo(): ServerInfoState {
  useEffect(() => {
    void serverInfo.refresh();
  }, []);
  return useSyncExternalStore(serverInfo.subscribe, serverInfo.get, serverInfo.get);
}
