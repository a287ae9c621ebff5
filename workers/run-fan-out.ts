/**
 * A node that runs once per item of a list (fan-out.ts says how many times, with which inputs).
 * Every item is one call (run-once.ts): it waits for a slot of the run's concurrency like any
 * node, is cached under its own content key, and reports its own start, end or failure. One
 * failed item does not stop the others; the node fails once they have all ended, naming the
 * item. A fan-out above the limit is asked about first (or refused) before anything is sent.
 */
import { nodeCost } from './cost';
import type { FanOutCounts, NodeError, NodeOutputs } from './events';
import { toNodeError } from './events';
import { describeCount } from '../nodes/list-flow';
import { gatherOutputs, type FanOut } from './fan-out';
import type { PlannedNode } from './plan';
import { runOnce, type CallOutcome, type NodeEnv, type NodeOutcome } from './run-once';
import { addUsage, emptyUsage } from '../api/usage';

/** The most runs one fan-out of a node that calls an API makes without asking first. */
export const DEFAULT_MAX_FAN_OUT = 64;

/** A fan-out above the limit, as put to whoever can allow it. */
export interface FanOutAsk {
  nodeId: string;
  /** Runs it would make. */
  count: number;
  /** "8 × 3 = 24", or "120". */
  description: string;
  limit: number;
}

export interface FanOutEnv extends NodeEnv {
  /** Runs one fan-out of a node that calls an API may make without asking (DEFAULT_MAX_FAN_OUT). */
  maxFanOut: number;
  /** Asked about a fan-out above the limit; without it, or when it answers no, the node fails saying why. */
  confirmFanOut?(ask: FanOutAsk): Promise<boolean>;
}

/** Whether the node sends requests when it runs: only those count against the limit. */
function callsAnApi(node: PlannedNode): boolean {
  const cost = nodeCost(node.def, node.params);
  return !cost.known || cost.imageCalls + cost.chatCalls > 0;
}

/** `ask`'s answer, or false as soon as the run is cancelled (a dialog left open must not hold it). */
function untilAborted(ask: Promise<boolean>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => resolve(false);
    signal.addEventListener('abort', onAbort, { once: true });
    ask.then(
      (yes) => { signal.removeEventListener('abort', onAbort); resolve(yes); },
      () => { signal.removeEventListener('abort', onAbort); resolve(false); },
    );
  });
}

/** Why the fan-out may not run, or undefined when it may. */
async function refusal(node: PlannedNode, fan: FanOut, env: FanOutEnv): Promise<string | undefined> {
  const limit = env.maxFanOut;
  if (fan.count <= limit || !callsAnApi(node)) return undefined;
  const description = describeCount(fan);
  const ask = env.confirmFanOut?.({ nodeId: node.id, count: fan.count, description, limit });
  if (ask !== undefined && await untilAborted(ask, env.signal)) return undefined;
  const why = ask === undefined ? '' : ' and running it was declined';
  return `would run ${description} times, above the fan-out limit of ${limit}${why}: raise the limit (the editor's settings, or --max-fan-out) to run it`;
}

/** Runs `node` once per item of `fan` and emits the node's events and its items'; never throws. */
export async function runFanOut(node: PlannedNode, fan: FanOut, env: FanOutEnv, started: number): Promise<NodeOutcome> {
  const { runId } = env;
  const nodeId = node.id;
  const { count } = fan;
  env.emit({ type: 'node-fan-out', runId, nodeId, count, mode: fan.mode, lists: fan.lists });
  const refused = await refusal(node, fan, env);
  if (env.signal.aborted) {
    env.emit({ type: 'node-cancelled', runId, nodeId });
    return { status: 'cancelled', apiCalls: 0, usage: emptyUsage() };
  }
  if (refused !== undefined) {
    const error: NodeError = { message: refused };
    env.emit({ type: 'node-failed', runId, nodeId, error, durationMs: env.now() - started });
    return { status: 'failed', error, apiCalls: 0, usage: emptyUsage() };
  }

  let startedOnce = false;
  const runItem = async (item: number): Promise<CallOutcome> => {
    const itemStarted = env.now();
    const outcome = await runOnce(node, fan.itemInputs(item), env, item, {
      started() {
        if (!startedOnce) env.emit({ type: 'node-started', runId, nodeId });
        startedOnce = true;
        env.emit({ type: 'node-item-started', runId, nodeId, item, count });
      },
    });
    const durationMs = env.now() - itemStarted;
    if (outcome.status === 'done') {
      const notes = outcome.notes === undefined ? {} : { notes: outcome.notes };
      env.emit({ type: 'node-item-done', runId, nodeId, item, count, outputs: outcome.outputs, durationMs, cached: outcome.cached, apiCalls: outcome.apiCalls, ...notes });
    } else if (outcome.status === 'failed') {
      env.emit({ type: 'node-item-failed', runId, nodeId, item, count, error: outcome.error, durationMs });
    }
    return outcome;
  };
  const outcomes = await Promise.all(Array.from({ length: count }, (_, item) => runItem(item)));

  const usage = emptyUsage();
  const usageSaved = emptyUsage();
  let apiCalls = 0;
  let apiCallsSaved = 0;
  let cachedItems = 0;
  const failedAt: number[] = [];
  outcomes.forEach((o, item) => {
    apiCalls += o.apiCalls;
    addUsage(usage, o.usage);
    if (o.status === 'failed') failedAt.push(item);
    if (o.status !== 'done') return;
    apiCallsSaved += o.apiCallsSaved;
    if (o.cached) cachedItems++;
    if (o.usageSaved) addUsage(usageSaved, o.usageSaved);
  });
  const fanOut: Omit<FanOutCounts, 'nodes'> = { items: count, cachedItems, failedItems: failedAt.length };
  const durationMs = env.now() - started;

  if (outcomes.some((o) => o.status === 'cancelled')) {
    env.emit({ type: 'node-cancelled', runId, nodeId });
    return { status: 'cancelled', apiCalls, usage, fanOut };
  }
  const fail = (error: NodeError): NodeOutcome => {
    env.emit({ type: 'node-failed', runId, nodeId, error, durationMs });
    return { status: 'failed', error, apiCalls, usage, fanOut };
  };
  const first = failedAt[0];
  if (first !== undefined) {
    const cause = outcomes[first] as Extract<CallOutcome, { status: 'failed' }>;
    const more = failedAt.length > 1 ? ` (items ${failedAt.slice(1).map((i) => i + 1).join(', ')} failed too)` : '';
    return fail({ ...cause.error, message: `item ${first + 1} of ${count} failed: ${cause.error.message}${more}`, item: first });
  }
  let outputs: NodeOutputs;
  try {
    outputs = gatherOutputs(outcomes.map((o) => (o as Extract<CallOutcome, { status: 'done' }>).outputs));
  } catch (error) {
    return fail(toNodeError(error, env.secrets));
  }
  const cached = cachedItems === count;
  if (cached) env.emit({ type: 'node-cached', runId, nodeId, apiCallsSaved });
  const notes = outcomes.flatMap((o, item) => (o.status === 'done' ? (o.notes ?? []).map((note) => `item ${item + 1}: ${note}`) : []));
  env.emit({ type: 'node-done', runId, nodeId, outputs, durationMs, cached, apiCalls, items: count, ...(notes.length > 0 ? { notes } : {}) });
  const saved = apiCallsSaved > 0 || cachedItems > 0 ? { usageSaved } : {};
  return { status: 'done', outputs, cached, apiCalls, usage, apiCallsSaved, ...saved, fanOut };
}
