/**
 * The asset store: image bytes by content reference (ref.ts), one store that the editor's page
 * and its worker share (idb-store.ts, IndexedDB) and that the CLI and the tests keep in memory
 * (createMemoryAssetStore). Only what runs everywhere is used here: Uint8Array and Blob.
 */
import { LRUCache } from 'lru-cache';
import { assetRefOf, type AssetRef } from './ref';

/** An image's bytes and the mime type its first bytes announced when it was put. */
export interface Asset {
  bytes: Uint8Array<ArrayBuffer>;
  mime: string;
}

export interface AssetStore {
  /**
   * Keeps the bytes and resolves with their reference once anyone sharing the store can read
   * them (the worker included).
   */
  put(bytes: Uint8Array<ArrayBuffer>, mime: string): Promise<AssetRef>;
  /** The bytes behind a reference, or undefined when this store does not hold them. */
  get(ref: AssetRef): Promise<Asset | undefined>;
  /** The bytes when they are at hand in memory, without waiting; undefined otherwise. */
  peek(ref: AssetRef): Asset | undefined;
}

/** 64 MB of recently used images kept in memory in front of slower storage. */
export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * A byte-bounded map of assets, the least recently used out first. An asset larger than the
 * bound is not kept.
 */
export function createAssetMemory(maxBytes = DEFAULT_MEMORY_BYTES): { get(ref: AssetRef): Asset | undefined; set(ref: AssetRef, asset: Asset): void; readonly size: number } {
  return new LRUCache<AssetRef, Asset>({ maxSize: maxBytes, sizeCalculation: (asset) => Math.max(1, asset.bytes.length) });
}

/**
 * A store held in memory only, for the CLI, the server and tests: nothing is evicted, since
 * nothing else holds the bytes.
 */
export function createMemoryAssetStore(): AssetStore {
  const entries = new Map<AssetRef, Asset>();
  const store: AssetStore = {
    put(bytes, mime) {
      const ref = assetRefOf(bytes);
      if (!entries.has(ref)) entries.set(ref, { bytes, mime });
      return Promise.resolve(ref);
    },
    get: (ref) => Promise.resolve(entries.get(ref)),
    peek: (ref) => entries.get(ref),
  };
  return store;
}
