/**
 * The manifest.json of a run: what ran, against which services (never a token), how each node
 * ended, how long it took, the seeds it used, the request parameters of each API call (images
 * as digests) and the files it wrote. Built from the executor's events as they arrive, so an
 * interrupted run still gets an accurate one.
 */
import { reportedMoneyText } from '../api/usage';
import type { ImageData } from '../nodes/types';
import type { ExecutorEvent, NodeError, NodeOutputs, RunSummary } from '../workers/events';
import type { WorkflowProblem } from '../workers/validate';
import { keyedRecord } from '../workflow/keys';
import type { Workflow } from '../workflow/schema';
import type { PortFiles } from './outputs';
import type { RecordedCall } from './requests';

export type NodeStatus = 'queued' | 'running' | 'done' | 'bypassed' | 'failed' | 'skipped' | 'cancelled';

export interface NodeRecord {
  type: string;
  title?: string;
  status: NodeStatus;
  /** Served from the cache: no request was made for it in this run. */
  cached: boolean;
  /** Null until the node has ended (or when it never started). */
  durationMs: number | null;
  /** The seed of each image the node made, in order (each distinct seed once). */
  seeds: number[];
  requests: RecordedCall[];
  outputs: Record<string, PortFiles>;
  error?: NodeError;
  /** What someone using the outputs should know: "stopped at max_tokens: 50" (absent when nothing). */
  notes?: string[];
  /** A bypassed node: which of its outputs carried which input on (output port → input port). */
  passedOn?: Record<string, string>;
  /** The failed node that made this one skip. */
  skippedBecause?: string;
  /** A node that ran once per item of a list: how many runs, and how each ended (its files, or why it failed). */
  items?: { count: number; ended: ItemRecord[] };
}

export interface ItemRecord {
  /** 0-based, as in the --json events. */
  item: number;
  status: 'done' | 'failed';
  cached?: boolean;
  outputs?: Record<string, PortFiles>;
  error?: NodeError;
  notes?: string[];
}

export interface Manifest {
  atelier: { version: string };
  runId: string;
  workflow: { title: string; description: string; file: string };
  started: string;
  /** Null until the run has ended. */
  finished: string | null;
  durationMs: number | null;
  status: RunSummary['status'] | 'running' | 'interrupted';
  /** `local` for the in-process local engines, otherwise the base URL's host. */
  endpoints: { image: string; text: string };
  chatModel: string;
  concurrency: number;
  /** Whether the images carry the workflow and their own manifest (false with --no-embed). */
  embedded: boolean;
  scope: { mode: 'all' } | { mode: 'to' | 'from'; node: string };
  overrides: { node: string; param: string; value: unknown }[];
  apiCalls: number;
  /**
   * What the image backends reported the run cost (money, or the GPU seconds of a model billed by
   * the second), in words as the closing line says it; absent when none reported any.
   */
  reported?: { usd: number; imageCallsWithCost: number; billedSeconds: number; text: string };
  nodes: Record<string, NodeRecord>;
  /** Pools the run went to, as last reported: each server by label, never its address. */
  pools?: { pool: string; engines: string[]; servers: { label: string; made: number; down: boolean }[] }[];
  failures: { nodeId: string; error: NodeError }[];
  problems: WorkflowProblem[];
  warnings: string[];
  files: string[];
}

export type ManifestInit = Omit<Manifest, 'started' | 'finished' | 'durationMs' | 'status' | 'apiCalls' | 'nodes' | 'failures' | 'problems' | 'files' | 'workflow'> & {
  workflow: Workflow;
  file: string;
};

/** The seeds of every image in a node's outputs, each once, in order. */
export function seedsOf(outputs: NodeOutputs): number[] {
  const seeds = new Set<number>();
  const add = (image: ImageData) => {
    if (image.seed !== undefined) seeds.add(image.seed);
  };
  for (const value of Object.values(outputs)) {
    if (value.kind === 'image') add(value.value);
    if (value.kind === 'images') value.value.forEach(add);
  }
  return [...seeds];
}

export interface ManifestBuilder {
  readonly manifest: Manifest;
  /** Feed every executor event, in order. */
  onEvent(event: ExecutorEvent): void;
  /** The files a node's outputs went to; with `item`, one item's of a node that runs once per item. */
  setOutputs(nodeId: string, outputs: Record<string, PortFiles>, item?: number): void;
  setRequests(nodeId: string, calls: RecordedCall[]): void;
  /** Closes the manifest: the end time and the run's outcome. */
  finish(finished: Date, outcome: { summary?: RunSummary; interrupted: boolean; files: readonly string[]; warnings: readonly string[] }): Manifest;
}

export function createManifest(init: ManifestInit, started: Date): ManifestBuilder {
  const { workflow } = init;
  const m: Manifest = {
    atelier: init.atelier,
    runId: init.runId,
    workflow: { title: workflow.metadata.title, description: workflow.metadata.description, file: init.file },
    started: started.toISOString(),
    finished: null,
    durationMs: null,
    status: 'running',
    endpoints: init.endpoints,
    chatModel: init.chatModel,
    concurrency: init.concurrency,
    embedded: init.embedded,
    scope: init.scope,
    overrides: init.overrides,
    apiCalls: 0,
    // Keyed by the file's node ids: no prototype, so an id such as 'toString' is only a key.
    nodes: keyedRecord(),
    failures: [],
    problems: [],
    warnings: [...init.warnings],
    files: [],
  };
  const byId = new Map(workflow.nodes.map((n) => [n.id, n]));
  const node = (id: string): NodeRecord => {
    let record = m.nodes[id];
    if (!record) {
      const source = byId.get(id);
      record = {
        type: source?.type ?? 'unknown',
        ...(source?.title === undefined ? {} : { title: source.title }),
        status: 'queued', cached: false, durationMs: null, seeds: [], requests: [], outputs: keyedRecord(),
      };
      m.nodes[id] = record;
    }
    return record;
  };

  return {
    manifest: m,
    onEvent(event) {
      switch (event.type) {
        case 'run-started':
          event.nodeIds.forEach(node);
          break;
        case 'node-started':
          node(event.nodeId).status = 'running';
          break;
        case 'node-done': {
          const record = node(event.nodeId);
          Object.assign(record, { status: 'done', cached: event.cached, durationMs: round(event.durationMs), seeds: seedsOf(event.outputs) });
          if (event.notes !== undefined) record.notes = event.notes;
          break;
        }
        case 'node-failed':
          Object.assign(node(event.nodeId), { status: 'failed', durationMs: round(event.durationMs), error: event.error });
          break;
        case 'node-bypassed': {
          const passedOn: Record<string, string> = keyedRecord();
          for (const [out, from] of Object.entries(event.passed)) passedOn[out] = from;
          Object.assign(node(event.nodeId), { status: 'bypassed', passedOn });
          break;
        }
        case 'node-skipped':
          Object.assign(node(event.nodeId), { status: 'skipped', skippedBecause: event.because });
          break;
        case 'node-cancelled':
          node(event.nodeId).status = 'cancelled';
          break;
        case 'node-fan-out':
          node(event.nodeId).items = { count: event.count, ended: [] };
          break;
        case 'node-item-done':
          node(event.nodeId).items?.ended.push({ item: event.item, status: 'done', cached: event.cached, ...(event.notes === undefined ? {} : { notes: event.notes }) });
          break;
        case 'node-item-failed':
          node(event.nodeId).items?.ended.push({ item: event.item, status: 'failed', error: event.error });
          break;
        case 'pool-status': {
          const pools = (m.pools ??= []);
          const entry = { pool: event.pool, engines: event.engines, servers: event.servers.map(({ label, made, down }) => ({ label, made, down })) };
          const at = pools.findIndex((p) => p.engines.join(',') === event.engines.join(','));
          if (at < 0) pools.push(entry);
          else pools[at] = entry;
          break;
        }
        default:
          break;
      }
    },
    setOutputs(nodeId, outputs, item) {
      const record = node(nodeId);
      if (item === undefined) record.outputs = outputs;
      else {
        const ended = record.items?.ended.find((e) => e.item === item);
        if (ended) ended.outputs = outputs;
      }
    },
    setRequests(nodeId, calls) {
      node(nodeId).requests = calls;
    },
    finish(finished, { summary, interrupted, files, warnings }) {
      m.finished = finished.toISOString();
      m.durationMs = finished.getTime() - started.getTime();
      m.status = interrupted ? 'interrupted' : summary?.status ?? 'running';
      m.apiCalls = Object.values(m.nodes).reduce((n, r) => n + r.requests.length, 0);
      m.failures = summary?.failures ?? Object.entries(m.nodes)
        .filter(([, r]) => r.status === 'failed' && r.error !== undefined)
        .map(([nodeId, r]) => ({ nodeId, error: r.error! }));
      m.problems = summary?.problems ?? [];
      const money = summary === undefined ? undefined : reportedMoneyText(summary.usage);
      if (summary !== undefined && money !== undefined) {
        m.reported = { usd: summary.usage.reportedUsd, imageCallsWithCost: summary.usage.imageCallsWithCost, billedSeconds: summary.usage.billedSeconds, text: money };
      }
      m.warnings = [...m.warnings, ...warnings, ...(summary?.warnings ?? [])];
      m.files = [...files];
      return m;
    },
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
