/**
 * Runs one planned node once its upstream nodes are done: reads its inputs, and either calls it
 * once (run-once.ts) or, when a list reaches an input that takes one value, once per item
 * (run-fan-out.ts). Reports how the node began and ended as events; never throws.
 */
import { toNodeError, type NodeError, type NodeOutputs } from './events';
import { fanOutOf, type FanOut } from './fan-out';
import type { PlannedNode } from './plan';
import { upstreamValues } from './prepare';
import { runFanOut, type FanOutEnv } from './run-fan-out';
import { runOnce, type NodeOutcome } from './run-once';
import { emptyUsage } from '../api/usage';

export type { NodeEnv, NodeOutcome } from './run-once';

/** Runs `node` and emits its events; never throws. */
export async function runNode(node: PlannedNode, upstream: ReadonlyMap<string, NodeOutputs>, env: FanOutEnv): Promise<NodeOutcome> {
  const { runId } = env;
  const nodeId = node.id;
  const started = env.now();
  const failed = (error: NodeError): NodeOutcome => {
    env.emit({ type: 'node-failed', runId, nodeId, error, durationMs: env.now() - started });
    return { status: 'failed', error, apiCalls: 0, usage: emptyUsage() };
  };

  // A node the chosen backend cannot run (a ComfyUI workflow elsewhere) fails as itself; the rest runs.
  if (node.cannotRun !== undefined) return failed({ message: node.cannotRun });
  let values;
  let fan: FanOut | undefined;
  try {
    values = upstreamValues(node, upstream);
    fan = fanOutOf(node.inputs, values, node.fanOut);
  } catch (error) {
    return failed(toNodeError(error, env.secrets));
  }
  if (fan !== undefined) {
    if (fan.count === 0) {
      const empty = fan.lists.find((l) => l.length === 0)!;
      const from = node.bindings.get(empty.port)!.node;
      env.emit({ type: 'node-fan-out', runId, nodeId, count: 0, mode: fan.mode, lists: fan.lists });
      const reason = `input '${empty.label}' got an empty list from '${from}': nothing to run`;
      env.emit({ type: 'node-skipped', runId, nodeId, because: from, reason });
      return { status: 'skipped', because: from, reason, apiCalls: 0, usage: emptyUsage() };
    }
    return runFanOut(node, fan, env, started);
  }

  const outcome = await runOnce(node, values, env, undefined, {
    cached: (apiCallsSaved) => env.emit({ type: 'node-cached', runId, nodeId, apiCallsSaved }),
    started: () => env.emit({ type: 'node-started', runId, nodeId }),
  });
  const durationMs = env.now() - started;
  if (outcome.status === 'done') {
    const notes = outcome.notes === undefined ? {} : { notes: outcome.notes };
    env.emit({ type: 'node-done', runId, nodeId, outputs: outcome.outputs, durationMs, cached: outcome.cached, apiCalls: outcome.apiCalls, ...notes });
  } else if (outcome.status === 'failed') {
    env.emit({ type: 'node-failed', runId, nodeId, error: outcome.error, durationMs });
  } else {
    env.emit({ type: 'node-cancelled', runId, nodeId });
  }
  return outcome;
}
