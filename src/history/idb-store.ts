/**
 * The run history in IndexedDB, so it survives a reload: images as Blobs (the browser keeps them
 * on disk, a list reads handles, not bytes), bounded by total size with the oldest entries evicted
 * first and a run's workflow removed with its last entry. The running total lives in its own
 * record, updated in the same transaction as the change, so tabs sharing the database agree; a
 * BroadcastChannel tells the other tabs to refresh their list. Where IndexedDB will not open,
 * `fallback` (memory) takes over and the stats say so.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { DEFAULT_HISTORY_BYTES, entryBytes, runBytes, type HistoryEntry, type HistoryRun, type HistoryStore, type ImageEntry } from './types';

export const HISTORY_DB_NAME = 'atelier-history';
const DB_VERSION = 1;
const TOTALS = 'all';

interface StoredRun extends HistoryRun {
  /** Entries of this run still in the history. */
  entries: number;
}

interface Totals {
  bytes: number;
  entries: number;
}

interface HistoryDb extends DBSchema {
  runs: { key: string; value: StoredRun };
  entries: { key: number; value: HistoryEntry & { bytes: number }; indexes: { 'by-sha': string } };
  totals: { key: string; value: Totals };
}

export interface IdbHistoryOptions {
  name?: string;
  maxBytes?: number;
  fallback: HistoryStore;
}

export function createIdbHistory(options: IdbHistoryOptions): HistoryStore {
  const name = options.name ?? HISTORY_DB_NAME;
  const maxBytes = options.maxBytes ?? DEFAULT_HISTORY_BYTES;
  const listeners = new Set<() => void>();
  const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name);
  const changed = (tellOthers: boolean) => {
    if (tellOthers) channel?.postMessage('changed');
    for (const listener of [...listeners]) listener();
  };
  channel?.addEventListener('message', () => changed(false));

  let opening: Promise<IDBPDatabase<HistoryDb> | undefined> | undefined;
  const open = () => {
    // `indexedDB.open` may throw rather than fail its request (a refusing private window).
    opening ??= new Promise<IDBPDatabase<HistoryDb>>((resolve) => resolve(openDB<HistoryDb>(name, DB_VERSION, {
      upgrade(db) {
        db.createObjectStore('runs', { keyPath: 'key' });
        db.createObjectStore('entries', { keyPath: 'id', autoIncrement: true }).createIndex('by-sha', 'sha256');
        db.createObjectStore('totals');
      },
    }))).catch(() => undefined);
    return opening;
  };
  /** The database, or the fallback when it will not open. */
  const withDb = async <T>(onDb: (db: IDBPDatabase<HistoryDb>) => Promise<T>, onFallback: (store: HistoryStore) => Promise<T>): Promise<T> => {
    const db = await open();
    return db ? onDb(db) : onFallback(options.fallback);
  };
  options.fallback.subscribe(() => changed(false));

  return {
    add: (run, added) => withDb(async (db) => {
      if (added.length === 0) return;
      const tx = db.transaction(['runs', 'entries', 'totals'], 'readwrite');
      const runs = tx.objectStore('runs');
      const entries = tx.objectStore('entries');
      const totalsStore = tx.objectStore('totals');
      const totals = (await totalsStore.get(TOTALS)) ?? { bytes: 0, entries: 0 };
      const stored = await runs.get(run.key);
      // The latest record of a run wins: its workflow holds every seed pinned so far.
      totals.bytes += runBytes(run) - (stored ? runBytes(stored) : 0);
      await runs.put({ ...run, entries: (stored?.entries ?? 0) + added.length });
      for (const entry of added) {
        const bytes = entryBytes(entry);
        const fresh: HistoryEntry & { bytes: number } = { ...entry, bytes };
        // The store numbers entries itself.
        delete fresh.id;
        await entries.add(fresh);
        totals.bytes += bytes;
        totals.entries++;
      }
      // Oldest first: ids increase with time.
      let cursor = await entries.openCursor();
      while (cursor && totals.bytes > maxBytes) {
        const gone = cursor.value;
        await cursor.delete();
        totals.bytes -= gone.bytes;
        totals.entries--;
        const owner = await runs.get(gone.runKey);
        if (owner && owner.entries <= 1) {
          await runs.delete(owner.key);
          totals.bytes -= runBytes(owner);
        } else if (owner) {
          await runs.put({ ...owner, entries: owner.entries - 1 });
        }
        cursor = await cursor.continue();
      }
      await totalsStore.put({ bytes: Math.max(0, totals.bytes), entries: Math.max(0, totals.entries) }, TOTALS);
      await tx.done;
      changed(true);
    }, (store) => store.add(run, added)),

    list: (limit, before) => withDb(async (db) => {
      const range = before === undefined ? null : IDBKeyRange.upperBound(before, true);
      const out: HistoryEntry[] = [];
      let cursor = await db.transaction('entries').store.openCursor(range, 'prev');
      while (cursor && out.length < limit) {
        const entry: HistoryEntry & { bytes?: number } = { ...cursor.value };
        delete entry.bytes;
        out.push(entry);
        cursor = await cursor.continue();
      }
      return out;
    }, (store) => store.list(limit, before)),

    workflow: (runKey) => withDb(async (db) => {
      const run = await db.get('runs', runKey);
      if (!run) return undefined;
      return { key: run.key, at: run.at, title: run.title, workflow: run.workflow };
    }, (store) => store.workflow(runKey)),

    findImage: (sha256) => withDb(async (db) => {
      let cursor = await db.transaction('entries').store.index('by-sha').openCursor(IDBKeyRange.only(sha256), 'prev');
      while (cursor) {
        if (cursor.value.kind === 'image') return cursor.value as ImageEntry;
        cursor = await cursor.continue();
      }
      return undefined;
    }, (store) => store.findImage(sha256)),

    stats: () => withDb(async (db) => {
      const totals = (await db.get('totals', TOTALS)) ?? { bytes: 0, entries: 0 };
      return { entries: totals.entries, bytes: totals.bytes, maxBytes, persistent: true };
    }, (store) => store.stats()),

    clear: () => withDb(async (db) => {
      const tx = db.transaction(['runs', 'entries', 'totals'], 'readwrite');
      await Promise.all([tx.objectStore('runs').clear(), tx.objectStore('entries').clear(), tx.objectStore('totals').clear(), tx.done]);
      changed(true);
    }, (store) => store.clear()),

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
