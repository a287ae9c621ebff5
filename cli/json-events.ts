/**
 * `--json`: the executor's events as JSON lines, exactly as emitted except that image data is
 * replaced by its size (and the file it was written to), so a line stays short and greppable.
 */
import type { ImageData, Value } from '../nodes/types';
import { base64ByteSize } from '../nodes/values';
import type { ExecutorEvent, NodeOutputs } from '../workers/events';
import { keyedRecord, ownValue } from '../workflow/keys';
import type { PortFiles } from './outputs';

export interface ImageSummary {
  mime: string;
  bytes: number;
  width?: number;
  height?: number;
  seed?: number;
  file?: string;
}

function summariseImage(image: ImageData, file: string | undefined): ImageSummary {
  const { b64, ...rest } = image;
  return { ...rest, bytes: base64ByteSize(b64), ...(file === undefined ? {} : { file }) };
}

function summariseValue(value: Value, files: PortFiles | undefined): unknown {
  switch (value.kind) {
    case 'image':
      return { kind: 'image', value: summariseImage(value.value, files?.files[0]) };
    case 'images':
      return { kind: 'images', value: value.value.map((image, i) => summariseImage(image, files?.files[i])) };
    case 'texts':
      return files === undefined ? value : { ...value, files: files.files };
    default:
      return files === undefined ? value : { ...value, file: files.files[0] };
  }
}

function summariseOutputs(outputs: NodeOutputs, files: Record<string, PortFiles> | undefined): Record<string, unknown> {
  const out = keyedRecord<unknown>();
  for (const [port, value] of Object.entries(outputs)) out[port] = summariseValue(value, ownValue(files, port));
  return out;
}

/**
 * One event as a JSON line (with its newline); `files` names where the outputs of a node-done or
 * a node-item-done went. Events about one item of a fan-out carry its 0-based `item`.
 */
export function eventLine(event: ExecutorEvent, files?: Record<string, PortFiles>): string {
  const shown = event.type === 'node-done' || event.type === 'node-item-done' ? { ...event, outputs: summariseOutputs(event.outputs, files) } : event;
  return `${JSON.stringify(shown)}\n`;
}
