/**
 * Seed control and batches. Each seed's mode (an image node's `seed_mode`, a ComfyUI workflow
 * node's per seed input: nodes/seed-control.ts) says what happens to its numeric seed after a
 * run: `fixed` keeps it, `increment` adds one, `random` picks a new one. The editor owns the document, so these are pure functions over a workflow:
 * the editor applies their result to its store, and a batch of N runs is N snapshots taken when
 * it is queued (as ComfyUI's queue does), each with the seeds the run before it would leave.
 * After a run, `pinSeedsUsed` gives the copy of its workflow that makes its images again.
 */
import { SEED_COUNT, pinWrites, seedParamsPatch, seedSlotsOf, isWiredSlot, type SeedChange, type SeedSlot, type SeedWrite } from '../nodes/seed-control';

export type { SeedChange } from '../nodes/seed-control';
import type { AnyNodeDefinition } from '../nodes/types';
import { flattenComponents } from '../workflow/flatten';
import { innerNodeAt, setInnerParams } from '../workflow/inner-nodes';
import { COMPONENT_TYPE_PREFIX, type Workflow, type WorkflowNode } from '../workflow/schema';
import type { RunSummary } from './events';
import { planRun, type PlanOptions } from './plan';
import type { NodeRegistry } from './validate';


export interface NextSeedsOptions {
  /** Only these nodes move on (those the run planned); every node by default. */
  ran?: Iterable<string>;
  /** A number in [0, 1), for `random`; Math.random by default. */
  random?: () => number;
}

/** The node's seeds, with its definition; none for an unknown type or params that do not parse. */
function seedsOf(node: WorkflowNode, registry: NodeRegistry): { def: AnyNodeDefinition; slots: SeedSlot[] } | undefined {
  const def = registry.get(node.type);
  if (def === undefined) return undefined;
  const slots = seedSlotsOf(def, node.params);
  return slots.length === 0 ? undefined : { def, slots };
}

/** The input ports with a wire, by node: a wired seed is the wire's, so the form's seed stays. */
function wiredPorts(workflow: Workflow): Map<string, Set<string>> {
  const wired = new Map<string, Set<string>>();
  for (const edge of workflow.edges) {
    const ports = wired.get(edge.target.node) ?? new Set<string>();
    ports.add(edge.target.port);
    wired.set(edge.target.node, ports);
  }
  return wired;
}


/** The node with `writes` laid over its params, or the same node when there are none. */
function written(node: WorkflowNode, def: AnyNodeDefinition, writes: ReadonlyMap<string, SeedWrite>): WorkflowNode {
  return writes.size === 0 ? node : { ...node, params: { ...node.params, ...seedParamsPatch(def, node.params, writes) } };
}

/** The seeds of one node that move on: the writes to its params, and the changes (named by its id, flat for an inner node). */
function movesOf(node: WorkflowNode, seeds: { slots: SeedSlot[] }, wired: ReadonlySet<string> | undefined, random: () => number) {
  const writes = new Map<string, SeedWrite>();
  const changes: SeedChange[] = [];
  for (const slot of seeds.slots) {
    if (isWiredSlot(slot, wired) || slot.mode === 'fixed' || slot.seed === null) continue;
    // Past 2^32 - 1 an increment wraps to 0; a ComfyUI seed above it (ComfyUI's go to 2^64) just goes on.
    const to = slot.mode === 'increment' ? (slot.seed === SEED_COUNT - 1 ? 0 : slot.seed + 1) : Math.floor(random() * SEED_COUNT) % SEED_COUNT;
    changes.push({ nodeId: node.id, slot: slot.key, mode: slot.mode, from: slot.seed, to });
    writes.set(slot.key, { seed: to });
  }
  return { writes, changes };
}

/**
 * The workflow with each node's seeds moved on as their modes say, and what changed. Empty seeds
 * (random every run), seeds wired from another node, and bypassed nodes are left alone. With
 * nothing to change the same workflow object comes back. Inner nodes of components move on too
 * (`innerMoves`), where the file holds their seeds.
 */
export function nextSeeds(workflow: Workflow, registry: NodeRegistry, options: NextSeedsOptions = {}): { workflow: Workflow; changes: SeedChange[] } {
  const ran = options.ran === undefined ? undefined : new Set(options.ran);
  const random = options.random ?? Math.random;
  const wired = wiredPorts(workflow);
  const changes: SeedChange[] = [];
  const nodes = workflow.nodes.map((node) => {
    if ((ran !== undefined && !ran.has(node.id)) || node.bypass === true || node.type.startsWith(COMPONENT_TYPE_PREFIX)) return node;
    const seeds = seedsOf(node, registry);
    if (!seeds) return node;
    const moves = movesOf(node, seeds, wired.get(node.id), random);
    changes.push(...moves.changes);
    return written(node, seeds.def, moves.writes);
  });
  const top = changes.length === 0 ? workflow : { ...workflow, nodes };
  const inner = innerMoves(top, registry, ran, random);
  return { workflow: inner.workflow, changes: [...changes, ...inner.changes] };
}

/**
 * Seeds of components' inner nodes moved on: each is written where the file holds it
 * (workflow/inner-nodes.ts), the definition's inner node unless an instance sets its own. The
 * instances of one definition share its seed, so in one run they all used the same one (and made
 * the same pictures): it moves on once per run, by one step or to one new random seed, however
 * many instances ran, so the next run's instances all use the seed after the one just used and
 * none is skipped. An instance that holds a seed of its own moves it on by itself.
 */
function innerMoves(workflow: Workflow, registry: NodeRegistry, ran: ReadonlySet<string> | undefined, random: () => number): { workflow: Workflow; changes: SeedChange[] } {
  const none = { workflow, changes: [] };
  if (workflow.components === undefined) return none;
  const flat = flattenComponents(workflow);
  if (!flat.ok || flat.instances.size === 0) return none;
  const wired = wiredPorts(flat.workflow);
  const moved: InnerWrites[] = [];
  const changes = new Map<string, SeedChange[]>();
  for (const node of flat.workflow.nodes) {
    if (!node.id.includes('/') || (ran !== undefined && !ran.has(node.id)) || node.bypass === true) continue;
    const seeds = seedsOf(node, registry);
    if (!seeds) continue;
    const moves = movesOf(node, seeds, wired.get(node.id), random);
    if (moves.writes.size === 0) continue;
    moved.push({ node, def: seeds.def, writes: moves.writes });
    changes.set(node.id, moves.changes);
  }
  const result = writeInner(workflow, moved);
  return { workflow: result.workflow, changes: [...result.kept].flatMap((id) => changes.get(id)!) };
}

/** Seed writes for one inner node, by its flat id (`node` as flattened: params laid over). */
interface InnerWrites {
  node: WorkflowNode;
  def: AnyNodeDefinition;
  writes: ReadonlyMap<string, SeedWrite>;
}

/**
 * `workflow` with inner nodes' seed writes made where the file holds each value, the first write
 * to a place winning (the instances of one definition share its seed), and the flat ids whose
 * writes were made, in order. With none made, the same workflow object comes back.
 */
function writeInner(workflow: Workflow, items: readonly InnerWrites[]): { workflow: Workflow; kept: string[] } {
  const homes = new Set<string>();
  const patches: [string, Record<string, unknown>][] = [];
  for (const { node, def, writes } of items) {
    const inner = innerNodeAt(workflow, node.id);
    if (inner === undefined) continue;
    const patch = Object.entries(seedParamsPatch(def, node.params, writes)).filter(([param]) => {
      const home = inner.home(param);
      const key = JSON.stringify([home.component ?? null, home.node, home.param]);
      if (homes.has(key)) return false;
      homes.add(key);
      return true;
    });
    if (patch.length > 0) patches.push([node.id, Object.fromEntries(patch)]);
  }
  if (patches.length === 0) return { workflow, kept: [] };
  const copy: Workflow = {
    ...workflow,
    nodes: workflow.nodes.map((n) => ({ ...n, params: { ...n.params } })),
    ...(workflow.components ? { components: workflow.components.map((c) => ({ ...c, nodes: c.nodes.map((n) => ({ ...n, params: { ...n.params } })) })) } : {}),
  };
  for (const [flatId, patch] of patches) setInnerParams(copy, flatId, patch);
  return { workflow: copy, kept: patches.map(([id]) => id) };
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
 * alone; so is the workflow given, and with nothing to pin the same object comes back. An inner
 * node of a component (`used` by flat id) is pinned where the file holds its seed, as the editor's
 * "pin this seed" does.
 */
export function pinSeedsUsed(workflow: Workflow, registry: NodeRegistry, used: ReadonlyMap<string, number>): Workflow {
  if (used.size === 0) return workflow;
  const wired = wiredPorts(workflow);
  let pinned = false;
  const nodes = workflow.nodes.map((node) => {
    const seed = used.get(node.id);
    const seeds = seed === undefined || node.bypass === true ? undefined : seedsOf(node, registry);
    if (!seeds) return node;
    const writes = pinWrites(seeds.slots, seed!, wired.get(node.id));
    if (writes.size > 0) pinned = true;
    return written(node, seeds.def, writes);
  });
  const top = pinned ? { ...workflow, nodes } : workflow;
  // Inner nodes of components, in flat-id order so the same run pins the same way: instances of
  // one definition that drew different random seeds share one place, and the first one's is kept.
  const inner: InnerWrites[] = [];
  for (const flatId of [...used.keys()].filter((id) => id.includes('/')).sort()) {
    const found = innerNodeAt(top, flatId);
    const seeds = found === undefined || found.node.bypass === true ? undefined : seedsOf(found.node, registry);
    if (!found || !seeds) continue;
    const writes = pinWrites(seeds.slots, used.get(flatId)!, found.wiredPorts());
    if (writes.size > 0) inner.push({ node: found.node, def: seeds.def, writes });
  }
  return writeInner(top, inner).workflow;
}
