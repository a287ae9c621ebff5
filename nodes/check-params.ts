/**
 * What is wrong with a node's parameters, as a run finds it: the schema, then the definition's
 * own rules that span fields. One function for the editor's forms (as they are typed), the run
 * worker's validation (which remembers answers: workers/params.ts) and the tests.
 */
import type { z } from 'zod';
import { readableIssue } from '../api/issues';
import type { AnyNodeDefinition } from './types';

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
    const message = readableIssue(issue);
    return field === '' ? { message } : { field, message };
  });
}

/**
 * Parses `params` with the definition's schema and runs its `validate`. Problems with a field in
 * `ignore` are dropped: at validation time a connected param port will supply that field, so
 * the form's value for it does not matter yet.
 */
export function checkNodeParams(
  def: AnyNodeDefinition,
  params: Record<string, unknown>,
  connected: ReadonlySet<string>,
  ignore: ReadonlySet<string> = new Set(),
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
