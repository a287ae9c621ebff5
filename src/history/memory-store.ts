/** The run history kept in memory: where IndexedDB will not open, and in tests. Same rules as the IndexedDB store. */
import { DEFAULT_HISTORY_BYTES, entryBytes, runBytes, type HistoryEntry, type HistoryRun, type HistoryStore, type ImageEntry } from './types';

export function createMemoryHistory(options: { maxBytes?: number; persistent?: boolean } = {}): HistoryStore {
  const maxBytes = options.maxBytes ?? DEFAULT_HISTORY_BYTES;
  const runs = new Map<string, HistoryRun>();
  let entries: HistoryEntry[] = [];
  let nextId = 1;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  const total = () => entries.reduce((n, e) => n + entryBytes(e), 0) + [...runs.values()].reduce((n, r) => n + runBytes(r), 0);

  return {
    add(run, added) {
      if (added.length === 0) return Promise.resolve();
      // The latest record of a run wins: its workflow holds every seed pinned so far.
      runs.set(run.key, run);
      for (const entry of added) entries.push({ ...entry, id: nextId++ });
      while (entries.length > 0 && total() > maxBytes) {
        const gone = entries.shift()!;
        if (!entries.some((e) => e.runKey === gone.runKey)) runs.delete(gone.runKey);
      }
      changed();
      return Promise.resolve();
    },
    list(limit, before) {
      const older = before === undefined ? entries : entries.filter((e) => e.id! < before);
      return Promise.resolve(older.slice(-limit).reverse());
    },
    workflow: (runKey) => Promise.resolve(runs.get(runKey)),
    findImage(sha256) {
      const found = [...entries].reverse().find((e): e is ImageEntry => e.kind === 'image' && e.sha256 === sha256);
      return Promise.resolve(found);
    },
    stats: () => Promise.resolve({ entries: entries.length, bytes: total(), maxBytes, persistent: options.persistent ?? false }),
    clear() {
      entries = [];
      runs.clear();
      changed();
      return Promise.resolve();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
