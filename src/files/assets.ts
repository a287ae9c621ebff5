/**
 * The page's side of the asset store (assets/): the images the document refers to,
 * in the IndexedDB database the worker reads too. Where IndexedDB is missing, in memory (the
 * worker then cannot read them; runs say which image is missing).
 *
 * The store's code (its IndexedDB layer and the memory in front of it) loads at its first use,
 * not with the editor: a workflow without images never needs it. Until then `peek` has nothing
 * at hand, which its callers already allow for (copying falls back to the asynchronous path).
 */
import { base64ToBytes, bytesToBase64 } from '../../api/image-data';
import { isAssetRef } from '../../assets/ref';
import type { AssetStore } from '../../assets/store';

let loaded: AssetStore | undefined;
let loading: Promise<AssetStore> | undefined;

function backing(): Promise<AssetStore> {
  loading ??= (typeof indexedDB === 'undefined'
    ? import('../../assets/store').then((m) => m.createMemoryAssetStore())
    : import('../../assets/idb-store').then((m) => m.createIdbAssetStore())
  ).then((store) => (loaded = store));
  return loading;
}

export const pageAssets: AssetStore = {
  put: async (bytes, mime) => (await backing()).put(bytes, mime),
  get: async (ref) => (await backing()).get(ref),
  peek: (ref) => loaded?.peek(ref),
};

/**
 * What an image parameter holds for these bytes: their reference once the store has them, or,
 * where IndexedDB refuses to work (some private windows), their base64, as a file holds it.
 */
export async function storeImage(bytes: Uint8Array<ArrayBuffer>, mime: string): Promise<string> {
  try {
    return await pageAssets.put(bytes, mime);
  } catch (error) {
    console.warn('atelier: the image could not be stored in IndexedDB; it is kept in the workflow instead', error);
    return bytesToBase64(bytes);
  }
}

/**
 * The bytes of an image parameter's `b64` field, a reference or base64, as a Blob; rejects when
 * the reference is not in the store or the text is not base64.
 */
export async function imageBlob(source: string, mime: string): Promise<Blob> {
  if (isAssetRef(source)) {
    const asset = await pageAssets.get(source);
    if (asset === undefined) throw new Error('the image is no longer in this browser\'s storage');
    return new Blob([asset.bytes], { type: asset.mime });
  }
  return new Blob([base64ToBytes(source)], { type: mime });
}

/** An object URL for an image parameter's bytes (revoke it when done); never a data: URL in React state. */
export async function imageObjectUrl(source: string, mime: string): Promise<string> {
  return URL.createObjectURL(await imageBlob(source, mime));
}
