/**
 * The editor's one store pattern for state outside the document (the run's progress, the
 * estimate, the session's totals, settings, dialogs): a zustand store (the one React Flow is built
 * on) holding one immutable value, read in React through useSyncExternalStore. `KeyedStore` is a
 * map of them, one per key, so a change to one node's entry wakes only the components watching
 * that node: a streamed chunk of chat text re-renders one badge, not the canvas.
 */
import { useSyncExternalStore } from 'react';
import { createStore } from 'zustand/vanilla';

export interface SmallStore<T> {
  get(): T;
  /** Replaces the value (or maps it); listeners hear of it only when it changed. */
  set(next: T | ((current: T) => T)): void;
  subscribe(listener: () => void): () => void;
}

export function createSmallStore<T>(initial: T): SmallStore<T> {
  const store = createStore<{ value: T }>()(() => ({ value: initial }));
  return {
    get: () => store.getState().value,
    set(next) {
      const current = store.getState().value;
      const value = typeof next === 'function' ? (next as (current: T) => T)(current) : next;
      if (!Object.is(value, current)) store.setState({ value }, true);
    },
    subscribe: (listener) => store.subscribe(() => listener()),
  };
}

export function useSmallStore<T>(store: SmallStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** Small stores by key: an entry set to undefined is gone. */
export interface KeyedStore<T> {
  get(key: string): T | undefined;
  /** Replaces the entry (undefined removes it) and tells that key's listeners. */
  set(key: string, value: T | undefined): void;
  subscribe(key: string, listener: () => void): () => void;
  keys(): IterableIterator<string>;
}

export function createKeyedStore<T>(): KeyedStore<T> {
  // A key's store lives while it holds a value or someone listens to it.
  const entries = new Map<string, { store: SmallStore<T | undefined>; listening: number }>();
  const drop = (key: string, entry: { store: SmallStore<T | undefined>; listening: number }) => {
    if (entry.listening === 0 && entry.store.get() === undefined && entries.get(key) === entry) entries.delete(key);
  };
  return {
    get: (key) => entries.get(key)?.store.get(),
    set(key, value) {
      let entry = entries.get(key);
      if (!entry) {
        if (value === undefined) return;
        entries.set(key, (entry = { store: createSmallStore<T | undefined>(undefined), listening: 0 }));
      }
      entry.store.set(value);
      drop(key, entry);
    },
    subscribe(key, listener) {
      let entry = entries.get(key);
      if (!entry) entries.set(key, (entry = { store: createSmallStore<T | undefined>(undefined), listening: 0 }));
      const held = entry;
      held.listening++;
      const stop = held.store.subscribe(listener);
      return () => {
        stop();
        held.listening--;
        drop(key, held);
      };
    },
    *keys() {
      for (const [key, entry] of entries) if (entry.store.get() !== undefined) yield key;
    },
  };
}
