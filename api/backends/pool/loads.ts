/**
 * How many of Atelier's requests each server holds, shared by every pool that uses the server.
 * The settings may send two engines (or a ComfyUI workflow node and an image node) to the same
 * servers; each engine gets its own pool, and if each counted only its own requests, both would
 * see a server as free and pile onto it. So a pool's count for a server is one object per server
 * address in this process, and requests waiting for room wait on it, whichever pool they came from.
 */

/** One server's load, shared by the pools that use it. */
export interface ServerLoad {
  /** Atelier's requests sent there and not finished, from every pool. */
  inFlight: number;
  /** Requests waiting for room on this server, first come first woken (a Set keeps its order). */
  readonly waiting: Set<() => void>;
}

const loads = new Map<string, ServerLoad>();

/** A load no other pool shares (a server given without an address). */
export function ownLoad(): ServerLoad {
  return { inFlight: 0, waiting: new Set() };
}

/**
 * The shared load of the server at `address`: one object per server however it is spelled
 * (case of the host, a trailing slash, a default port). Kept for the life of the process; a
 * handful of servers at most, and never the address itself in anything shown.
 */
export function sharedLoad(address: string): ServerLoad {
  const key = serverKey(address);
  let load = loads.get(key);
  if (load === undefined) loads.set(key, load = ownLoad());
  return load;
}

function serverKey(address: string): string {
  try {
    const url = new URL(address.trim());
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return address.trim();
  }
}

/** A request ended on this server: one fewer in flight, and the first request waiting for room there may go. */
export function release(load: ServerLoad): void {
  load.inFlight = Math.max(0, load.inFlight - 1);
  wake(load);
}

/** Wakes the first request waiting for room on `load`, if any (it places itself again). */
export function wake(load: ServerLoad): void {
  const first = load.waiting.values().next();
  if (first.done !== true) first.value();
}

/**
 * Resolves once any of `on` has room again (a request there ended, or it came back up), or
 * rejects with `aborted()` when `signal` aborts first. The waiter leaves every list when it goes.
 */
export function waitForRoom(on: readonly ServerLoad[], signal: AbortSignal | undefined, aborted: () => Error): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(aborted());
    const leave = () => {
      for (const load of on) load.waiting.delete(go);
      signal?.removeEventListener('abort', stop);
    };
    const go = () => { leave(); resolve(); };
    const stop = () => { leave(); reject(aborted()); };
    signal?.addEventListener('abort', stop, { once: true });
    for (const load of on) load.waiting.add(go);
  });
}
