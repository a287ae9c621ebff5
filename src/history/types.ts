/**
 * The run history's records: every output a run made, with the node, the
 * parameters and seed that made it, and the workflow as it was run (once per run).
 */
import type { ApiCallRecord } from '../../workers/events';

/** One run that made at least one output still in the history. */
export interface HistoryRun {
  key: string;
  /** Milliseconds since the epoch. */
  at: number;
  /** The workflow's title when it ran. */
  title: string;
  /** The workflow as it was run, with the seeds it used pinned: the file's text (serializeWorkflow). */
  workflow: string;
}

interface EntryBase {
  /** Assigned by the store; increasing, so newer entries have larger ids. */
  id?: number;
  runKey: string;
  at: number;
  nodeId: string;
  nodeType: string;
  /** The node's title (or its type's) when it ran. */
  nodeLabel: string;
  /** The node type's version, for the manifest. */
  typeVersion?: number;
  /** The node's parameters as they were, with image data and very long text shortened. */
  params: Record<string, unknown>;
  /** The requests the node sent (image data already elided by the executor). */
  calls: ApiCallRecord[];
}

export interface ImageEntry extends EntryBase {
  kind: 'image';
  image: Blob;
  /** A small JPEG for the list; the image itself when one could not be made. */
  thumb: Blob;
  mime: string;
  width?: number;
  height?: number;
  seed?: number;
  /** The server of a pool that made it, by its label (never its address). */
  madeOn?: string;
  /** Of the image's bytes (hex): finds the request that made a cached result shown again. */
  sha256: string;
  /** Position among the node's images, and how many it made. */
  index: number;
  count: number;
}

export interface TextEntry extends EntryBase {
  kind: 'text';
  /** The output's name (`text`, `shown`). */
  port: string;
  text: string;
}

export type HistoryEntry = ImageEntry | TextEntry;

export interface HistoryStats {
  entries: number;
  /** What the entries and their runs' workflows take, about. */
  bytes: number;
  maxBytes: number;
  /** False when IndexedDB would not open and the history lasts for this page only. */
  persistent: boolean;
}

export interface HistoryStore {
  /** Adds entries made by `run` (saving the run, or replacing its earlier record), then evicts the oldest entries past the cap. */
  add(run: HistoryRun, entries: readonly HistoryEntry[]): Promise<void>;
  /** The newest entries first, at most `limit`, older than the entry `before` (an id) when given. */
  list(limit: number, before?: number): Promise<HistoryEntry[]>;
  /** The workflow text of a run still in the history. */
  workflow(runKey: string): Promise<HistoryRun | undefined>;
  /** The newest image entry with these bytes (sha256 hex). */
  findImage(sha256: string): Promise<ImageEntry | undefined>;
  stats(): Promise<HistoryStats>;
  clear(): Promise<void>;
  /** Called after every change, from this page or another tab. */
  subscribe(listener: () => void): () => void;
}

/** About 500 MB of outputs, oldest evicted first. */
export const DEFAULT_HISTORY_BYTES = 500 * 1024 * 1024;

/** What an entry takes: its image and thumbnail, its text, its parameters and requests. */
export function entryBytes(entry: HistoryEntry): number {
  const meta = JSON.stringify({ params: entry.params, calls: entry.calls }).length;
  return meta + (entry.kind === 'image' ? entry.image.size + (entry.thumb === entry.image ? 0 : entry.thumb.size) : entry.text.length * 2);
}

/** What a run's record takes (its workflow text). */
export function runBytes(run: HistoryRun): number {
  return run.workflow.length * 2 + run.title.length * 2;
}
