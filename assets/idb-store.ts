/**
 * The asset store in IndexedDB, shared by every tab of the origin and by the editor's worker:
 * each image once, as a Blob under its SHA-256, with the most recently used bytes kept in memory
 * in front (store.ts). The page puts what people pick, paint or open; the worker reads each
 * image once per reference. Assets are kept as long as the origin's storage is: history entries
 * and autosaves refer to them.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { assetHash, assetRefOf, type AssetRef } from './ref';
import { createAssetMemory, DEFAULT_MEMORY_BYTES, type Asset, type AssetStore } from './store';

export const ASSET_DB_NAME = 'atelier-assets';
const DB_VERSION = 1;

interface StoredAsset {
  blob: Blob;
  mime: string;
}

interface AssetDb extends DBSchema {
  assets: { key: string; value: StoredAsset };
}

export interface IdbAssetStoreOptions {
  name?: string;
  /** Bytes kept in memory in front of the database; 64 MB by default. */
  memoryBytes?: number;
}

export interface IdbAssetStore extends AssetStore {
  /** Closes the connection; the next call opens it again. */
  close(): void;
}

/** An asset store over IndexedDB (the `indexedDB` global of a page or a worker). */
export function createIdbAssetStore(options: IdbAssetStoreOptions = {}): IdbAssetStore {
  const memory = createAssetMemory(options.memoryBytes ?? DEFAULT_MEMORY_BYTES);
  let db: Promise<IDBPDatabase<AssetDb>> | undefined;
  const open = () => {
    db ??= openDB<AssetDb>(options.name ?? ASSET_DB_NAME, DB_VERSION, {
      upgrade(database) {
        database.createObjectStore('assets');
      },
    });
    return db;
  };
  // Reads of one reference in flight at once share one read.
  const reading = new Map<AssetRef, Promise<Asset | undefined>>();

  async function read(ref: AssetRef): Promise<Asset | undefined> {
    const stored = await (await open()).get('assets', assetHash(ref));
    if (stored === undefined) return undefined;
    const asset: Asset = { bytes: new Uint8Array(await stored.blob.arrayBuffer()), mime: stored.mime };
    memory.set(ref, asset);
    return asset;
  }

  return {
    async put(bytes, mime) {
      const ref = assetRefOf(bytes);
      memory.set(ref, { bytes, mime });
      const database = await open();
      const key = assetHash(ref);
      const tx = database.transaction('assets', 'readwrite');
      if ((await tx.store.getKey(key)) === undefined) await tx.store.put({ blob: new Blob([bytes], { type: mime }), mime }, key);
      await tx.done;
      return ref;
    },
    get(ref) {
      const held = memory.get(ref);
      if (held !== undefined) return Promise.resolve(held);
      let pending = reading.get(ref);
      if (pending === undefined) {
        pending = read(ref).finally(() => reading.delete(ref));
        reading.set(ref, pending);
      }
      return pending;
    },
    peek: (ref) => memory.get(ref),
    close() {
      void db?.then((d) => d.close());
      db = undefined;
    },
  };
}
