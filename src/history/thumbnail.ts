/**
 * Small JPEGs for the history list, so a list of a hundred 1024² outputs decodes a hundred small
 * pictures, not a hundred full ones. Made off the main thread's paint path (createImageBitmap
 * resizes while decoding); the image itself stands in where the browser cannot make one.
 */
export const THUMB_SIZE = 160;

/** A thumbnail of `image`; `known` (its size, when the node said) saves decoding it twice. */
export async function makeThumbnail(image: Blob, known: { width?: number; height?: number } = {}, size = THUMB_SIZE): Promise<Blob> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas === 'undefined') return image;
  try {
    let { width: w, height: h } = known;
    if (w === undefined || h === undefined) {
      const probe = await createImageBitmap(image);
      [w, h] = [probe.width, probe.height];
      probe.close();
    }
    const scale = Math.min(1, size / Math.max(w, h));
    if (scale === 1) return image;
    const width = Math.max(1, Math.round(w * scale));
    const height = Math.max(1, Math.round(h * scale));
    const bitmap = await createImageBitmap(image, { resizeWidth: width, resizeHeight: height, resizeQuality: 'medium' });
    const canvas = new OffscreenCanvas(width, height);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
    bitmap.close();
    const thumb = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 });
    return thumb.size < image.size ? thumb : image;
  } catch {
    // An image the browser cannot decode is still kept; the list shows it as it is.
    return image;
  }
}
