/**
 * A map of immutable snapshots with listeners per key, for useSyncExternalStore: a change to
 * one node's entry wakes only the components watching that node, so a streamed chunk of chat
 * text re-renders one badge, not the canvas.
 */
export interface KeyedStore<T> {
  get(key: string): T | undefined;
  /** Replaces the entry (undefined removes it) and tells that key's listeners. */
  set(key: string, value: T | undefined): void;
  subscribe(key: string, listener: () => void): () => void;
  keys(): IterableIterator<string>;
}

export function createKeyedStore<T>(): KeyedStore<T> {
  const values = new Map<string, T>();
  const listeners = new Map<string, Set<() => void>>();

  return {
    get: (key) => values.get(key),
    set(key, value) {
      if (values.get(key) === value) return;
      if (value === undefined) values.delete(key);
      else values.set(key, value);
      const set = listeners.get(key);
      if (set) for (const listener of [...set]) listener();
    },
    subscribe(key, listener) {
      let set = listeners.get(key);
      if (!set) listeners.set(key, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(key) === set) listeners.delete(key);
      };
    },
    keys: () => values.keys(),
  };
}

/** A single snapshot with listeners, for the run as a whole. */
export interface ValueStore<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}

export function createValueStore<T>(initial: T): ValueStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (next === value) return;
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
