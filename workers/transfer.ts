/**
 * The trip from the worker to the page: images leave as bytes in an
 * ArrayBuffer decoded from base64 once and transferred, not as base64 strings or copies. Every
 * other event passes unchanged.
 */
import type { ImageData, Value } from '../nodes/types';
import type { ExecutorEvent } from './events';

/** An image as the page receives it: bytes to wrap in a Blob and show through an object URL. */
export interface UiImage {
  bytes: ArrayBuffer;
  mime: string;
  seed?: number;
  width?: number;
  height?: number;
  /** Why `bytes` is empty: the node's output was not valid base64. */
  invalid?: string;
}

export type UiValue =
  | Extract<Value, { kind: 'text' | 'number' }>
  | { kind: 'image'; value: UiImage }
  | { kind: 'images'; value: UiImage[] };

type DoneEvent = Extract<ExecutorEvent, { type: 'node-done' }>;

/** An executor event as the page receives it: node-done carries UiValues. */
export type UiEvent = Exclude<ExecutorEvent, DoneEvent> | (Omit<DoneEvent, 'outputs'> & { outputs: Record<string, UiValue> });

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;
// The URL-safe alphabet decodes to the same bytes.
DECODE['-'.charCodeAt(0)] = 62;
DECODE['_'.charCodeAt(0)] = 63;

/**
 * Decodes base64 (standard or URL-safe, padding optional) straight into bytes, in one pass
 * without building an intermediate binary string as `atob` would.
 */
export function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  let end = b64.length;
  while (end > 0 && b64.charCodeAt(end - 1) === 61 /* = */) end--;
  if (end % 4 === 1) throw new Error(`not valid base64: ${end} characters cannot encode whole bytes`);
  const out = new Uint8Array((end * 3) >> 2);
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const c = b64.charCodeAt(i);
    const v = c < 128 ? DECODE[c]! : -1;
    if (v < 0) throw new Error(`not valid base64: unexpected character at position ${i}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

function toUiImage(image: ImageData, seen: Map<ImageData, UiImage>, transfer: ArrayBuffer[]): UiImage {
  let ui = seen.get(image);
  if (!ui) {
    const { b64, ...meta } = image;
    try {
      const bytes = base64ToBytes(b64).buffer;
      transfer.push(bytes);
      ui = { ...meta, bytes };
    } catch (error) {
      // One bad image must not lose the rest of the event; the page shows why it is missing.
      ui = { ...meta, bytes: new ArrayBuffer(0), invalid: (error as Error).message };
    }
    seen.set(image, ui);
  }
  return ui;
}

/**
 * The event as the page should get it, and the buffers to transfer with it. An image that
 * appears twice in one event (as `image` and in `images`) is decoded once and sent once.
 */
export function toUiEvent(event: ExecutorEvent): { event: UiEvent; transfer: ArrayBuffer[] } {
  if (event.type !== 'node-done') return { event, transfer: [] };
  const transfer: ArrayBuffer[] = [];
  const seen = new Map<ImageData, UiImage>();
  const outputs: Record<string, UiValue> = {};
  for (const [name, value] of Object.entries(event.outputs)) {
    if (value.kind === 'image') outputs[name] = { kind: 'image', value: toUiImage(value.value, seen, transfer) };
    else if (value.kind === 'images') outputs[name] = { kind: 'images', value: value.value.map((img) => toUiImage(img, seen, transfer)) };
    else outputs[name] = value;
  }
  return { event: { ...event, outputs }, transfer };
}
