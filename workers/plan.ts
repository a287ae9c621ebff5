/**
 * The one pure function from a saved workflow to what gets run, used by the
 * worker and the CLI alike. It runs by ids, types, parameters and edges only: never positions
 * or selection, and titles only name nodes in messages, so the CLI runs exactly what the editor runs.
 */
import { nodeName } from '../nodes/labels';
import type { AnyNodeDefinition, PortSpec } from '../nodes/types';
import type { Workflow } from '../workflow/schema';
import { passThroughOf, type PassThrough } from './bypass';
import type { FanOutMode } from './fan-out';
import { adjacency, reachable, topologicalOrder, type Link } from './graph';
import type { ReviewRequest } from './backend-review';
import { cannotRunOn, checkWorkflow, type NodeRegistry, type WorkflowProblem } from './validate';
import { flattenComponents } from '../workflow/flatten';

/**
 * - `all`: every node.
 * - `to`: the node and everything it depends on ("run to here").
 * - `from`: the node and everything downstream of it, run afresh; what they depend on is
 *   served from the cache, and runs only where the cache does not have it ("run from here").
 */
export type PlanOptions = { mode: 'all' } | { mode: 'to' | 'from'; nodeId: string };

export interface PortRef {
  node: string;
  port: string;
}

export interface PlannedNode {
  id: string;
  type: string;
  def: AnyNodeDefinition;
  /** The parameters as saved; connected param ports are laid over them when the node runs. */
  params: Record<string, unknown>;
  inputs: readonly PortSpec[];
  /** Its outputs, for these parameters. */
  outputs: readonly PortSpec[];
  /** Each connected input port and the output that feeds it. */
  bindings: ReadonlyMap<string, PortRef>;
  /** The nodes this one waits for, each once. */
  dependsOn: readonly string[];
  /** False where the run asks for a fresh result rather than a cached one. */
  reuseCached: boolean;
  /** How it pairs the items of two or more lists reaching inputs that take one value. */
  fanOut: FanOutMode;
  /** Set when the node is bypassed: it is not run, and this says what each output carries. */
  passThrough?: PassThrough;
  /** The node's own title, where it has one, for the messages that name it. */
  title?: string;
  /** Why it cannot run on the chosen image backend (validate.ts `cannotRunOn`): it fails with this, the rest runs. */
  cannotRun?: string;
}

export interface ExecutionPlan {
  options: PlanOptions;
  /** In topological order: every node comes after all the nodes it depends on. */
  nodes: readonly PlannedNode[];
}

export type PlanResult = { ok: true; plan: ExecutionPlan } | { ok: false; problems: WorkflowProblem[] };

/**
 * Validates the part of `workflow` that `options` selects and orders it for running. Every
 * problem is returned at once rather than the first one found; `review` adds what the chosen
 * image backend refuses.
 */
export function planRun(file: Workflow, registry: NodeRegistry, options: PlanOptions = { mode: 'all' }, review?: ReviewRequest): PlanResult {
  // Components are flattened first: from here on every node is a node type's, each inner node itself.
  const flat = flattenComponents(file, { typeTitle: (type) => registry.get(type)?.title });
  if (!flat.ok) return { ok: false, problems: flat.problems };
  const { workflow } = flat;
  const ids = [...new Set(workflow.nodes.map((n) => n.id))];
  const known = new Set(ids);
  const links: Link[] = workflow.edges
    .filter((e) => known.has(e.source.node) && known.has(e.target.node))
    .map((e) => ({ source: e.source.node, target: e.target.node }));

  let scope: Set<string>;
  const fresh = new Set<string>();
  if (options.mode === 'all') {
    scope = known;
  } else if (!known.has(options.nodeId) && !flat.instances.has(options.nodeId)) {
    return { ok: false, problems: [{ nodeId: options.nodeId, message: `there is no node '${options.nodeId}' in this workflow to run ${options.mode === 'to' ? 'to' : 'from'}` }] };
  } else if (options.mode === 'to') {
    // "Run to here" on a component: to every node inside it.
    const upstream = adjacency(ids, links, true);
    scope = new Set();
    for (const start of flat.instances.get(options.nodeId) ?? [options.nodeId]) for (const a of reachable(start, upstream)) scope.add(a);
  } else {
    const downstream = adjacency(ids, links);
    for (const start of flat.instances.get(options.nodeId) ?? [options.nodeId]) for (const d of reachable(start, downstream)) fresh.add(d);
    const upstream = adjacency(ids, links, true);
    scope = new Set();
    for (const id of fresh) for (const a of reachable(id, upstream)) scope.add(a);
  }

  const { problems, nodes: checked } = checkWorkflow(workflow, registry, scope, review);
  if (problems.length > 0) return { ok: false, problems };

  const inScope = ids.filter((id) => scope.has(id));
  const { order } = topologicalOrder(inScope, links.filter((l) => scope.has(l.target)));
  const feeds = new Map<string, Map<string, PortRef>>();
  for (const e of workflow.edges) {
    if (!scope.has(e.target.node)) continue;
    const bindings = feeds.get(e.target.node) ?? new Map<string, PortRef>();
    bindings.set(e.target.port, { node: e.source.node, port: e.source.port });
    feeds.set(e.target.node, bindings);
  }
  const nodes = order.map((id): PlannedNode => {
    // Validation passed: ids in scope are unique, every type is known, its inputs were derived.
    const { node, def: known, inputs: derived, outputs: derivedOutputs } = checked.get(id)!;
    const def = known!;
    const bindings = feeds.get(id) ?? new Map<string, PortRef>();
    const inputs = derived ?? [];
    const cannotRun = node.bypass === true ? undefined : cannotRunOn(def, review);
    return {
      id,
      type: node.type,
      def,
      params: node.params,
      inputs,
      outputs: derivedOutputs ?? [],
      bindings,
      dependsOn: [...new Set([...bindings.values()].map((b) => b.node))],
      reuseCached: !fresh.has(id),
      fanOut: node.fanOut ?? 'zip',
      ...(node.title === undefined ? {} : { title: node.title }),
      ...(cannotRun === undefined ? {} : { cannotRun }),
      ...(node.bypass === true ? { passThrough: passThroughOf(nodeName(node, def), derivedOutputs ?? [], inputs, new Set(bindings.keys())) } : {}),
    };
  });
  return { ok: true, plan: { options, nodes } };
}

/** What to say before the run that does not stop it: each node that cannot run on the chosen backend, and why. */
export function planWarnings(plan: ExecutionPlan): WorkflowProblem[] {
  return plan.nodes.flatMap((n) => (n.cannotRun === undefined ? [] : [{ nodeId: n.id, message: n.cannotRun }]));
}
