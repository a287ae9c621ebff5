/**
 * What the forwarder's backends have (their checkpoints, LoRAs…), asked by the server itself: the
 * forwarder checks a request's names against it before sending, and /api/info gives it to the
 * editor so a run's problems say it before the run. Only backends whose names are files are asked
 * (see `listsFiles`); one that cannot be asked has no list, and nothing is checked against it.
 */
import { listsFiles } from '../../api/backends/describe';
import { createBackend, type BackendNames } from '../../api/backends/index';
import { BACKEND_DESCRIPTION } from '../../api/backends/registry';
import type { EngineId } from '../../api/catalog';
import type { ForwarderConfig } from '../config';

/** A list this fresh is used again (a fan-out of 64 images asks once), an older one asked anew. */
const REUSE_MS = 5_000;
/** How long a backend may take to list what it has. */
const LIST_TIMEOUT_MS = 10_000;

export interface BackendLists {
  /**
   * The names the engine's backend lists, asked afresh unless just asked; undefined when the
   * engine has no backend that lists, or it could not say. `waitMs` bounds the wait: after it,
   * the last answer known (or undefined).
   */
  get(engine: EngineId, waitMs?: number): Promise<BackendNames | undefined>;
}

interface Entry {
  at: number;
  names?: BackendNames;
  asking?: Promise<BackendNames | undefined>;
}

const shared = new WeakMap<ForwarderConfig, BackendLists>();

/** The lists of `forwarder`'s backends: one per forwarder settings, shared by the forwarder and /api/info. */
export function backendLists(forwarder: ForwarderConfig): BackendLists {
  let lists = shared.get(forwarder);
  if (lists === undefined) shared.set(forwarder, lists = createLists(forwarder));
  return lists;
}

function createLists(forwarder: ForwarderConfig): BackendLists {
  const entries = new Map<string, Entry>();
  return {
    async get(engine, waitMs = LIST_TIMEOUT_MS) {
      const config = forwarder.imageBackends[engine];
      if (config === undefined || !listsFiles(BACKEND_DESCRIPTION[config.kind])) return undefined;
      const key = `${config.kind} ${config.baseUrl}`;
      const entry = entries.get(key) ?? { at: 0 };
      entries.set(key, entry);
      if (entry.asking === undefined && Date.now() - entry.at > REUSE_MS) {
        const backend = createBackend({ config: { kind: config.kind, baseUrl: config.baseUrl }, ...(forwarder.backendToken === undefined ? {} : { credential: forwarder.backendToken }) });
        entry.asking = backend.then((made) => made.listNames?.({ signal: AbortSignal.timeout(LIST_TIMEOUT_MS) })).then(
          (names) => names,
          () => undefined,
        ).then((names) => {
          entry.names = names;
          entry.at = Date.now();
          entry.asking = undefined;
          return names;
        });
      }
      if (entry.asking === undefined) return entry.names;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<BackendNames | undefined>((resolve) => {
        timer = setTimeout(() => resolve(entry.names), waitMs);
      });
      try {
        return await Promise.race([entry.asking, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
