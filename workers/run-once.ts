/**
 * One call of a node's `run`: the whole node, or one item of a node that runs once per item. It
 * waits for a slot of the run's concurrency, converts the inputs and lays param ports over the
 * parameters (prepare.ts), serves the cache where allowed, otherwise calls `run` with a context
 * of its own, and stores the result under its content key. Events during the call (progress,
 * streamed text, requests, retries) name the item; how it ended is the caller's to report.
 */
import { ParamIssuesError } from '../nodes/errors';
import type { RunContext, Value } from '../nodes/types';
import type { CacheStore } from './cache';
import { NodeRunError, redactSecrets, toNodeError, type ExecutorEvent, type FanOutCounts, type NodeError, type NodeOutputs } from './events';
import { nodeApi } from './node-api';
import { describeProblems } from './params';
import type { AssetResolver } from './assets';
import type { PlannedNode } from './plan';
import { prepareRun } from './prepare';
import type { Slots } from './slots';
import { countChatUsage, countImages, emptyUsage, type ApiUsage } from '../api/usage';

/** What a node run needs from the executor. */
export interface NodeEnv {
  runId: string;
  /** The run's signal: aborting it cancels this node. */
  signal: AbortSignal;
  api: RunContext['api'];
  settings: RunContext['settings'];
  cache: CacheStore;
  /** Turns image references in parameters into base64 just before a call. */
  assets: AssetResolver;
  /** Part of every cache key besides the node's own: settings and which service answers. */
  cacheContext: unknown;
  /** The run's concurrency: each call of a node's `run` holds one slot. */
  slots: Slots;
  /** Strings to redact from error messages (the token). */
  secrets: readonly string[];
  now(): number;
  /** A fresh seed for a node whose seed is random. */
  randomSeed(): number;
  emit(event: ExecutorEvent): void;
  warn(message: string): void;
}

/** How one call ended; `apiCalls` counts the requests it made and `usage` what they used, whatever the ending. */
export type CallOutcome = { apiCalls: number; usage: ApiUsage } & (
  | { status: 'done'; outputs: NodeOutputs; cached: boolean; apiCallsSaved: number; usageSaved?: ApiUsage; notes?: string[] }
  | { status: 'failed'; error: NodeError }
  | { status: 'cancelled' }
);

/**
 * How a node ended, once or once per item (then `fanOut` counts the items). `skipped`: it ran
 * zero times (an empty list), and what it feeds is skipped too.
 */
export type NodeOutcome =
  | (CallOutcome & { fanOut?: Omit<FanOutCounts, 'nodes'> })
  | { status: 'skipped'; because: string; reason: string; apiCalls: number; usage: ApiUsage };

export interface CallHooks {
  /** The cache answered, saving `apiCallsSaved` requests. */
  cached?(apiCallsSaved: number): void;
  /** No cached result applies: `run` is about to be called. */
  started(): void;
}

/** Settles as soon as `signal` aborts, whether or not the node honours the signal itself. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    // Abandoned: its own rejection (usually the same abort) has no one left to hear it.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
      (e: unknown) => { signal.removeEventListener('abort', onAbort); reject(e as Error); },
    );
  });
}

/**
 * A result's notes (a chat answer cut at max_tokens), for its done event, and each said in the
 * run's warnings too, so the run summary, the CLI's closing lines and the manifest carry them.
 */
function noted(notes: readonly string[], where: string, env: NodeEnv): { notes?: string[] } {
  for (const note of notes) env.warn(`${where}: ${note}`);
  return notes.length > 0 ? { notes: [...notes] } : {};
}

const KINDS: readonly string[] = ['text', 'number', 'image', 'images', 'texts'];

/**
 * Declared outputs must have their declared kind. A node may also hand back values it does not
 * offer as ports (Preview returns what it shows): they are reported, never wired.
 */
function checkOutputs(node: PlannedNode, outputs: unknown): NodeOutputs {
  if (typeof outputs !== 'object' || outputs === null) throw new NodeRunError(`returned ${String(outputs)} instead of its outputs`);
  const result = outputs as NodeOutputs;
  for (const [name, value] of Object.entries(result)) {
    const kind = (value as { kind?: unknown } | undefined)?.kind;
    const spec = node.outputs.find((p) => p.name === name);
    if (spec ? kind !== spec.kind : !KINDS.includes(kind as string)) {
      const expected = spec ? spec.kind : 'a value (text, number, image or a list)';
      throw new NodeRunError(`output '${name}' should be ${expected} but is ${typeof kind === 'string' ? kind : 'not a value'}`, { port: name });
    }
  }
  return result;
}

/**
 * Runs the node once with `values` (its inputs as they arrived, or one item's) and reports what
 * happens during the call, naming `item` when given; never throws.
 */
export async function runOnce(node: PlannedNode, values: Readonly<Record<string, Value>>, env: NodeEnv, item: number | undefined, hooks: CallHooks): Promise<CallOutcome> {
  const { runId } = env;
  const nodeId = node.id;
  const tag = item === undefined ? {} : { item };
  let apiCalls = 0;
  const usage = emptyUsage();
  const release = await env.slots.acquire();
  if (release === undefined) return { status: 'cancelled', apiCalls, usage };
  // One signal per call: aborted when the run is, and when the call ends. AbortSignal.any adds
  // no listener to the run's signal, which many calls at once would otherwise pile up.
  const controller = new AbortController();
  const signal = AbortSignal.any([env.signal, controller.signal]);
  let live = true;
  const where = item === undefined ? `node '${nodeId}'` : `node '${nodeId}' item ${item + 1}`;

  try {
    const { inputs, params, key } = await prepareRun(node, values, env.cacheContext);
    if (key !== undefined && node.reuseCached) {
      const hit = await env.cache.get(key).catch((error: unknown) => {
        env.warn(`${where}: reading the cache failed (${toNodeError(error, env.secrets).message}); running it instead`);
        return undefined;
      });
      if (env.signal.aborted) return { status: 'cancelled', apiCalls, usage };
      if (hit) {
        hooks.cached?.(hit.apiCalls);
        const saved = hit.usage === undefined ? {} : { usageSaved: hit.usage };
        return { status: 'done', outputs: hit.outputs, cached: true, apiCalls: 0, usage, apiCallsSaved: hit.apiCalls, ...saved, ...noted(hit.notes ?? [], where, env) };
      }
    }
    if (env.signal.aborted) return { status: 'cancelled', apiCalls, usage };

    hooks.started();
    const notes: string[] = [];
    const ctx: RunContext = {
      signal,
      api: nodeApi(env.api, signal, {
        onCall(call) {
          apiCalls++;
          if (call.api === 'image') usage.imageCalls++;
          else usage.chatCalls++;
          if (live) env.emit({ type: 'node-request', runId, nodeId, ...tag, call });
        },
        onImages: (count, sampler, cost, billedSeconds) => countImages(usage, count, sampler, cost, billedSeconds),
        onChatEnd: (reported, text) => countChatUsage(usage, reported, text),
        onWarning: (message) => env.warn(`${where}: ${redactSecrets(message, env.secrets)}`),
        onNote(note) {
          if (live && !notes.includes(note)) notes.push(note);
        },
        onRetry(notice) {
          if (!live) return;
          const reason = redactSecrets(notice.error.detail, env.secrets);
          env.emit({ type: 'node-retry', runId, nodeId, ...tag, attempt: notice.attempt, maxAttempts: notice.maxAttempts, delayMs: notice.delayMs, reason });
        },
      }),
      settings: env.settings,
      progress(fraction, message) {
        if (!live || !Number.isFinite(fraction)) return;
        const f = Math.min(1, Math.max(0, fraction));
        env.emit(message === undefined
          ? { type: 'node-progress', runId, nodeId, ...tag, fraction: f }
          : { type: 'node-progress', runId, nodeId, ...tag, fraction: f, message });
      },
      partialText(delta) {
        if (live && delta !== '') env.emit({ type: 'node-partial-text', runId, nodeId, ...tag, delta });
      },
      randomSeed: () => env.randomSeed(),
    };
    const withImages = await env.assets.resolve(params);
    const outputs = checkOutputs(node, await abortable(node.def.run({ params: withImages, inputs, ctx }), signal));
    live = false;
    if (key !== undefined) {
      await env.cache.set(key, { outputs, apiCalls, usage: structuredClone(usage), at: Date.now(), ...(notes.length > 0 ? { notes } : {}) }).catch((error: unknown) => {
        env.warn(`${where}: storing its result in the cache failed (${toNodeError(error, env.secrets).message})`);
      });
    }
    return { status: 'done', outputs, cached: false, apiCalls, usage, apiCallsSaved: 0, ...noted(notes, where, env) };
  } catch (error) {
    live = false;
    if (env.signal.aborted) return { status: 'cancelled', apiCalls, usage };
    const nodeError = toNodeError(error, env.secrets);
    // A node names its parameters as the file keys them; the person knows them by their labels.
    if (error instanceof ParamIssuesError) {
      nodeError.message = redactSecrets(describeProblems(error.issues.map((i) => ({ field: i.param, message: i.message })), node.def), env.secrets);
    }
    return { status: 'failed', error: nodeError, apiCalls, usage };
  } finally {
    live = false;
    // Requests the node started but did not wait for end with it.
    controller.abort();
    release();
  }
}
