/**
 * Seed control and batches. Each image node's `seed_mode` parameter says what
 * happens to its numeric seed after a run: `fixed` keeps it, `increment` adds one, `random`
 * picks a new one. The editor owns the document, so these are pure functions over a workflow:
 * the editor applies their result to its store, and a batch of N runs is N snapshots taken when
 * it is queued (as ComfyUI's queue does), each with the seeds the run before it would leave.
 * After a run, `pinSeedsUsed` gives the copy of its workflow that makes its images again.
 */
import { LOCAL_LIMITS } from '../api/image-schema';
import { SEED_MODES, type SeedMode } from '../nodes/image-params';
import type { Workflow, WorkflowNode } from '../workflow/schema';
import type { RunSummary } from './events';
import { planRun, type PlanOptions } from './plan';
import { inputsOf, type NodeRegistry } from './validate';

/** Seeds are 0 to 2^32 - 1; an increment past the top wraps to 0. */
const SEED_COUNT = LOCAL_LIMITS.seedMax + 1;

export interface SeedChange {
  nodeId: string;
  mode: Exclude<SeedMode, 'fixed'>;
  from: number;
  to: number;
}

export interface NextSeedsOptions {
  /** Only these nodes move on (those the run planned); every node by default. */
  ran?: Iterable<string>;
  /** A number in [0, 1), for `random`; Math.random by default. */
  random?: () => number;
}

/** The node's parsed seed and seed mode, when it is an image node with seed control. */
function seedParams(node: WorkflowNode, registry: NodeRegistry): { mode: SeedMode; seed: number | null } | undefined {
  const parsed = registry.get(node.type)?.params.safeParse(node.params);
  if (!parsed?.success) return undefined;
  const { seed_mode: mode, seed } = parsed.data as { seed_mode?: unknown; seed?: unknown };
  if (!(SEED_MODES as readonly unknown[]).includes(mode) || (typeof seed !== 'number' && seed !== null)) return undefined;
  return { mode: mode as SeedMode, seed };
}

/** The node's seed mode and seed, when it has a numeric seed of its own that a mode moves on. */
function movingSeed(node: WorkflowNode, registry: NodeRegistry, seedWired: boolean): { mode: SeedChange['mode']; seed: number } | undefined {
  if (node.bypass === true || seedWired) return undefined;
  const own = seedParams(node, registry);
  if (!own || own.mode === 'fixed' || own.seed === null) return undefined;
  return { mode: own.mode, seed: own.seed };
}

/** Whether a wire feeds the node's seed parameter: the wire's value wins, so the form's seed stays. */
function seedWiredNodes(workflow: Workflow, registry: NodeRegistry): Set<string> {
  const byId = new Map(workflow.nodes.map((n) => [n.id, n]));
  const wired = new Set<string>();
  for (const edge of workflow.edges) {
    const node = byId.get(edge.target.node);
    const def = node && registry.get(node.type);
    const port = def && inputsOf(def, node.params)?.find((p) => p.name === edge.target.port);
    if (port?.param === 'seed') wired.add(edge.target.node);
  }
  return wired;
}

/**
 * The workflow with each image node's seed moved on as its `seed_mode` says, and what changed.
 * Nodes with an empty seed (random every run), a seed wired from another node, or bypassed are
 * left alone. With nothing to change the same workflow object comes back.
 */
export function nextSeeds(workflow: Workflow, registry: NodeRegistry, options: NextSeedsOptions = {}): { workflow: Workflow; changes: SeedChange[] } {
  const ran = options.ran === undefined ? undefined : new Set(options.ran);
  const random = options.random ?? Math.random;
  const wired = seedWiredNodes(workflow, registry);
  const changes: SeedChange[] = [];
  const nodes = workflow.nodes.map((node) => {
    if (ran !== undefined && !ran.has(node.id)) return node;
    const moving = movingSeed(node, registry, wired.has(node.id));
    if (!moving) return node;
    const to = moving.mode === 'increment' ? (moving.seed + 1) % SEED_COUNT : Math.floor(random() * SEED_COUNT) % SEED_COUNT;
    changes.push({ nodeId: node.id, mode: moving.mode, from: moving.seed, to });
    return { ...node, params: { ...node.params, seed: to } };
  });
  return changes.length === 0 ? { workflow, changes } : { workflow: { ...workflow, nodes }, changes };
}

export interface BatchPlan {
  /** One snapshot per run, in order; the first is the workflow as it was queued. */
  runs: Workflow[];
  /** The workflow with the seeds the last run leaves: what the editor shows once it is queued. */
  after: Workflow;
}

/**
 * `count` runs of the part of the workflow `plan` selects, each with the seeds the run before it
 * would leave. Only the nodes the run is for move their seeds on: with "run from here", the node
 * and what follows it, not the nodes it takes from the cache.
 */
export function planBatch(
  workflow: Workflow,
  registry: NodeRegistry,
  count: number,
  options: { plan?: PlanOptions; random?: () => number } = {},
): BatchPlan {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`a batch runs 1 or more times, not ${count}`);
  const planned = planRun(workflow, registry, options.plan ?? { mode: 'all' });
  // An invalid workflow still gets its snapshots: each run then reports the problems. "Run from
  // here" re-makes its node and what follows; the nodes before it are only read from the cache.
  const ran = planned.ok
    ? planned.plan.nodes.filter((n) => planned.plan.options.mode !== 'from' || !n.reuseCached).map((n) => n.id)
    : [];
  const runs: Workflow[] = [];
  let current = workflow;
  for (let i = 0; i < count; i++) {
    runs.push(current);
    current = nextSeeds(current, registry, { ran, ...(options.random ? { random: options.random } : {}) }).workflow;
  }
  return { runs, after: current };
}

/**
 * Runs the snapshots one after another through `run` (the executor's, or the worker client's),
 * stopping after a run that was cancelled or invalid, or once `signal` aborts.
 */
export async function runBatch(
  runs: readonly Workflow[],
  run: (workflow: Workflow, index: number) => Promise<RunSummary>,
  options: { signal?: AbortSignal } = {},
): Promise<RunSummary[]> {
  const summaries: RunSummary[] = [];
  for (const [index, snapshot] of runs.entries()) {
    if (options.signal?.aborted) break;
    const summary = await run(snapshot, index);
    summaries.push(summary);
    if (summary.status === 'cancelled' || summary.status === 'invalid') break;
  }
  return summaries;
}

/**
 * The workflow that makes a run's images again: each image node that ran with a seed the next
 * run would not repeat (random each run, or moved on by `increment` or `random`) gets the seed
 * it used (`used`, by node id, as `seedUsed` reads it) and `seed_mode: 'fixed'`. It goes with a
 * downloaded image and into the run history, so reopening it and running draws the same
 * pictures on a deterministic engine, the whole chain and not just the last node. A wired seed
 * (the wire decides), a bypassed node and a node absent from `used` (it did not run) are left
 * alone; so is the workflow given, and with nothing to pin the same object comes back.
 */
export function pinSeedsUsed(workflow: Workflow, registry: NodeRegistry, used: ReadonlyMap<string, number>): Workflow {
  if (used.size === 0) return workflow;
  const wired = seedWiredNodes(workflow, registry);
  let pinned = false;
  const nodes = workflow.nodes.map((node) => {
    const seed = used.get(node.id);
    if (seed === undefined || node.bypass === true || wired.has(node.id)) return node;
    const own = seedParams(node, registry);
    if (!own || (own.mode === 'fixed' && own.seed !== null)) return node;
    pinned = true;
    // A numeric seed in the snapshot is the one that was sent, whatever the service reported back.
    return { ...node, params: { ...node.params, seed: own.seed ?? seed, seed_mode: 'fixed' } };
  });
  return pinned ? { ...workflow, nodes } : workflow;
}
