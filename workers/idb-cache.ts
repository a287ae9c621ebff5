/**
 * The persistent cache: node results in IndexedDB, keyed by content (hash.ts), so
 * they survive a reload and are shared by every workflow, bounded by total size with the entries
 * used longest ago evicted first. It runs in the editor's web worker; the CLI and the tests
 * without IndexedDB use the in-memory cache.
 *
 * Layout: `entries` holds the results, `meta` a small record per entry (its size and when it was
 * last used, indexed by the latter) so eviction never reads an image, and `totals` the running
 * size, updated in the same transactions so two tabs sharing the database agree on it.
 *
 * Images are kept as the base64 strings they travel as. Blobs would take a quarter less disk but
 * cost a decode on every write and an encode on every hit, and a hit goes straight into the next
 * request as base64 (bench/cache-store.bench.ts has the figures).
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { entryBytes, isCacheEntry, type CacheEntry, type CacheStats, type ManagedCache } from './cache';

export const IDB_CACHE_NAME = 'atelier-cache';
/** Half a gigabyte: about 120 results of a 4 MB image. */
export const DEFAULT_IDB_CACHE_BYTES = 512 * 1024 * 1024;
const DB_VERSION = 1;
const TOTALS = 'all';

interface Meta {
  bytes: number;
  /** When the entry was last written or read: the eviction order. */
  used: number;
}

interface Totals {
  bytes: number;
  entries: number;
}

interface CacheDb extends DBSchema {
  entries: { key: string; value: unknown };
  meta: { key: string; value: Meta; indexes: { 'by-used': number } };
  totals: { key: string; value: Totals };
}

type Stores = ('entries' | 'meta' | 'totals')[];
type WriteTx = IDBPTransaction<CacheDb, Stores, 'readwrite'>;

export interface IdbCacheOptions {
  /** The database's name; one per origin is shared by every tab. */
  name?: string;
  /** The bound on the entries' total size (entryBytes); default 512 MB. */
  maxBytes?: number;
  /** Milliseconds since the epoch, for the least-recently-used order. */
  now?: () => number;
  /**
   * Where results go when IndexedDB will not open (some private windows refuse it). Without one,
   * every call rejects with why.
   */
  fallback?: ManagedCache;
}

export interface IdbCache extends ManagedCache {
  /** Closes the connection; the next call opens it again. */
  close(): void;
}

const isQuotaError = (error: unknown) => error instanceof DOMException && error.name === 'QuotaExceededError';

export function createIdbCache(options: IdbCacheOptions = {}): IdbCache {
  const name = options.name ?? IDB_CACHE_NAME;
  const maxBytes = options.maxBytes ?? DEFAULT_IDB_CACHE_BYTES;
  const now = options.now ?? Date.now;
  let opening: Promise<IDBPDatabase<CacheDb> | undefined> | undefined;
  let unavailable: string | undefined;
  let lastStamp = 0;
  // Strictly increasing within this store, so entries touched in one millisecond keep their order.
  const stamp = () => (lastStamp = Math.max(now(), lastStamp + 1));

  const open = (): Promise<IDBPDatabase<CacheDb> | undefined> => {
    // `indexedDB.open` may throw rather than fail its request (a refusing private window).
    opening ??= new Promise<IDBPDatabase<CacheDb>>((resolve) => resolve(openDB<CacheDb>(name, DB_VERSION, {
      upgrade(db) {
        db.createObjectStore('entries');
        db.createObjectStore('meta').createIndex('by-used', 'used');
        db.createObjectStore('totals');
      },
      // Another tab wants a newer layout: step aside, and open again on the next call.
      blocking() {
        void opening?.then((db) => db?.close());
        opening = undefined;
      },
      terminated() {
        opening = undefined;
      },
    }))).then(async (db) => {
      // Totals that cannot be recounted now are recounted on the next open; the entries are fine.
      await reconcile(db).catch(() => undefined);
      return db;
    }, (error: unknown) => {
      unavailable = `IndexedDB would not open (${error instanceof Error ? error.message : String(error)})`;
      return undefined;
    });
    return opening;
  };

  /** With the database, or the fallback when it will not open. */
  async function withDb<T>(use: (db: IDBPDatabase<CacheDb>) => Promise<T>, instead: (fallback: ManagedCache) => Promise<T>): Promise<T> {
    const db = await open();
    if (db) return use(db);
    if (options.fallback) return instead(options.fallback);
    throw new Error(`the result cache is unavailable: ${unavailable ?? 'IndexedDB would not open'}`);
  }

  const write = (db: IDBPDatabase<CacheDb>): WriteTx => {
    const tx = db.transaction(['entries', 'meta', 'totals'], 'readwrite');
    // A failed request also fails `done`; whoever awaits `done` hears it, nobody else must.
    tx.done.catch(() => undefined);
    return tx;
  };

  /** Runs `body` in one write transaction, all or nothing: a failure aborts what it had done. */
  async function atomically<T>(db: IDBPDatabase<CacheDb>, body: (tx: WriteTx) => Promise<T>): Promise<T> {
    const tx = write(db);
    try {
      const result = await body(tx);
      await tx.done;
      return result;
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // Already aborted or finished: nothing left to undo.
      }
      throw error;
    }
  }

  /** Removes one entry inside `tx`, keeping the totals right. */
  async function drop(tx: WriteTx, key: string, totals: Totals): Promise<void> {
    const meta = await tx.objectStore('meta').get(key);
    if (meta) {
      totals.bytes -= meta.bytes;
      totals.entries--;
    }
    await Promise.all([tx.objectStore('entries').delete(key), tx.objectStore('meta').delete(key)]);
  }

  /** Evicts the entries used longest ago until `room` more bytes fit under `limit`. */
  async function evict(tx: WriteTx, totals: Totals, room: number, limit: number, keep?: string): Promise<void> {
    let cursor = await tx.objectStore('meta').index('by-used').openCursor();
    while (cursor && totals.bytes + room > limit) {
      if (cursor.primaryKey !== keep) {
        totals.bytes -= cursor.value.bytes;
        totals.entries--;
        await Promise.all([tx.objectStore('entries').delete(cursor.primaryKey), cursor.delete()]);
      }
      cursor = await cursor.continue();
    }
  }

  /** Recounts the totals from `meta` on open: they stay right even if an older build left them wrong. */
  function reconcile(db: IDBPDatabase<CacheDb>): Promise<void> {
    return atomically(db, async (tx) => {
      const totals: Totals = { bytes: 0, entries: 0 };
      for (let cursor = await tx.objectStore('meta').openCursor(); cursor; cursor = await cursor.continue()) {
        totals.bytes += cursor.value.bytes;
        totals.entries++;
      }
      await tx.objectStore('totals').put(totals, TOTALS);
    });
  }

  async function readTotals(tx: WriteTx): Promise<Totals> {
    return (await tx.objectStore('totals').get(TOTALS)) ?? { bytes: 0, entries: 0 };
  }

  function put(db: IDBPDatabase<CacheDb>, key: string, entry: CacheEntry, bytes: number, limit: number): Promise<void> {
    return atomically(db, async (tx) => {
      const totals = await readTotals(tx);
      await drop(tx, key, totals);
      if (bytes <= maxBytes) {
        await evict(tx, totals, bytes, limit, key);
        await tx.objectStore('entries').put(entry, key);
        await tx.objectStore('meta').put({ bytes, used: stamp() }, key);
        totals.bytes += bytes;
        totals.entries++;
      }
      await tx.objectStore('totals').put(totals, TOTALS);
    });
  }

  return {
    get(key) {
      return withDb((db) => atomically(db, async (tx) => {
        const [value, meta] = await Promise.all([tx.objectStore('entries').get(key), tx.objectStore('meta').get(key)]);
        if (value === undefined && meta === undefined) return undefined;
        if (isCacheEntry(value) && meta) {
          await tx.objectStore('meta').put({ ...meta, used: stamp() }, key);
          return value;
        }
        // Damaged, half written by something else, or from a layout this build does not read.
        const totals = await readTotals(tx);
        await drop(tx, key, totals);
        await tx.objectStore('totals').put(totals, TOTALS);
        return undefined;
      }), (fallback) => fallback.get(key));
    },

    set(key, entry) {
      return withDb(async (db) => {
        const bytes = entryBytes(entry);
        try {
          await put(db, key, entry, bytes, maxBytes);
        } catch (error) {
          if (!isQuotaError(error)) throw error;
          // The browser's quota is below our bound: make room down to half of what is held, once.
          const held = (await db.get('totals', TOTALS))?.bytes ?? 0;
          await put(db, key, entry, bytes, Math.max(bytes, held / 2));
        }
      }, (fallback) => fallback.set(key, entry));
    },

    clear() {
      return withDb((db) => atomically(db, async (tx) => {
        await Promise.all([tx.objectStore('entries').clear(), tx.objectStore('meta').clear(), tx.objectStore('totals').clear()]);
      }), async (fallback) => fallback.clear());
    },

    stats() {
      return withDb<CacheStats>(async (db) => {
        const totals = (await db.get('totals', TOTALS)) ?? { bytes: 0, entries: 0 };
        return { entries: totals.entries, bytes: totals.bytes, maxBytes, persistent: true };
      }, async (fallback) => ({ ...(await fallback.stats()), persistent: false, notPersistentBecause: unavailable }));
    },

    close() {
      void opening?.then((db) => db?.close());
      opening = undefined;
    },
  };
}
