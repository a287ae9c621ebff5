/**
 * The run's concurrency cap as a pool of slots: every call of a node's `run` (a node, or one item
 * of a node that runs once per item) holds one while it works. One pool for both, so a fan-out
 * of 64 items and the other branches of the graph share the person's "nodes running at once"
 * exactly, and a node waiting on its items never holds a slot its items need. Waiters are served
 * first come, first served. The pool listens to the run's signal once (not once per waiter, which
 * a 64-item fan-out would make 64 listeners): when it aborts, every waiter is let go at once.
 */

export interface Slots {
  /**
   * Resolves with the function that gives the slot back once one is free, or with undefined
   * when the run's signal aborts first (nothing is held then).
   */
  acquire(): Promise<(() => void) | undefined>;
}

export function createSlots(limit: number, signal: AbortSignal): Slots {
  // A setting gone wrong (NaN, 0) still runs one at a time rather than nothing at all.
  const size = Number.isNaN(limit) ? 1 : Math.max(1, Math.floor(limit));
  let used = 0;
  const waiting: ((release: (() => void) | undefined) => void)[] = [];

  const holder = () => {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      used--;
      const next = waiting.shift();
      if (next) {
        used++;
        next(holder());
      }
    };
  };

  signal.addEventListener('abort', () => {
    for (const waiter of waiting.splice(0)) waiter(undefined);
  }, { once: true });

  return {
    acquire() {
      if (signal.aborted) return Promise.resolve(undefined);
      if (used < size) {
        used++;
        return Promise.resolve(holder());
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}
