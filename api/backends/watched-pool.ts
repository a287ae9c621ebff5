/**
 * A pool as the run sees it: the pool of pool/index.ts, with a way to watch its servers (the
 * run panel's view, by label only) and a review that says how many servers share its requests
 * (the cost view's "shared by 3 servers"). Kept beside the pool, not in it: the pool itself
 * knows one `onStatus`, and a run, a CLI and a server route each come and go as listeners.
 */
import type { ServersReport } from '../client-types';
import { createPoolBackend, type PoolBackend, type PoolMember, type PoolOptions } from './pool/index';
import type { ServerStatus } from './pool/state';

/** A pool whose servers can be watched, each listener told at once and on every change. */
export type WatchedPool = PoolBackend & { watchServers(listener: (report: ServersReport) => void): () => void };

/** The pool of `members` (see createPoolBackend), watchable; `onStatus` in `options` is replaced. */
export function createWatchedPool(members: readonly PoolMember[], options: Omit<PoolOptions, 'onStatus'> = {}): WatchedPool {
  const listeners = new Set<(report: ServersReport) => void>();
  // The backend's own name, never an address; the router says which engines it serves.
  const name = members[0]?.backend.label ?? 'pool';
  const report = (servers: ServerStatus[]): ServersReport => ({ pool: name, engines: [], servers });
  const tell = (servers: ServerStatus[]) => {
    for (const listener of [...listeners]) {
      try {
        listener(report(servers));
      } catch {
        // A listener that failed (a page gone away) must not stop the pool's request.
      }
    }
  };
  const built = createPoolBackend(members, { ...options, onStatus: tell });
  return {
    ...built,
    review: (engine, request) => ({ ...built.review(engine, request), servers: built.size }),
    watchServers(listener) {
      listeners.add(listener);
      listener(report(built.status()));
      return () => listeners.delete(listener);
    },
  };
}
