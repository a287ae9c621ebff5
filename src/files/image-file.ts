/**
 * Images people pick, drop or paste into an Image loader: checked by their bytes, measured (the
 * one decode of the picture on the page), and put into the asset store; the document holds the
 * reference (`asset:sha256:…`), and a saved file the base64 (assets/inline.ts).
 */
import { sniffImageFormat } from '../../api/image-data';
import { storeImage } from './assets';
import { DEFAULT_LIMITS } from '../../workflow/limits';
import { toast } from '../ui/toast';

export interface LoadedImage {
  /** The asset reference of the bytes (base64 in a file). */
  b64: string;
  mime: string;
  name: string;
  width?: number;
  height?: number;
}

const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif']);
/** Base64 is 4/3 of the bytes; the file format bounds any string. */
const MAX_BYTES = Math.floor((DEFAULT_LIMITS.maxStringChars * 3) / 4);

export { IMAGE_ACCEPT, isImageFile } from './image-kind';

/** Reads an image file, or throws an Error saying what is wrong with it (named). */
export async function readImageFile(file: File): Promise<LoadedImage> {
  if (file.size > MAX_BYTES) {
    throw new Error(`'${file.name}' is ${(file.size / 1e6).toFixed(1)} MB; an image in a workflow may be at most ${(MAX_BYTES / 1e6).toFixed(0)} MB`);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const format = sniffImageFormat(bytes);
  if (format === undefined || !ACCEPTED.has(format)) {
    throw new Error(`'${file.name}' is not a JPEG, PNG, WebP or GIF image${format ? ` (it is ${format.toUpperCase()})` : ''}`);
  }
  const mime = `image/${format}`;
  let size: { width: number; height: number };
  try {
    const bitmap = await createImageBitmap(file);
    size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
  } catch {
    throw new Error(`'${file.name}' could not be decoded as an image (is it damaged?)`);
  }
  // Stored before the document refers to it, so the worker finds it.
  const b64 = await storeImage(bytes, mime);
  return { b64, mime, name: file.name.slice(0, 500) || `pasted.${format}`, ...size };
}

/** Reads a file and hands it to `set`, reporting a refused file by name. */
export async function putImageFile(file: File, set: (value: LoadedImage) => void): Promise<void> {
  try {
    set(await readImageFile(file));
  } catch (error) {
    toast(error instanceof Error ? error.message : String(error), 'error');
  }
}
