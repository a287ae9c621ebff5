/**
 * Images on their way to the screen: bytes the worker transferred
 * become a Blob and an object URL, never a base64 string in React state. Every URL made here is
 * revoked when the result that holds it is replaced or its node goes away, so a long session of
 * re-runs does not keep every image it ever showed.
 */
import type { UiImage, UiValue } from '../../workers/transfer';
import { keyedRecord } from '../../workflow/keys';

/** An image as the page shows it. */
export interface ShownImage {
  /** An object URL, or '' when the node's output could not be decoded (`invalid` says why). */
  url: string;
  mime: string;
  /** Size of the encoded image in bytes. */
  bytes: number;
  /** The bytes behind `url`: what a download and the run history read (absent when invalid). */
  blob?: Blob;
  seed?: number;
  width?: number;
  height?: number;
  /** The pool server that made it, by label. */
  madeOn?: string;
  invalid?: string;
}

export type ShownValue =
  | { kind: 'text'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'image'; value: ShownImage }
  | { kind: 'images'; value: ShownImage[] }
  | { kind: 'texts'; value: string[] };

/** Where object URLs come from; the browser's URL by default, a counting fake in tests. */
export interface UrlFactory {
  createObjectURL(blob: Blob): string;
  revokeObjectURL(url: string): void;
}

function toShownImage(image: UiImage, urls: UrlFactory, made: Map<ArrayBuffer, ShownImage>): ShownImage {
  // The worker sends one buffer once even when a node offers the same image as `image` and in
  // `images`: one Blob and one URL for it here as well.
  const known = made.get(image.bytes);
  if (known) return known;
  const { bytes, ...meta } = image;
  const shown: ShownImage =
    image.invalid !== undefined || bytes.byteLength === 0
      ? { ...meta, url: '', bytes: 0, invalid: image.invalid ?? 'the node produced an empty image' }
      : shownBlob(meta, new Blob([bytes], { type: image.mime }), urls);
  made.set(image.bytes, shown);
  return shown;
}

function shownBlob(meta: Omit<UiImage, 'bytes'>, blob: Blob, urls: UrlFactory): ShownImage {
  return { ...meta, url: urls.createObjectURL(blob), bytes: blob.size, blob };
}

/** The outputs of a finished node with each image behind a new object URL. */
export function toShownOutputs(outputs: Record<string, UiValue>, urls: UrlFactory): Record<string, ShownValue> {
  const made = new Map<ArrayBuffer, ShownImage>();
  // Port names: a record without a prototype, as the worker made it before it was cloned across.
  const shown = keyedRecord<ShownValue>();
  for (const [name, value] of Object.entries(outputs)) {
    if (value.kind === 'image') shown[name] = { kind: 'image', value: toShownImage(value.value, urls, made) };
    else if (value.kind === 'images') shown[name] = { kind: 'images', value: value.value.map((img) => toShownImage(img, urls, made)) };
    else shown[name] = value;
  }
  return shown;
}

/**
 * The outputs of a node that ran once per item, from the items that have ended so far (in item
 * order, the others left out): a single value becomes a list, lists follow one another. The
 * items' own images are reused, so no URL is made twice.
 */
export function gatherShown(items: readonly (Record<string, ShownValue> | undefined)[]): Record<string, ShownValue> {
  const out = keyedRecord<ShownValue>();
  for (const outputs of items) {
    if (outputs === undefined) continue;
    for (const [name, value] of Object.entries(outputs)) {
      if (value.kind === 'number') continue;
      const isImage = value.kind === 'image' || value.kind === 'images';
      const held = out[name] ?? (isImage ? { kind: 'images', value: [] } : { kind: 'texts', value: [] });
      if (held.kind === 'images' && isImage) held.value.push(...(value.kind === 'image' ? [value.value] : value.value));
      else if (held.kind === 'texts' && !isImage) held.value.push(...(value.kind === 'text' ? [value.value] : value.value));
      out[name] = held;
    }
  }
  return out;
}

/** Every distinct image in a node's outputs, in port order, each once. */
export function imagesOf(outputs: Record<string, ShownValue>): ShownImage[] {
  const seen = new Set<string>();
  const out: ShownImage[] = [];
  const add = (img: ShownImage) => {
    const key = img.url === '' ? `invalid:${out.length}` : img.url;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(img);
  };
  for (const value of Object.values(outputs)) {
    // A node that offers `image` and `images` lists the first image twice: the list wins.
    if (value.kind === 'images') value.value.forEach(add);
  }
  for (const value of Object.values(outputs)) if (value.kind === 'image') add(value.value);
  return out;
}

/** Revokes every object URL held by these outputs. */
export function releaseOutputs(outputs: Record<string, ShownValue>, urls: UrlFactory): void {
  for (const img of imagesOf(outputs)) if (img.url !== '') urls.revokeObjectURL(img.url);
}
