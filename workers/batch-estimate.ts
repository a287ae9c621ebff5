/**
 * What a batch of N runs will cost, from the estimate of its first run (the worker's estimate
 * carries what each later run adds, for the editor's ×N beside Run). The first run costs what
 * the estimate says. Every later run re-makes only what changes between runs: the nodes
 * whose seed moves on after a run (`seed_mode` increment or random), those that are never cached
 * (an empty seed draws a new random one each time), and everything downstream of them, whose
 * inputs change with them. The rest comes from the cache the first run filled, for nothing.
 */
import { addFigures } from '../api/usage';
import type { NodeRegistry } from './validate';
import { nodeCost } from './cost';
import type { BatchFigures, LaterRuns, NodeEstimate, RunEstimate } from './estimate';
import { nextSeeds } from './seeds';
import type { Workflow } from '../workflow/schema';

export interface BatchTotals extends BatchFigures, LaterRuns {
  runs: number;
}

const ZERO: BatchFigures = { apiCalls: 0, imageCalls: 0, chatCalls: 0, images: 0, priceUnits: 0 };

/** The figures of one node run, from the estimate when it runs, else from its parameters. */
function figuresOf(node: NodeEstimate, workflow: Workflow, registry: NodeRegistry): BatchFigures {
  if (node.status === 'runs') return node;
  if (node.status !== 'cached') return ZERO;
  // A cached node's estimate is free; what it costs to make again comes from its parameters.
  const doc = workflow.nodes.find((n) => n.id === node.nodeId);
  const def = doc && registry.get(doc.type);
  if (!doc || !def) return ZERO;
  const cost = nodeCost(def, doc.params);
  return { apiCalls: cost.imageCalls + cost.chatCalls, imageCalls: cost.imageCalls, chatCalls: cost.chatCalls, images: cost.images, priceUnits: cost.priceUnits };
}

/** The cost of `count` runs of the plan `nodes` (the estimate's), with `first` its first run's totals. */
export function batchTotals(
  first: BatchFigures,
  nodes: readonly NodeEstimate[],
  workflow: Workflow,
  registry: NodeRegistry,
  count: number,
): BatchTotals {
  const planned = new Set(nodes.map((n) => n.nodeId));
  const moving = new Set(nextSeeds(workflow, registry, { ran: planned, random: () => 0 }).changes.map((c) => c.nodeId));
  for (const n of nodes) if (n.status === 'runs' && !n.cacheable) moving.add(n.nodeId);

  // Everything downstream of a changing node changes with it.
  const rerun = new Set(moving);
  const queue = [...moving];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const edge of workflow.edges) {
      if (edge.source.node !== id || rerun.has(edge.target.node) || !planned.has(edge.target.node)) continue;
      rerun.add(edge.target.node);
      queue.push(edge.target.node);
    }
  }
  const again = nodes.filter((n) => rerun.has(n.nodeId)).map((n) => ({ id: n.nodeId, figures: figuresOf(n, workflow, registry) }));
  const perLaterRun = again.reduce((sum, n) => addFigures(sum, n.figures), ZERO);
  const later = Math.max(0, Math.floor(count) - 1);
  return {
    ...addFigures(first, perLaterRun, later),
    runs: Math.max(1, Math.floor(count)),
    perLaterRun,
    rerun: again.filter((n) => n.figures.apiCalls > 0).map((n) => n.id),
  };
}

/** What each run after the first adds to the estimate `first` of a batch's first run. */
export function laterRuns(first: Extract<RunEstimate, { ok: true }>, workflow: Workflow, registry: NodeRegistry): LaterRuns {
  const { perLaterRun, rerun } = batchTotals(first.totals, first.nodes, workflow, registry, 2);
  return { perLaterRun, rerun };
}
