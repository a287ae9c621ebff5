/**
 * Image references in a node's parameters, turned into the base64 a request carries just before
 * the node runs: planning, checks, estimates and cache keys all work on the short reference, and
 * only a run that calls the node reads the bytes. Each image is read from the asset store and
 * encoded once, then kept (by reference, bounded) for the next run.
 */
import { LRUCache } from 'lru-cache';
import { bytesToBase64 } from '../api/image-data';
import { isAssetRef, type AssetRef } from '../assets/ref';
import type { AssetStore } from '../assets/store';
import { NodeRunError } from './events';

/** Base64 of recently used images, 128 M characters at most (about 96 MB of images). */
const MAX_CHARS = 128 * 1024 * 1024;

export interface AssetResolver {
  /** `params` with every image reference replaced by its base64; the same object when it holds none. */
  resolve(params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** A resolver reading from `store`; a reference it cannot find fails the node, naming the field. */
export function createAssetResolver(store: AssetStore, maxChars = MAX_CHARS): AssetResolver {
  // Done encodings, bounded by characters, and reads under way (shared by concurrent nodes).
  const encoded = new LRUCache<AssetRef, string>({ maxSize: maxChars, sizeCalculation: (b64) => Math.max(1, b64.length) });
  const pending = new Map<AssetRef, Promise<string | undefined>>();
  const keep = (ref: AssetRef, b64: string) => void encoded.set(ref, b64);

  function base64Of(ref: AssetRef): Promise<string | undefined> {
    const done = encoded.get(ref);
    if (done !== undefined) return Promise.resolve(done);
    let reading = pending.get(ref);
    if (reading === undefined) {
      reading = store.get(ref).then((asset) => {
        if (asset === undefined) return undefined;
        const b64 = bytesToBase64(asset.bytes);
        keep(ref, b64);
        return b64;
      }).finally(() => pending.delete(ref));
      pending.set(ref, reading);
    }
    return reading;
  }

  return {
    async resolve(params) {
      let out: Record<string, unknown> | undefined;
      for (const [name, value] of Object.entries(params)) {
        if (typeof value !== 'object' || value === null) continue;
        const ref = (value as { b64?: unknown }).b64;
        if (!isAssetRef(ref)) continue;
        const b64 = await base64Of(ref);
        if (b64 === undefined) {
          throw new NodeRunError(`its image (field '${name}') is not in this browser's storage any more: choose or paint it again`, { field: name });
        }
        out ??= { ...params };
        out[name] = { ...value, b64 };
      }
      return out ?? params;
    },
  };
}
