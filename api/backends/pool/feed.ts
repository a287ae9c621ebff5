/**
 * What placement knows of each server, kept fresh: the files it has (its `listNames`: checkpoints,
 * LoRAs, ControlNet models) and its own queue (`serverQueue`: ComfyUI's `GET /queue`,
 * AUTOMATIC1111 busy or not). Asked before a request is placed when older than a few seconds; a
 * fan-out's requests share one round of asking. A server that cannot be asked keeps what was
 * known (an unknown list excludes nothing), and one that refuses the connection is marked down.
 * Only the first round is waited for; later ones are read while requests go on what was known.
 */
import { ApiError } from '../../errors';
import type { BackendNames, ImageBackend } from '../types';
import { whyUnanswered } from '../unanswered';
import type { ServerHoldings } from './placement';
import type { PoolState } from './state';

/** Lists change when someone adds a file; a minute-old list is still a good guess. */
export const NAMES_FRESH_MS = 30_000;
/** Queues change with every job: read again at most this often. */
export const QUEUE_FRESH_MS = 2_000;
/** A server slower than this to say what it has is placed on what was known. */
const ASK_TIMEOUT_MS = 3_000;

const withoutHash = (name: string) => name.replace(/ \[[^\]]*\]$/, '');
const baseName = (name: string) => name.split(/[\\/]/).pop() ?? name;
const stem = (name: string) => name.replace(/\.[a-z0-9]+$/i, '');

/**
 * What a server holds, from what it listed. AUTOMATIC1111 lists a checkpoint by its title
 * (`sub/name.safetensors [hash]`) and finds it by the title, the file name or its stem, so each
 * of those counts as held; ComfyUI needs the name exactly as listed.
 */
export function holdingsOf(names: BackendNames, kind: ImageBackend['kind']): ServerHoldings {
  const variants = (list: readonly string[]) => (kind === 'a1111'
    ? list.flatMap((n) => [n, withoutHash(n), baseName(withoutHash(n)), stem(withoutHash(n)), stem(baseName(withoutHash(n)))])
    : list);
  const holdings: ServerHoldings = {};
  if (names.checkpoints !== undefined) holdings.checkpoints = new Set(variants(names.checkpoints));
  if (names.loras !== undefined) holdings.loras = new Set(names.loras);
  if (names.controlnets !== undefined) holdings.controlnets = new Set(variants(names.controlnets));
  return holdings;
}

export interface FeedDeps {
  members: readonly { backend: ImageBackend }[];
  state: PoolState;
  now: () => number;
  markDown(id: number): void;
  changed(): void;
}

/** `refresh()` brings what placement knows up to date where it is stale; it never rejects. */
export function createFeed({ members, state, now, markDown, changed }: FeedDeps): { refresh(): Promise<void> } {
  let namesAt = Number.NEGATIVE_INFINITY;
  let queueAt = Number.NEGATIVE_INFINITY;
  let asking: Promise<void> | undefined;

  async function ask(id: number, names: boolean, queue: boolean): Promise<void> {
    const { backend } = members[id]!;
    if (state.views()[id]?.down === true) return;
    const o = { signal: AbortSignal.timeout(ASK_TIMEOUT_MS) };
    const [listed, length] = await Promise.allSettled([
      names ? backend.listNames?.(o) : undefined,
      queue ? backend.serverQueue?.(o) : undefined,
    ]);
    if (listed.status === 'fulfilled' && listed.value !== undefined) state.holds(id, holdingsOf(listed.value, backend.kind));
    // The server's queue holds Atelier's own requests too, counted apart as in flight.
    if (length.status === 'fulfilled' && length.value !== undefined) state.queued(id, length.value - (state.views()[id]?.inFlight ?? 0));
    const failure = [listed, length].find((r) => r.status === 'rejected')?.reason as unknown;
    if (failure instanceof ApiError) {
      const why = whyUnanswered(failure);
      if (why === 'refused' || why === 'unreachable') markDown(id);
    }
  }

  return {
    refresh() {
      // Once a round has been read, a request is placed on what is known and the new reading
      // serves the next: one server slow to answer (up to ASK_TIMEOUT_MS) never holds up every
      // placement, on every server, while a fan-out waits.
      const known = queueAt > Number.NEGATIVE_INFINITY;
      if (asking !== undefined) return known ? Promise.resolve() : asking;
      const t = now();
      const names = t - namesAt >= NAMES_FRESH_MS;
      const queue = t - queueAt >= QUEUE_FRESH_MS;
      if (!names && !queue) return Promise.resolve();
      asking = Promise.all(members.map((_, id) => ask(id, names, queue))).then(() => {
        if (names) namesAt = t;
        queueAt = t;
        changed();
      }).finally(() => { asking = undefined; });
      return known ? Promise.resolve() : asking;
    },
  };
}
