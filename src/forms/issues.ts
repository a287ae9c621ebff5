/**
 * The problems a node's form shows under its fields, found by the function a run uses
 * (checkNodeParams: the schema, then the node's own validate), with values that connected ports
 * will supply left out of it. The form, the tests and the run worker all call that one function.
 */
import { fieldLabel } from '../../nodes/labels';
import type { AnyNodeDefinition, PortSpec } from '../../nodes/types';
import { checkNodeParams, type ParamProblem } from '../../nodes/check-params';
import type { InboundEdges } from '../store/graph-index';
import { FIELD_ALIASES } from './field-aliases';

export interface FormIssues {
  /** Problems by top-level parameter ('height' is reported with 'width', the resolution). */
  byField: ReadonlyMap<string, readonly string[]>;
  /** Problems that concern no single field (a missing sample image, the whole object). */
  general: readonly string[];
}

export const NO_ISSUES: FormIssues = { byField: new Map(), general: [] };

/** The node's connected inputs, and the parameters they supply (not judged by the form's values). */
export function connectedParams(inputs: readonly PortSpec[], inbound: InboundEdges | undefined): { connected: Set<string>; fromPorts: Set<string> } {
  const connected = new Set(inbound?.keys() ?? []);
  const fromPorts = new Set(inputs.filter((p) => p.param !== undefined && connected.has(p.name)).map((p) => p.param!));
  return { connected, fromPorts };
}

export function formIssues(
  def: AnyNodeDefinition,
  params: Record<string, unknown>,
  inputs: readonly PortSpec[],
  inbound: InboundEdges | undefined,
): FormIssues {
  const { connected, fromPorts } = connectedParams(inputs, inbound);
  const check = checkNodeParams(def, params, connected, fromPorts);
  return check.ok ? NO_ISSUES : issuesOf(def, params, check.problems);
}

/** Problems (checkParams's) placed under the fields they concern. */
export function issuesOf(def: AnyNodeDefinition, params: Record<string, unknown>, problems: readonly ParamProblem[]): FormIssues {
  const byField = new Map<string, string[]>();
  const general: string[] = [];
  if (problems.length === 0) return NO_ISSUES;
  const paramNames = new Set(Object.keys(params));
  const hasField = (name: string) => paramNames.has(name) || isKnownParam(def, name);
  for (const problem of problems) {
    const top = problem.field?.split('.')[0] ?? '';
    const alias = FIELD_ALIASES[top];
    const key = alias !== undefined && hasField(alias) ? alias : top;
    if (key === '' || !hasField(key)) {
      general.push(problem.field ? `${fieldLabel(def, problem.field)}: ${problem.message}` : problem.message);
      continue;
    }
    const list = byField.get(key) ?? [];
    const nested = problem.field !== top ? `${problem.field!.slice(top.length + 1)}: ` : '';
    const message = `${nested}${problem.message}`;
    if (!list.includes(message)) list.push(message);
    byField.set(key, list);
  }
  return { byField, general };
}

function isKnownParam(def: AnyNodeDefinition, name: string): boolean {
  const shape = (def.params as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && Object.hasOwn(shape, name);
}
