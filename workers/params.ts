/**
 * Parameter checks shared by validation (before a run) and run-node (with the values that
 * arrived through param ports): the schema, then the definition's own cross-field rules.
 */
import type { z } from 'zod';
import { fieldLabel } from '../nodes/labels';
import type { AnyNodeDefinition, PortSpec, Value } from '../nodes/types';
import { copyPlain, createMemo, exactKey } from './memo';

/** One thing wrong with a parameter; `field` is its dotted path, absent for the whole object. */
export interface ParamProblem {
  field?: string;
  message: string;
}

export type ParamCheck =
  | { ok: true; params: Record<string, unknown> }
  | { ok: false; problems: ParamProblem[] };

export function zodProblems(error: z.ZodError): ParamProblem[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return { field: issue.keys.join(', '), message: `${issue.keys.map((k) => `'${k}'`).join(', ')} is not a parameter of this node` };
    }
    const field = issue.path.map(String).join('.');
    return field === '' ? { message: issue.message } : { field, message: issue.message };
  });
}

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
 * Parses `params` with the definition's schema and runs its `validate`. Problems with a field in
 * `ignore` are dropped: at validation time a connected param port will supply that field, so
 * the form's value for it does not matter yet.
 */
export function checkParams(
  def: AnyNodeDefinition,
  params: Record<string, unknown>,
  connected: ReadonlySet<string>,
  ignore: ReadonlySet<string> = new Set(),
): ParamCheck {
  const content = exactKey(params);
  if (content === undefined) return checkParamsNow(def, params, connected, ignore);
  // The sets in their own order: `validate` is handed `connected` as it is.
  const key = `${defId(def)}|${content}|${JSON.stringify([...connected])}|${JSON.stringify([...ignore])}`;
  let check = checks.get(key);
  if (check === undefined) {
    check = checkParamsNow(def, params, connected, ignore);
    // Kept only when it is plain data, so the copies handed out are exact.
    if (check.ok && exactKey(check.params, Infinity) === undefined) return check;
    checks.set(key, check);
  }
  return copyPlain(check);
}

function checkParamsNow(
  def: AnyNodeDefinition,
  params: Record<string, unknown>,
  connected: ReadonlySet<string>,
  ignore: ReadonlySet<string>,
): ParamCheck {
  const relevant = (p: ParamProblem) => p.field === undefined || !ignore.has(p.field.split('.')[0]!);
  const parsed = def.params.safeParse(params);
  if (!parsed.success) {
    const schemaProblems = zodProblems(parsed.error);
    // Every problem at once: the cross-field rules still run on the fields that did parse, with
    // the broken ones left to their defaults, so a bad sampler does not hide a bad resolution.
    // With only ignored fields wrong there is nothing to report yet: the run checks again once
    // the ports have delivered.
    const broken = new Set(schemaProblems.map((p) => p.field?.split('.')[0]).filter((f): f is string => f !== undefined));
    const rest = Object.fromEntries(Object.entries(params).filter(([key]) => !broken.has(key)));
    const reparsed = broken.size > 0 ? def.params.safeParse(rest) : undefined;
    const crossField = reparsed?.success
      ? crossFieldProblems(def, reparsed.data as Record<string, unknown>, connected).filter((p) => p.field === undefined || !broken.has(p.field.split('.')[0]!))
      : [];
    return { ok: false, problems: [...schemaProblems, ...crossField].filter(relevant) };
  }
  const value = parsed.data as Record<string, unknown>;
  const problems = crossFieldProblems(def, value, connected).filter(relevant);
  return problems.length === 0 ? { ok: true, params: value } : { ok: false, problems };
}

/** The definition's own rules that span fields (`validate`), as problems. */
function crossFieldProblems(def: AnyNodeDefinition, value: Record<string, unknown>, connected: ReadonlySet<string>): ParamProblem[] {
  try {
    return (def.validate?.(value, connected) ?? []).map((i) => ({ field: i.param, message: i.message }));
  } catch (error) {
    return [{ message: `its parameter check failed: ${error instanceof Error ? error.message : String(error)}` }];
  }
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
    const value = port.param === undefined ? undefined : inputs[port.name];
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
