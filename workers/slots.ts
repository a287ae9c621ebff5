/**
 * The run's concurrency cap as a pool of slots: every call of a node's `run` (a node, or one item
 * of a node that runs once per item) holds one while it works. One pool for both, so a fan-out
 * of 64 items and the other branches of the graph share the person's "nodes running at once"
 * exactly, and a node waiting on its items never holds a slot its items need. Waiters are served
 * first come, first served; one whose signal aborts leaves the queue at once.
 */

export interface Slots {
  /**
   * Resolves with the function that gives the slot back once one is free, or with undefined
   * when `signal` aborts first (nothing is held then).
   */
  acquire(signal: AbortSignal): Promise<(() => void) | undefined>;
}

export function createSlots(limit: number): Slots {
  // A setting gone wrong (NaN, 0) still runs one at a time rather than nothing at all.
  const size = Number.isNaN(limit) ? 1 : Math.max(1, Math.floor(limit));
  let used = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    used--;
    waiting.shift()?.();
  };

  const holder = () => {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      release();
    };
  };

  return {
    acquire(signal) {
      if (signal.aborted) return Promise.resolve(undefined);
      if (used < size) {
        used++;
        return Promise.resolve(holder());
      }
      return new Promise((resolve) => {
        const take = () => {
          signal.removeEventListener('abort', onAbort);
          used++;
          resolve(holder());
        };
        const onAbort = () => {
          const at = waiting.indexOf(take);
          if (at >= 0) waiting.splice(at, 1);
          resolve(undefined);
        };
        waiting.push(take);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}
