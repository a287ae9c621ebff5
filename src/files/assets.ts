/**
 * The page's side of the asset store (assets/): the images the document refers to,
 * in the IndexedDB database the worker reads too. Where IndexedDB is missing, in memory (the
 * worker then cannot read them; runs say which image is missing).
 */
import { base64ToBytes, bytesToBase64 } from '../../api/image-data';
import { createIdbAssetStore } from '../../assets/idb-store';
import { isAssetRef } from '../../assets/ref';
import { createMemoryAssetStore, type AssetStore } from '../../assets/store';

export const pageAssets: AssetStore = typeof indexedDB === 'undefined' ? createMemoryAssetStore() : createIdbAssetStore();

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
