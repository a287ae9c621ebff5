/**
 * Where node results are kept between runs. The store is pluggable: the editor's worker keeps
 * them in IndexedDB (idb-cache.ts); the default keeps the most recently used results in memory
 * up to a size.
 */
import { LRUCache } from 'lru-cache';
import type { Value } from '../nodes/types';
import type { NodeOutputs } from './events';
import { isApiUsage, type ApiUsage } from '../api/usage';

/** One cached node result: plain data, so a persistent store can structured-clone it. */
export interface CacheEntry {
  outputs: NodeOutputs;
  /** Requests the node made to compute this result: what a cache hit saves. */
  apiCalls: number;
  /** What those requests used (images, price units, tokens); absent in entries from older builds. */
  usage?: ApiUsage;
  /** When the result was made (ms since the epoch); absent in entries from older builds. */
  at?: number;
  /** What the result's done event says about it ("stopped at max_tokens: 50"); absent when nothing. */
  notes?: string[];
}

export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
}

/** How full a cache is. */
export interface CacheStats {
  entries: number;
  /** Approximate bytes held (entryBytes of each entry). */
  bytes: number;
  /** The bound: adding past it evicts the entries used longest ago. */
  maxBytes: number;
  /** Whether entries survive a reload (IndexedDB) or live only as long as the worker (memory). */
  persistent: boolean;
  /** Why a store meant to persist does not (IndexedDB would not open), when so. */
  notPersistentBecause?: string;
}

/** A cache the user can see and empty (the editor's settings show its size and a Clear button). */
export interface ManagedCache extends CacheStore {
  clear(): Promise<void> | void;
  stats(): Promise<CacheStats>;
}

export interface MemoryCache extends ManagedCache {
  /** Entries held now. */
  readonly size: number;
  /** Approximate bytes held now. */
  readonly bytes: number;
  clear(): void;
}

/** The default bound of the in-memory cache: about thirty 4 MB images. */
export const DEFAULT_CACHE_BYTES = 128 * 1024 * 1024;

function valueBytes(value: Value): number {
  switch (value.kind) {
    case 'text':
      return value.value.length * 2;
    case 'number':
      return 8;
    case 'image':
      // Base64 text is one byte per character in the engines that matter.
      return value.value.b64.length + 64;
    case 'images':
      return value.value.reduce((sum, img) => sum + img.b64.length + 64, 0);
    case 'texts':
      return value.value.reduce((sum, text) => sum + text.length * 2 + 16, 0);
  }
}

function isImage(value: unknown): boolean {
  const image = value as { b64?: unknown; mime?: unknown } | null;
  return typeof image === 'object' && image !== null && typeof image.b64 === 'string' && typeof image.mime === 'string';
}

function isValue(value: unknown): value is Value {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, value: v } = value as { kind?: unknown; value?: unknown };
  switch (kind) {
    case 'text':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number';
    case 'image':
      return isImage(v);
    case 'images':
      return Array.isArray(v) && v.every(isImage);
    case 'texts':
      return Array.isArray(v) && v.every((t) => typeof t === 'string');
    default:
      return false;
  }
}

/**
 * Whether a value read back from a persistent store is a whole, well-formed entry: a damaged or
 * foreign record must be dropped, never handed to a node as its input.
 */
export function isCacheEntry(value: unknown): value is CacheEntry {
  if (typeof value !== 'object' || value === null) return false;
  const { outputs, apiCalls, usage, at } = value as Record<string, unknown>;
  if (typeof apiCalls !== 'number' || !Number.isInteger(apiCalls) || apiCalls < 0) return false;
  if (usage !== undefined && !isApiUsage(usage)) return false;
  if (at !== undefined && (typeof at !== 'number' || !Number.isFinite(at))) return false;
  return typeof outputs === 'object' && outputs !== null && !Array.isArray(outputs) && Object.values(outputs).every(isValue);
}

/** Approximate memory held by an entry, counting the strings that dominate it. */
export function entryBytes(entry: CacheEntry): number {
  let bytes = 64;
  for (const value of Object.values(entry.outputs)) bytes += valueBytes(value) + 32;
  return bytes;
}

/**
 * An in-memory least-recently-used cache bounded by total size: adding past `maxBytes` evicts
 * the entries used longest ago. An entry larger than the whole bound is not kept.
 */
export function createMemoryCache(options: { maxBytes?: number } = {}): MemoryCache {
  const maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
  const entries = new LRUCache<string, CacheEntry>({ maxSize: maxBytes, sizeCalculation: (entry) => entryBytes(entry) });
  return {
    get size() {
      return entries.size;
    },
    get bytes() {
      return entries.calculatedSize;
    },
    clear() {
      entries.clear();
    },
    stats() {
      return Promise.resolve({ entries: entries.size, bytes: entries.calculatedSize, maxBytes, persistent: false });
    },
    get(key) {
      return Promise.resolve(entries.get(key));
    },
    set(key, entry) {
      entries.set(key, entry);
      return Promise.resolve();
    },
  };
}
