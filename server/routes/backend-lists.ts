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
   * engine has no backend that lists, or it could not say. For a pool, every server is asked (each
   * with its own credential) and the answer is what any of them has, as placement sends a request
   * to a server that has its files; undefined unless every server said. `waitMs` bounds the wait:
   * after it, the last answer known (or undefined).
   */
  get(engine: EngineId, waitMs?: number): Promise<BackendNames | undefined>;
  /**
   * Whether each server of the engine's backend answered when last asked for its lists, by
   * position in its list of servers (undefined while never asked, or when it does not list).
   */
  answered(engine: EngineId): (boolean | undefined)[];
}

interface Entry {
  at: number;
  names?: BackendNames;
  answered?: boolean;
  asking?: Promise<BackendNames | undefined>;
}

const shared = new WeakMap<ForwarderConfig, BackendLists>();

/** The lists of `forwarder`'s backends: one per forwarder settings, shared by the forwarder and /api/info. */
export function backendLists(forwarder: ForwarderConfig): BackendLists {
  let lists = shared.get(forwarder);
  if (lists === undefined) shared.set(forwarder, lists = createLists(forwarder));
  return lists;
}

/** What any of `lists` has: each kind of list joined, or left out when one server did not give it. */
function union(lists: readonly BackendNames[]): BackendNames {
  const joined: BackendNames = {};
  for (const key of new Set(lists.flatMap((l) => Object.keys(l) as (keyof BackendNames)[]))) {
    if (lists.every((l) => l[key] !== undefined)) joined[key] = [...new Set(lists.flatMap((l) => l[key] ?? []))];
  }
  return joined;
}

function createLists(forwarder: ForwarderConfig): BackendLists {
  const entries = new Map<string, Entry>();
  const serversOf = (engine: EngineId) => {
    const config = forwarder.imageBackends[engine];
    if (config === undefined || !listsFiles(BACKEND_DESCRIPTION[config.kind])) return undefined;
    const servers = config.baseUrls ?? [{ label: '', url: config.baseUrl }];
    return servers.map(({ label, url }) => ({
      kind: config.kind, url, key: `${config.kind} ${url}`,
      credential: (label === '' ? undefined : forwarder.serverTokens?.get(label)) ?? forwarder.backendToken,
    }));
  };

  async function ask(server: NonNullable<ReturnType<typeof serversOf>>[number], waitMs: number): Promise<BackendNames | undefined> {
    const entry = entries.get(server.key) ?? { at: 0 };
    entries.set(server.key, entry);
    if (entry.asking === undefined && Date.now() - entry.at > REUSE_MS) {
      const backend = createBackend({ config: { kind: server.kind, baseUrl: server.url }, ...(server.credential === undefined ? {} : { credential: server.credential }) });
      entry.asking = backend.then((made) => made.listNames?.({ signal: AbortSignal.timeout(LIST_TIMEOUT_MS) })).then(
        (names) => names,
        () => undefined,
      ).then((names) => {
        entry.names = names;
        entry.answered = names !== undefined;
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
  }

  return {
    async get(engine, waitMs = LIST_TIMEOUT_MS) {
      const servers = serversOf(engine);
      if (servers === undefined) return undefined;
      const lists = await Promise.all(servers.map((server) => ask(server, waitMs)));
      if (lists.length === 1) return lists[0];
      return lists.every((l) => l !== undefined) ? union(lists) : undefined;
    },
    answered: (engine) => (serversOf(engine) ?? []).map((server) => entries.get(server.key)?.answered),
  };
}
