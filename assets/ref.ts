/**
 * Content references to images. In the document the editor holds, an image parameter's `b64`
 * field carries either the image's base64 (as every saved file does) or a reference to its bytes
 * in the asset store: `asset:sha256:` followed by the SHA-256 of the bytes in 64 lower-case hex
 * digits. The colons keep a reference from ever being mistaken for base64, and the same bytes
 * always give the same reference, so undo, redo and the cache keys stay stable.
 */
import { sha256Hex } from '../api/image-data';

export const ASSET_REF_PREFIX = 'asset:sha256:';
export type AssetRef = `asset:sha256:${string}`;

const REF = /^asset:sha256:[0-9a-f]{64}$/;

/** Whether `value` is an asset reference (not base64). */
export function isAssetRef(value: unknown): value is AssetRef {
  return typeof value === 'string' && value.length === ASSET_REF_PREFIX.length + 64 && REF.test(value);
}

/** The reference of these bytes. */
export function assetRefOf(bytes: Uint8Array): AssetRef {
  return `${ASSET_REF_PREFIX}${sha256Hex(bytes)}`;
}

/** The hex digest a reference names. */
export function assetHash(ref: AssetRef): string {
  return ref.slice(ASSET_REF_PREFIX.length);
}
