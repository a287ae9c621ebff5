/**
 * Runs one planned node once its upstream nodes are done: gathers and converts its inputs, lays
 * param ports over its parameters and checks them, serves it from the cache where allowed,
 * otherwise calls its `run` with a context of its own, and reports every step as events.
 */
import { ParamIssuesError } from '../nodes/errors';
import type { RunContext } from '../nodes/types';
import type { CacheStore } from './cache';
import { NodeRunError, redactSecrets, toNodeError, type ExecutorEvent, type NodeError, type NodeOutputs } from './events';
import { nodeApi } from './node-api';
import { describeProblems } from './params';
import type { PlannedNode } from './plan';
import { prepareNode } from './prepare';
import { countChatUsage, countImages, emptyUsage, type ApiUsage } from './usage';

/** What a node run needs from the executor. */
export interface NodeEnv {
  runId: string;
  /** The run's signal: aborting it cancels this node. */
  signal: AbortSignal;
  api: RunContext['api'];
  settings: RunContext['settings'];
  cache: CacheStore;
  /** Part of every cache key besides the node's own: settings and which service answers. */
  cacheContext: unknown;
  /** Strings to redact from error messages (the token). */
  secrets: readonly string[];
  now(): number;
  /** A fresh seed for a node whose seed is random. */
  randomSeed(): number;
  emit(event: ExecutorEvent): void;
  warn(message: string): void;
}

/** How a node ended; `apiCalls` counts the requests it made and `usage` what they used, whatever the ending. */
export type NodeOutcome = { apiCalls: number; usage: ApiUsage } & (
  | { status: 'done'; outputs: NodeOutputs; cached: boolean; apiCallsSaved: number; usageSaved?: ApiUsage }
  | { status: 'failed'; error: NodeError }
  | { status: 'cancelled' }
);

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

const KINDS: readonly string[] = ['text', 'number', 'image', 'images'];

/**
 * Declared outputs must have their declared kind. A node may also hand back values it does not
 * offer as ports (Preview returns what it shows): they are reported, never wired.
 */
function checkOutputs(node: PlannedNode, outputs: unknown): NodeOutputs {
  if (typeof outputs !== 'object' || outputs === null) throw new NodeRunError(`returned ${String(outputs)} instead of its outputs`);
  const result = outputs as NodeOutputs;
  for (const [name, value] of Object.entries(result)) {
    const kind = (value as { kind?: unknown } | undefined)?.kind;
    const spec = node.def.outputs.find((p) => p.name === name);
    if (spec ? kind !== spec.kind : !KINDS.includes(kind as string)) {
      const expected = spec ? spec.kind : 'a value (text, number, image or images)';
      throw new NodeRunError(`output '${name}' should be ${expected} but is ${typeof kind === 'string' ? kind : 'not a value'}`, { port: name });
    }
  }
  return result;
}

/** Runs `node` and emits its events; never throws. */
export async function runNode(node: PlannedNode, upstream: ReadonlyMap<string, NodeOutputs>, env: NodeEnv): Promise<NodeOutcome> {
  const { runId } = env;
  const nodeId = node.id;
  const started = env.now();
  // One controller per node, child of the run's: aborted when the run is, and when the node ends.
  const controller = new AbortController();
  const onRunAbort = () => controller.abort(env.signal.reason);
  env.signal.addEventListener('abort', onRunAbort, { once: true });
  let live = true;
  let apiCalls = 0;
  const usage = emptyUsage();

  const cancelled = (): NodeOutcome => {
    env.emit({ type: 'node-cancelled', runId, nodeId });
    return { status: 'cancelled', apiCalls, usage };
  };

  try {
    const { inputs, params, key } = await prepareNode(node, upstream, env.cacheContext);
    if (key !== undefined && node.reuseCached) {
      const hit = await env.cache.get(key).catch((error: unknown) => {
        env.warn(`node '${nodeId}': reading the cache failed (${toNodeError(error, env.secrets).message}); running it instead`);
        return undefined;
      });
      if (env.signal.aborted) return cancelled();
      if (hit) {
        env.emit({ type: 'node-cached', runId, nodeId, apiCallsSaved: hit.apiCalls });
        env.emit({ type: 'node-done', runId, nodeId, outputs: hit.outputs, durationMs: env.now() - started, cached: true, apiCalls: 0 });
        const saved = hit.usage === undefined ? {} : { usageSaved: hit.usage };
        return { status: 'done', outputs: hit.outputs, cached: true, apiCalls: 0, usage, apiCallsSaved: hit.apiCalls, ...saved };
      }
    }
    if (env.signal.aborted) return cancelled();

    env.emit({ type: 'node-started', runId, nodeId });
    const ctx: RunContext = {
      signal: controller.signal,
      api: nodeApi(env.api, controller.signal, {
        onCall(call) {
          apiCalls++;
          if (call.api === 'image') usage.imageCalls++;
          else usage.chatCalls++;
          if (live) env.emit({ type: 'node-request', runId, nodeId, call });
        },
        onImages: (count, sampler) => countImages(usage, count, sampler),
        onChatEnd: (reported, text) => countChatUsage(usage, reported, text),
        onWarning: (message) => env.warn(`node '${nodeId}': ${redactSecrets(message, env.secrets)}`),
        onRetry(notice) {
          if (!live) return;
          const reason = redactSecrets(notice.error.detail, env.secrets);
          env.emit({ type: 'node-retry', runId, nodeId, attempt: notice.attempt, maxAttempts: notice.maxAttempts, delayMs: notice.delayMs, reason });
        },
      }),
      settings: env.settings,
      progress(fraction, message) {
        if (!live || !Number.isFinite(fraction)) return;
        const f = Math.min(1, Math.max(0, fraction));
        env.emit(message === undefined
          ? { type: 'node-progress', runId, nodeId, fraction: f }
          : { type: 'node-progress', runId, nodeId, fraction: f, message });
      },
      partialText(delta) {
        if (live && delta !== '') env.emit({ type: 'node-partial-text', runId, nodeId, delta });
      },
      randomSeed: () => env.randomSeed(),
    };
    const outputs = checkOutputs(node, await abortable(node.def.run({ params, inputs, ctx }), controller.signal));
    live = false;
    if (key !== undefined) {
      await env.cache.set(key, { outputs, apiCalls, usage: structuredClone(usage) }).catch((error: unknown) => {
        env.warn(`node '${nodeId}': storing its result in the cache failed (${toNodeError(error, env.secrets).message})`);
      });
    }
    env.emit({ type: 'node-done', runId, nodeId, outputs, durationMs: env.now() - started, cached: false, apiCalls });
    return { status: 'done', outputs, cached: false, apiCalls, usage, apiCallsSaved: 0 };
  } catch (error) {
    live = false;
    if (env.signal.aborted) return cancelled();
    const nodeError = toNodeError(error, env.secrets);
    // A node names its parameters as the file keys them; the person knows them by their labels.
    if (error instanceof ParamIssuesError) {
      nodeError.message = redactSecrets(describeProblems(error.issues.map((i) => ({ field: i.param, message: i.message })), node.def), env.secrets);
    }
    env.emit({ type: 'node-failed', runId, nodeId, error: nodeError, durationMs: env.now() - started });
    return { status: 'failed', error: nodeError, apiCalls, usage };
  } finally {
    live = false;
    env.signal.removeEventListener('abort', onRunAbort);
    // Requests the node started but did not wait for end with it.
    controller.abort();
  }
}
