/**
 * Images people pick, drop or paste into an Image loader: read as base64 (the file format holds
 * images that way, so the workflow runs anywhere), checked by their bytes, measured.
 */
import { sniffImageFormat } from '../../api/image-data';
import { DEFAULT_LIMITS } from '../../workflow/limits';
import { toast } from '../ui/toast';

export interface LoadedImage {
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

function toBase64(bytes: Uint8Array): string {
  // Chunks keep String.fromCharCode's argument list within engine limits.
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

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
  const image: LoadedImage = { b64: toBase64(bytes), mime: `image/${format}`, name: file.name.slice(0, 500) || `pasted.${format}` };
  try {
    const bitmap = await createImageBitmap(new Blob([bytes], { type: image.mime }));
    image.width = bitmap.width;
    image.height = bitmap.height;
    bitmap.close();
  } catch {
    throw new Error(`'${file.name}' could not be decoded as an image (is it damaged?)`);
  }
  return image;
}

/** An object URL for base64 image bytes (revoke it when done); never a data: URL in React state. */
export function objectUrlFromBase64(b64: string, mime: string): string {
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return URL.createObjectURL(new Blob([bytes], { type: mime }));
}

/** Reads a file and hands it to `set`, reporting a refused file by name. */
export async function putImageFile(file: File, set: (value: LoadedImage) => void): Promise<void> {
  try {
    set(await readImageFile(file));
  } catch (error) {
    toast(error instanceof Error ? error.message : String(error), 'error');
  }
}
