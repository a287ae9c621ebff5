/**
 * The trip from the worker to the page: images leave as bytes in an
 * ArrayBuffer decoded from base64 once and transferred, not as base64 strings or copies. Every
 * other event passes unchanged.
 */
import type { ImageData, Value } from '../nodes/types';
import { base64ToBytes } from '../api/image-data';
import type { ExecutorEvent, NodeOutputs } from './events';
import { keyedRecord } from '../workflow/keys';

export { base64ToBytes };

/** An image as the page receives it: bytes to wrap in a Blob and show through an object URL. */
export interface UiImage {
  bytes: ArrayBuffer;
  mime: string;
  seed?: number;
  width?: number;
  height?: number;
  /** The pool server that made it, by label. */
  madeOn?: string;
  /** Why `bytes` is empty: the node's output was not valid base64. */
  invalid?: string;
}

export type UiValue =
  | Extract<Value, { kind: 'text' | 'number' | 'texts' }>
  | { kind: 'image'; value: UiImage }
  | { kind: 'images'; value: UiImage[] };

type DoneEvent = Extract<ExecutorEvent, { type: 'node-done' | 'node-item-done' }>;

/**
 * An executor event as the page receives it: node-done and node-item-done carry UiValues. The
 * node-done of a node that ran once per item carries no outputs: the page has had each item's
 * (node-item-done) and puts them together, so no image crosses twice.
 */
export type UiEvent =
  | Exclude<ExecutorEvent, DoneEvent>
  | (Omit<Extract<DoneEvent, { type: 'node-done' }>, 'outputs'> & { outputs: Record<string, UiValue> })
  | (Omit<Extract<DoneEvent, { type: 'node-item-done' }>, 'outputs'> & { outputs: Record<string, UiValue> });

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
 * Outputs as the page should get them, their image bytes added to `transfer`. An image that
 * appears twice (as `image` and in `images`) is decoded once and sent once.
 */
export function toUiOutputs(outputs: NodeOutputs, transfer: ArrayBuffer[], seen = new Map<ImageData, UiImage>()): Record<string, UiValue> {
  const ui = keyedRecord<UiValue>();
  for (const [name, value] of Object.entries(outputs)) {
    if (value.kind === 'image') ui[name] = { kind: 'image', value: toUiImage(value.value, seen, transfer) };
    else if (value.kind === 'images') ui[name] = { kind: 'images', value: value.value.map((img) => toUiImage(img, seen, transfer)) };
    else ui[name] = value;
  }
  return ui;
}

/** The event as the page should get it, and the buffers to transfer with it. */
export function toUiEvent(event: ExecutorEvent): { event: UiEvent; transfer: ArrayBuffer[] } {
  if (event.type !== 'node-done' && event.type !== 'node-item-done') return { event, transfer: [] };
  if (event.type === 'node-done' && event.items !== undefined) return { event: { ...event, outputs: {} }, transfer: [] };
  const transfer: ArrayBuffer[] = [];
  return { event: { ...event, outputs: toUiOutputs(event.outputs, transfer) }, transfer };
}
