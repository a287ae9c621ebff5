/** Images by reference: the asset store page and worker share, and the way in and out of files. */
export { ASSET_REF_PREFIX, assetHash, assetRefOf, isAssetRef, type AssetRef } from './ref';
export { createAssetMemory, createMemoryAssetStore, DEFAULT_MEMORY_BYTES, type Asset, type AssetStore } from './store';
export { hasAssetRefs, inlineImages, inlineImagesNow, internalizeImages, MissingAssetError } from './inline';
