/**
 * What a pool knows of its servers between requests: Atelier's requests in flight on each, the
 * server's own queue as last read, a recent time per image, the images each made this session,
 * and which are down and when each is next tried. Plain bookkeeping with the clock handed in, so
 * tests drive "down, retried with backoff, back up" without waiting.
 */
import type { ServerHoldings, ServerView } from './placement';
import { ownLoad, release, type ServerLoad } from './loads';

/** The first retry of a down server after 1 s, then doubling, never more than a minute apart. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 60_000;
/** Weight of the newest time per image in the running average (recent speed matters most). */
const SPEED_WEIGHT = 0.3;

/** The delay before retry number `attempt` (1 for the first) of a down server. */
export function retryDelay(attempt: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, attempt - 1));
}

/** One server as the run panel shows it. */
export interface ServerStatus {
  label: string;
  inFlight: number;
  queued: number;
  down: boolean;
  /** Images it made this session. */
  made: number;
  /** While down: since when, and when it is next tried (ms since the epoch, the pool's clock). */
  downSince?: number;
  retryAt?: number;
}

interface Entry extends ServerView {
  made: number;
  attempts: number;
  retryAt: number;
  downSince: number;
}

/** The bookkeeping of one pool; server ids are positions in `labels`. */
export interface PoolState {
  /** Every server, for `place` (the same objects each time: no copy per request). */
  views(): readonly ServerView[];
  status(): ServerStatus[];
  /** Each server's in-flight count and the requests waiting for room there, shared with other pools of it. */
  loads(): readonly ServerLoad[];
  /** A request was accepted by server `id`. */
  started(id: number): void;
  /** A request on `id` ended; with `images` and `ms` when it made images. */
  ended(id: number, made?: { images: number; ms: number }): void;
  /** The server's own queue length, as read from it. */
  queued(id: number, length: number): void;
  holds(id: number, holds: ServerHoldings): void;
  /** It refused a connection or timed out: down, and retried after a growing delay (returned, in ms). */
  down(id: number): number;
  /** It answered: up again, its backoff forgotten. */
  up(id: number): void;
  /** Down servers whose next retry is due. */
  dueForRetry(): number[];
}

/**
 * A pool of `labels.length` servers, all up; `now` gives milliseconds (Date.now in the app).
 * `loads` (by position) are the servers' in-flight counts shared with other pools of the same
 * servers (loads.ts); each server counts only this pool's requests without one.
 */
export function createPoolState(labels: readonly string[], now: () => number, loads: readonly (ServerLoad | undefined)[] = []): PoolState {
  const shared = labels.map((_, id) => loads[id] ?? ownLoad());
  const entries: Entry[] = labels.map((label, id) => {
    const load = shared[id]!;
    const entry = { id, label, down: false, queued: 0, holds: {}, made: 0, attempts: 0, retryAt: 0, downSince: 0 };
    // Read where placement reads it, so every pool of this server sees every request on it.
    return Object.defineProperty(entry, 'inFlight', { get: () => load.inFlight, enumerable: true }) as Entry;
  });
  const at = (id: number): Entry => {
    const entry = entries[id];
    if (!entry) throw new RangeError(`the pool has no server ${id}`);
    return entry;
  };
  return {
    views: () => entries,
    status: () => entries.map(({ label, inFlight, queued, down, made, downSince, retryAt }) => ({
      label, inFlight, queued, down, made, ...(down ? { downSince, retryAt } : {}),
    })),
    loads: () => shared,
    started(id) {
      at(id);
      shared[id]!.inFlight++;
    },
    ended(id, made) {
      const entry = at(id);
      release(shared[id]!);
      if (!made || made.images <= 0) return;
      entry.made += made.images;
      const each = made.ms / made.images;
      entry.msPerImage = entry.msPerImage === undefined ? each : entry.msPerImage + SPEED_WEIGHT * (each - entry.msPerImage);
    },
    queued(id, length) {
      at(id).queued = Math.max(0, length);
    },
    holds(id, holds) {
      at(id).holds = holds;
    },
    down(id) {
      const entry = at(id);
      if (!entry.down) entry.downSince = now();
      entry.down = true;
      entry.attempts++;
      const delay = retryDelay(entry.attempts);
      entry.retryAt = now() + delay;
      return delay;
    },
    up(id) {
      const entry = at(id);
      entry.down = false;
      entry.attempts = 0;
      entry.retryAt = 0;
    },
    dueForRetry() {
      const t = now();
      return entries.filter((e) => e.down && e.retryAt <= t).map((e) => e.id);
    },
  };
}
