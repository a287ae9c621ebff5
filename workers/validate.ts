/**
 * Everything wrong with a workflow before anything is sent, all at once, each problem naming
 * its node (and the field or port): unknown node types, edges to missing nodes or ports, wires
 * of the wrong kind, required inputs left unconnected, invalid parameters, cycles.
 */
import { fieldLabel, nodeName } from '../nodes/labels';
import { portAccepts } from '../nodes/values';
import { resolveInputs, resolveOutputs } from '../nodes/ports';
import type { AnyNodeDefinition, PortSpec } from '../nodes/types';
import type { Workflow, WorkflowEdge, WorkflowNode } from '../workflow/schema';
import { cyclesThrough } from './graph';
import { NEEDS_COMFYUI, refusalIssues, reviewNode, type ReviewRequest } from './backend-review';
import { checkParams, parseParams } from './params';

/** Where node definitions come from: nodes/index.ts in the app, small fakes in tests. */
export interface NodeRegistry {
  get(type: string): AnyNodeDefinition | undefined;
}

/** One problem with a workflow, shown on its node in the editor and printed by the CLI. */
export interface WorkflowProblem {
  nodeId: string;
  /** The parameter concerned (dotted path for nested fields). */
  field?: string;
  /** The input or output port concerned. */
  port?: string;
  message: string;
}

/** A problem as one line of text; messages already name their field or port, as the form labels them. */
export function formatProblem(p: WorkflowProblem): string {
  return `node '${p.nodeId}': ${p.message}`;
}

/** A node as validation sees it: its definition and its inputs, where they can be known. */
export interface CheckedNode {
  node: WorkflowNode;
  def: AnyNodeDefinition | undefined;
  /** Undefined when the type is unknown or its inputs cannot be derived from its parameters. */
  inputs: readonly PortSpec[] | undefined;
  /** Likewise for its outputs. */
  outputs: readonly PortSpec[] | undefined;
}

/** Inputs of a node, derived from its parsed parameters where possible (Text's placeholders). */
export function inputsOf(def: AnyNodeDefinition, params: Record<string, unknown>): readonly PortSpec[] | undefined {
  // Most nodes declare a fixed list: nothing to parse.
  if (typeof def.inputs !== 'function') return def.inputs;
  try {
    return resolveInputs(def, parseParams(def, params) ?? params);
  } catch {
    // Inputs that depend on parameters the schema rejects: the parameter problem is reported.
    return undefined;
  }
}

/** Outputs of a node, derived from its parsed parameters where they depend on them. */
export function outputsOf(def: AnyNodeDefinition, params: Record<string, unknown>): readonly PortSpec[] | undefined {
  if (typeof def.outputs !== 'function') return def.outputs;
  try {
    return resolveOutputs(def, parseParams(def, params) ?? params);
  } catch {
    return undefined;
  }
}

/**
 * Validates the nodes whose ids are in `scope` (all by default) and the edges into them.
 * Edges leaving the scope are not looked at: a "run to here" ignores what lies downstream.
 */
export function validateWorkflow(
  workflow: Workflow,
  registry: NodeRegistry,
  scope?: ReadonlySet<string>,
  review?: ReviewRequest,
): WorkflowProblem[] {
  return checkWorkflow(workflow, registry, scope, review).problems;
}

/**
 * `validateWorkflow`, with each node as validation saw it (by id, the first of a repeated id), so
 * the plan need not derive its inputs a second time. With `review`, an image node whose request
 * the chosen backend cannot take at all is a problem too (nothing is sent).
 */
export function checkWorkflow(
  workflow: Workflow,
  registry: NodeRegistry,
  scope?: ReadonlySet<string>,
  review?: ReviewRequest,
): { problems: WorkflowProblem[]; nodes: ReadonlyMap<string, CheckedNode> } {
  const problems: WorkflowProblem[] = [];
  const inScope = (id: string) => scope === undefined || scope.has(id);
  const nodes = new Map<string, CheckedNode>();

  for (const node of workflow.nodes) {
    if (nodes.has(node.id)) {
      if (inScope(node.id)) problems.push({ nodeId: node.id, message: `another node has the same id '${node.id}'; ids must be unique` });
      continue;
    }
    const def = registry.get(node.type);
    nodes.set(node.id, { node, def, inputs: def && inputsOf(def, node.params), outputs: def && outputsOf(def, node.params) });
    if (!def && inScope(node.id)) {
      problems.push({ nodeId: node.id, message: `unknown node type '${node.type}': this version of Atelier cannot run it` });
    }
  }

  const edges = workflow.edges.filter((e) => inScope(e.target.node));
  const wired = new Map<string, Set<string>>();
  for (const edge of edges) {
    const { problem, reachesInput } = checkEdge(edge, nodes);
    if (problem) problems.push(problem);
    // A wire of the wrong kind is still a wire: "not connected" would only add noise.
    if (!reachesInput) continue;
    const ports = wired.get(edge.target.node) ?? new Set<string>();
    if (ports.has(edge.target.port)) {
      const input = fieldLabel(nodes.get(edge.target.node)?.def, edge.target.port);
      problems.push({ nodeId: edge.target.node, port: edge.target.port, message: `input '${input}' has more than one connection; an input takes one` });
    }
    ports.add(edge.target.port);
    wired.set(edge.target.node, ports);
  }

  for (const { node, def, inputs } of nodes.values()) {
    // A bypassed node never runs: its parameters and unconnected inputs cannot stop the run.
    if (!def || !inScope(node.id) || node.bypass === true) continue;
    const connected = wired.get(node.id) ?? new Set<string>();
    for (const port of inputs ?? []) {
      if (!port.optional && !connected.has(port.name)) {
        problems.push({ nodeId: node.id, port: port.name, message: `input '${port.label}' is required but not connected` });
      }
    }
    const fromPorts = new Set((inputs ?? []).filter((p) => p.param !== undefined && connected.has(p.name)).map((p) => p.param!));
    const check = checkParams(def, node.params, connected, fromPorts);
    if (check.ok && inputs === undefined) {
      problems.push({ nodeId: node.id, message: 'its inputs cannot be worked out from its parameters' });
    }
    if (check.ok && review !== undefined) {
      const verdict = reviewNode(def, check.params, connected, review);
      for (const issue of verdict === undefined ? [] : refusalIssues(verdict)) {
        problems.push({ nodeId: node.id, field: issue.param, message: `${fieldLabel(def, issue.param)}: ${issue.message}` });
      }
    }
    if (!check.ok) {
      for (const p of check.problems) {
        problems.push(p.field === undefined
          ? { nodeId: node.id, message: `parameters: ${p.message}` }
          : { nodeId: node.id, field: p.field, message: `${fieldLabel(def, p.field)}: ${p.message}` });
      }
    }
  }

  const ids = [...nodes.keys()].filter(inScope);
  const links = edges.filter((e) => nodes.has(e.source.node) && nodes.has(e.target.node)).map((e) => ({ source: e.source.node, target: e.target.node }));
  const named = (id: string) => {
    const checked = nodes.get(id);
    return checked ? nodeName(checked.node, checked.def) : id;
  };
  for (const [nodeId, cycle] of cyclesThrough(ids, links)) {
    problems.push({ nodeId, message: `is part of a cycle: ${cycle.map(named).join(' → ')}; a workflow must not loop back on itself` });
  }
  return { problems, nodes };
}

/**
 * Why a node cannot run on the chosen image backend, or undefined: a ComfyUI workflow on any
 * backend but ComfyUI. Not a problem of the workflow: said before the run (the estimate, the
 * CLI's warnings), and the node fails with it at run time while the nodes not downstream still run.
 */
export function cannotRunOn(def: AnyNodeDefinition, review: ReviewRequest | undefined): string | undefined {
  return def.backend === 'comfyui' && review !== undefined && review.pipelines !== true ? `this node ${NEEDS_COMFYUI}` : undefined;
}

/** What is wrong with one edge, and whether it at least ends on an input that exists. */
function checkEdge(edge: WorkflowEdge, nodes: ReadonlyMap<string, CheckedNode>): { problem?: WorkflowProblem; reachesInput: boolean } {
  const { source, target } = edge;
  const to = nodes.get(target.node);
  const from = nodes.get(source.node);
  const input = to?.inputs?.find((p) => p.name === target.port);
  const reachesInput = input !== undefined;
  if (!to) return { reachesInput, problem: { nodeId: source.node, port: source.port, message: `connection '${edge.id}' leads to node '${target.node}', which does not exist` } };
  if (!from) return { reachesInput, problem: { nodeId: target.node, port: target.port, message: `connection '${edge.id}' comes from node '${source.node}', which does not exist` } };
  // Unknown types are reported once on their node; their ports cannot be judged.
  if (!from.def || !to.def) return { reachesInput };
  if (!from.outputs) return { reachesInput };
  const output = from.outputs.find((p) => p.name === source.port);
  if (!output) {
    return { reachesInput, problem: { nodeId: source.node, port: source.port, message: `has no output '${source.port}' (connection '${edge.id}' to '${target.node}'); outputs: ${names(from.outputs)}` } };
  }
  if (!to.inputs) return { reachesInput };
  if (!input) {
    return { reachesInput, problem: { nodeId: target.node, port: target.port, message: `has no input '${target.port}' (connection '${edge.id}' from '${source.node}'); inputs: ${names(to.inputs)}` } };
  }
  if (!portAccepts(input, output.kind)) {
    const gives = `output '${output.label}' of '${nodeName(from.node, from.def)}'`;
    return { reachesInput, problem: { nodeId: target.node, port: target.port, message: `input '${input.label}' takes ${input.kind}, but ${gives} gives ${output.kind}` } };
  }
  return { reachesInput };
}

function names(ports: readonly PortSpec[]): string {
  return ports.length === 0 ? 'none' : ports.map((p) => p.name).join(', ');
}
