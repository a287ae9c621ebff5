import { sha256HexAsync } from '../../api/image-data';

/** SHA-256 of an image's bytes, in hex: how a result shown again from the cache finds the history entry that first recorded it. */
export async function sha256OfBlob(blob: Blob): Promise<string> {
  return sha256HexAsync(new Uint8Array(await blob.arrayBuffer()));
}
