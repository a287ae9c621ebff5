/**
 * Parameter checks as validation (before a run) and run-node (with the values that arrived
 * through param ports) make them: the nodes' own check (nodes/check-params.ts, which the editor's
 * forms call too), remembered; the schema's parse with defaults; param ports laid over the form.
 */
import { checkNodeParams, type ParamCheck, type ParamProblem } from '../nodes/check-params';
import { fieldLabel } from '../nodes/labels';
import type { AnyNodeDefinition, PortSpec, Value } from '../nodes/types';
import { copyPlain, createMemo, exactKey } from './memo';
import { ownValue } from '../workflow/keys';

/**
 * The schema and `validate` are pure functions of the parameters (and of the connected ports),
 * and the plan, the executor and the estimate ask the same of every node on every run and every
 * estimate, with a fresh copy of the workflow each time: results are kept, keyed by the
 * definition and the content (memo.ts). Values that cannot be keyed exactly are checked afresh.
 * One memo for all definitions, so the bound is the bound: a few megabytes at most.
 */
const MEMO_BOUNDS = { maxEntries: 4096, maxKeyChars: 1024 * 1024 };
const checks = createMemo<ParamCheck>(MEMO_BOUNDS);
const parses = createMemo<{ data: Record<string, unknown> | undefined }>(MEMO_BOUNDS);
const defIds = new WeakMap<AnyNodeDefinition, number>();
let nextDefId = 0;

/** A number per definition object: two definitions of one type (tests, versions) never share entries. */
function defId(def: AnyNodeDefinition): number {
  let id = defIds.get(def);
  if (id === undefined) {
    id = nextDefId++;
    defIds.set(def, id);
  }
  return id;
}

/** `params` parsed by the definition's schema (defaults filled in), or undefined where they do not parse. */
export function parseParams(def: AnyNodeDefinition, params: Record<string, unknown>): Record<string, unknown> | undefined {
  const parseNow = () => {
    const parsed = def.params.safeParse(params);
    return parsed.success ? (parsed.data as Record<string, unknown>) : undefined;
  };
  const content = exactKey(params);
  if (content === undefined) return parseNow();
  const key = `${defId(def)}|${content}`;
  let entry = parses.get(key);
  if (entry === undefined) {
    entry = { data: parseNow() };
    if (entry.data !== undefined && exactKey(entry.data, Infinity) === undefined) return entry.data;
    parses.set(key, entry);
  }
  return copyPlain(entry.data);
}

/**
 * `checkNodeParams` (nodes/check-params.ts), remembered: the same answer for the same
 * definition, parameters and ports, copied out so no caller can change another's.
 */
export function checkParams(
  def: AnyNodeDefinition,
  params: Record<string, unknown>,
  connected: ReadonlySet<string>,
  ignore: ReadonlySet<string> = new Set(),
): ParamCheck {
  const content = exactKey(params);
  if (content === undefined) return checkNodeParams(def, params, connected, ignore);
  // The sets in their own order: `validate` is handed `connected` as it is.
  const key = `${defId(def)}|${content}|${JSON.stringify([...connected])}|${JSON.stringify([...ignore])}`;
  let check = checks.get(key);
  if (check === undefined) {
    check = checkNodeParams(def, params, connected, ignore);
    // Kept only when it is plain data, so the copies handed out are exact.
    if (check.ok && exactKey(check.params, Infinity) === undefined) return check;
    checks.set(key, check);
  }
  return copyPlain(check);
}

/** A value as a parameter takes it: the text, the number, the image or the list of images. */
export function paramValue(value: Value): unknown {
  return value.value;
}

/**
 * The node's form parameters with every connected param port's value laid over them
 * (a connected port wins over the form, nodes/types.ts PortSpec.param).
 */
export function mergeParamPorts(
  params: Record<string, unknown>,
  ports: readonly PortSpec[],
  inputs: Readonly<Record<string, Value | undefined>>,
): Record<string, unknown> {
  let merged: Record<string, unknown> | undefined;
  for (const port of ports) {
    const value = port.param === undefined ? undefined : ownValue(inputs, port.name);
    if (port.param === undefined || value === undefined) continue;
    merged ??= { ...params };
    merged[port.param] = paramValue(value);
  }
  return merged ?? params;
}

/** Problems of a node of type `def` as one readable line each: `Field label: message`. */
export function describeProblems(problems: readonly ParamProblem[], def: AnyNodeDefinition): string {
  return problems.map((p) => (p.field === undefined ? p.message : `${fieldLabel(def, p.field)}: ${p.message}`)).join('; ');
}
