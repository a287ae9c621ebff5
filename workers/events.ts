/**
 * The one typed stream of events from the executor to whoever runs it: the editor (through the
 * worker), the CLI and the tests. Per node the order is
 * queued → started → (progress | partial-text | request | retry)* → done | failed | cancelled,
 * or queued → cached → done, or queued → bypassed, or queued → skipped, or queued → cancelled.
 */
import type { TranslationNote } from '../api/backends/types';
import type { ServerStatus } from '../api/client-types';
import type { Value } from '../nodes/types';
import type { FanOutMode, SplitInput } from './fan-out';
import type { PlanOptions } from './plan';
import type { ApiUsage } from '../api/usage';
import { redact } from '../api/redact';
import type { WorkflowProblem } from './validate';

/** Values by output name. Read with `ownValue` (workflow/keys.ts): a node's own `{ text }` still answers to 'toString'. */
export type NodeOutputs = Record<string, Value>;

/** Why a node failed, safe to show and to log: never a token. */
export interface NodeError {
  message: string;
  /** The parameter at fault, where known. */
  field?: string;
  /** The input port at fault, where known. */
  port?: string;
  /** The HTTP status the service answered with, where there was one. */
  status?: number;
  /** The API client's error kind (http, network, timeout, protocol…), where it came from there. */
  kind?: string;
  /** In a node that ran once per item: the first item that failed (0-based). */
  item?: number;
}

/** A request a node sent, with image data replaced by a short description. */
export interface ApiCallRecord {
  api: 'image' | 'chat';
  /** `pipeline`: a whole ComfyUI workflow (a pipeline node's), its request the workflow as stored. */
  operation: 'generate' | 'complete' | 'stream' | 'pipeline';
  /** The image engine, for `generate`. */
  engine?: string;
  request: unknown;
  /**
   * Where an image request went, when a backend other than the service's API took it: which one,
   * what it approximated or left out, and the request as it translated it (images elided). Never
   * a credential or an endpoint.
   */
  backend?: { kind: string; label: string; notes: TranslationNote[]; translated: unknown };
}

export interface NodeCounts {
  planned: number;
  /** Ran and succeeded (cached ones not included). */
  done: number;
  cached: number;
  /** Not run: bypassed, their inputs passed on instead. */
  bypassed: number;
  failed: number;
  skipped: number;
  cancelled: number;
}

export interface RunSummary {
  runId: string;
  status: 'succeeded' | 'failed' | 'cancelled' | 'invalid';
  /** Validation problems; the run sent nothing when there are any. */
  problems: WorkflowProblem[];
  failures: { nodeId: string; error: NodeError }[];
  nodes: NodeCounts;
  /** Requests made to the APIs in this run. */
  apiCalls: number;
  /** Requests the cached nodes had made when their results were first computed. */
  apiCallsSaved: number;
  /** What this run's requests used: images, their relative price, chat tokens. */
  usage: ApiUsage;
  /** What the cached nodes' results had used when first made (older entries that did not record it count 0). */
  usageSaved: ApiUsage;
  durationMs: number;
  /** Things that did not stop the run but someone should know (a cache store that failed). */
  warnings: string[];
  /** Present when a node ran once per item: how many such nodes, and their items. */
  fanOut?: FanOutCounts;
}

/** The items of the nodes that ran once per item in a run. */
export interface FanOutCounts {
  nodes: number;
  /** Items run, cached ones included. */
  items: number;
  cachedItems: number;
  failedItems: number;
}

export type ExecutorEvent =
  /** The plan is ready and validated; these nodes will run, in this order (empty when invalid). */
  | { type: 'run-started'; runId: string; mode: PlanOptions['mode']; nodeIds: string[] }
  /** The node is in the plan and waits for its inputs and a free slot. */
  | { type: 'node-queued'; runId: string; nodeId: string }
  /** The node's run began (its inputs are ready and no cached result applies). */
  | { type: 'node-started'; runId: string; nodeId: string }
  /** How far along the node (or its item `item`) is, 0 to 1, with an optional word on what it is doing. */
  | { type: 'node-progress'; runId: string; nodeId: string; item?: number; fraction: number; message?: string }
  /** More text streamed in (chat): `delta` is the new piece only. */
  | { type: 'node-partial-text'; runId: string; nodeId: string; item?: number; delta: string }
  /** The node sent a request to an API (image data elided): for run logs and the CLI manifest. */
  | { type: 'node-request'; runId: string; nodeId: string; item?: number; call: ApiCallRecord }
  /** A request failed in a way worth retrying (`reason`); attempt `attempt` follows in `delayMs`. */
  | { type: 'node-retry'; runId: string; nodeId: string; item?: number; attempt: number; maxAttempts: number; delayMs: number; reason: string }
  /** A list reached an input that takes one value: the node runs `count` times, once per item of `lists` (zipped or crossed). */
  | { type: 'node-fan-out'; runId: string; nodeId: string; count: number; mode: FanOutMode; lists: SplitInput[] }
  /** Item `item` of `count` began running (no cached result applies). */
  | { type: 'node-item-started'; runId: string; nodeId: string; item: number; count: number }
  /** Item `item` of `count` finished, with its own outputs; from the cache or not; `notes` as on node-done. */
  | { type: 'node-item-done'; runId: string; nodeId: string; item: number; count: number; outputs: NodeOutputs; durationMs: number; cached: boolean; apiCalls: number; notes?: string[] }
  /** Item `item` of `count` failed; the other items go on, and the node fails once they end. */
  | { type: 'node-item-failed'; runId: string; nodeId: string; item: number; count: number; error: NodeError; durationMs: number }
  /** The node's result came from the cache; `apiCallsSaved` requests were not made again. */
  | { type: 'node-cached'; runId: string; nodeId: string; apiCallsSaved: number }
  /**
   * The node finished: its outputs, how long it took and whether they came from the cache. After a
   * fan-out, `items` says how many runs it made and the outputs are their lists, in item order.
   * `notes`: what someone using the outputs should know ("stopped at max_tokens: 50"; after a
   * fan-out, each prefixed "item 2: ").
   */
  | { type: 'node-done'; runId: string; nodeId: string; outputs: NodeOutputs; durationMs: number; cached: boolean; apiCalls: number; items?: number; notes?: string[] }
  /** The node failed; the nodes that depend on it will be skipped. */
  | { type: 'node-failed'; runId: string; nodeId: string; error: NodeError; durationMs: number }
  /** The run was cancelled while the node was running or still waiting. */
  | { type: 'node-cancelled'; runId: string; nodeId: string }
  /** Bypassed: not run; each output in `passed` carries that input's value, those in `unavailable` nothing (why). */
  | { type: 'node-bypassed'; runId: string; nodeId: string; passed: Record<string, string>; unavailable: Record<string, string> }
  /** Not run because of `because`, a node upstream that failed or was bypassed with nothing to pass on; `reason` in words. */
  | { type: 'node-skipped'; runId: string; nodeId: string; because: string; reason: string }
  /**
   * How the servers of a pool (several servers as one backend) stand: at the start of the run and
   * at every change while it goes. `pool` is the backend's name, `engines` those it serves; each
   * server by its label, never its address.
   */
  | { type: 'pool-status'; runId: string; pool: string; engines: string[]; servers: ServerStatus[] }
  /** The run is over and every planned node has had its last event. */
  | { type: 'run-finished'; runId: string; summary: RunSummary };

export type ExecutorEventType = ExecutorEvent['type'];

/**
 * Takes the credentials out of an error, warning or retry reason (text a server may have echoed
 * a request into): api/redact.ts. Never applied to outputs, prompts or streamed text.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return redact(text, secrets);
}

/**
 * A thrown value as a NodeError: its message, plus status, kind, field and port where the
 * error carries them (ApiError, a node's ParamIssuesError, the executor's own NodeRunError).
 */
export function toNodeError(error: unknown, secrets: readonly string[]): NodeError {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'the node failed without saying why';
  const out: NodeError = { message: redactSecrets(message || (error as Error).name || 'unknown error', secrets) };
  if (typeof error === 'object' && error !== null) {
    const e = error as Record<string, unknown>;
    if (typeof e.status === 'number') out.status = e.status;
    if (typeof e.kind === 'string') out.kind = e.kind;
    if (typeof e.field === 'string') out.field = e.field;
    if (typeof e.port === 'string') out.port = e.port;
    // ParamIssuesError from a node: the first parameter it names.
    const first = Array.isArray(e.issues) ? (e.issues[0] as { param?: unknown } | undefined) : undefined;
    if (out.field === undefined && typeof first?.param === 'string') out.field = first.param;
  }
  return out;
}

/** An error raised by the executor about one node, naming the parameter or port at fault. */
export class NodeRunError extends Error {
  override readonly name = 'NodeRunError';
  constructor(message: string, readonly where: { field?: string; port?: string } = {}) {
    super(message);
  }

  get field(): string | undefined {
    return this.where.field;
  }

  get port(): string | undefined {
    return this.where.port;
  }
}
