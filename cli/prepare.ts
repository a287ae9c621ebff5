/**
 * Everything before a run sends anything: read and load the file, or the workflow inside an image
 * Atelier wrote (through workflow/load, which drops credentials and endpoints), apply `--set`, resolve `--to/--from`, and validate the part
 * that will run, listing every problem at once.
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { registry } from '../nodes/index';
import { catalogueLoadOptions } from '../nodes/load-options';
import { DEFAULT_LOCAL_CHAT_MODEL } from '../server/engines/text/models';
import type { ReviewRequest } from '../workers/backend-review';
import { planRun, planWarnings, type PlanOptions } from '../workers/plan';
import { formatProblem, type WorkflowProblem } from '../workers/validate';
import { ImageEmbedError, embedFormat, extractWorkflow } from '../workflow/embed';
import { WorkflowError, type WorkflowWarning } from '../workflow/errors';
import { ownValue } from '../workflow/keys';
import { DEFAULT_LIMITS } from '../workflow/limits';
import { type LoadResult, loadWorkflow } from '../workflow/load';
import type { Workflow } from '../workflow/schema';
import { applyAppInputs, staleAppWarnings } from './app-inputs';
import { type RunArgs } from './args';
import { PrepareError } from './io';
import { applyOverrides, findNode, parseOverrides, shadowedOverrides, type Override } from './overrides';

export interface PreparedRun {
  workflow: Workflow;
  plan: PlanOptions;
  overrides: Override[];
  chatModel: string;
  /** Worth telling the user (loader warnings, overrides without effect); the run goes ahead. */
  warnings: string[];
}

const LOAD_OPTIONS = catalogueLoadOptions(registry);

/** The workflow text a JPEG or PNG written by Atelier carries. */
function workflowInImage(bytes: Uint8Array, shown: string): string {
  let content;
  try {
    content = extractWorkflow(bytes);
  } catch (error) {
    if (error instanceof ImageEmbedError) throw new PrepareError(`${shown}: ${error.message}`);
    throw error;
  }
  if (content?.workflow === undefined) {
    throw new PrepareError(`${shown} is an image with no Atelier workflow inside (written with --no-embed, or edited by a program that drops metadata)`);
  }
  return content.workflow;
}

/** The workflow file's text, or the workflow embedded in an image Atelier wrote. */
async function readWorkflowFile(path: string, shown: string): Promise<string> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new PrepareError(`${shown} is not a file`);
    // UTF-8 takes at most 4 bytes a character: beyond this the loader would refuse it anyway.
    if (info.size > DEFAULT_LIMITS.maxFileChars * 4) throw new PrepareError(`${shown} is ${info.size} bytes, far beyond what a workflow file may be`);
    const bytes = await readFile(path);
    return embedFormat(bytes) === undefined ? bytes.toString('utf8') : workflowInImage(bytes, shown);
  } catch (error) {
    if (error instanceof PrepareError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable');
    throw new PrepareError(`cannot read ${shown}: ${why}`);
  }
}

/** Chat nodes in the run with no model of their own when there is no default either. */
function chatModelProblems(workflow: Workflow, ids: ReadonlySet<string>, chatModel: string): WorkflowProblem[] {
  if (chatModel !== '') return [];
  return workflow.nodes
    .filter((n) => ids.has(n.id) && n.type === 'chat-prompt-writer')
    .filter((n) => typeof n.params.model !== 'string' || n.params.model.trim() === '')
    .map((n) => ({ nodeId: n.id, field: 'model', message: 'model: no chat model: set one on the node or pass --model NAME (a model the text endpoint serves)' }));
}

/**
 * The workflow with `--set` values laid over it, passed through the loader again: a value from the
 * command line crosses the same boundary as a file (limits, prototype keys, credentials, schema).
 * Warnings the first load gave already are not repeated.
 */
function reloadWithOverrides(loaded: { workflow: Workflow; warnings: readonly WorkflowWarning[] }, changed: Workflow, flag: string, warnings: string[]): Workflow {
  const said = new Set(loaded.warnings.map((w) => `${w.path}: ${w.message}`));
  let again;
  try {
    again = loadWorkflow(JSON.stringify(changed), LOAD_OPTIONS);
  } catch (error) {
    if (error instanceof WorkflowError) throw new PrepareError(`${flag}: ${error.message}`);
    throw error;
  }
  for (const w of again.warnings) {
    if (!said.has(`${w.path}: ${w.message}`)) warnings.push(`${flag}: ${w.path}: ${w.message}`);
  }
  return again.workflow;
}

/** The workflow a run would use, from a file or an image Atelier wrote; PrepareError when it cannot open. */
export async function loadForRun(file: string, cwd: string): Promise<LoadResult> {
  const text = await readWorkflowFile(resolve(cwd, file), file);
  try {
    return loadWorkflow(text, LOAD_OPTIONS);
  } catch (error) {
    if (error instanceof WorkflowError) throw new PrepareError(`${file}: ${error.message}`);
    throw error;
  }
}

/**
 * Loads and checks the run. Throws PrepareError (exit 1) for file and workflow problems (with
 * `review`, what the chosen image backends cannot take too) and UsageError (exit 2) for
 * command-line ones (an unknown node or parameter in `--set`).
 */
export async function prepareRun(args: RunArgs, cwd: string, review?: ReviewRequest): Promise<PreparedRun> {
  const loaded = await loadForRun(args.file, cwd);
  const warnings = loaded.warnings.map((w) => `${args.file}: ${w.path}: ${w.message}`);
  warnings.push(...staleAppWarnings(args.file, loaded.workflow));

  // App inputs first, then `--set`: the lower-level flag has the last word on the same parameter.
  const withInputs = await applyAppInputs(loaded.workflow, args.inputs, cwd);
  const parsed = parseOverrides(withInputs, registry, args.sets, loaded.renamedIds);
  const changed = applyOverrides(withInputs, parsed);
  const flag = args.inputs.length === 0 ? '--set' : parsed.length === 0 ? '--input' : '--input/--set';
  const workflow = changed === loaded.workflow ? loaded.workflow : reloadWithOverrides(loaded, changed, flag, warnings);
  // What the run uses, after the boundary: a value it cleaned is recorded as cleaned.
  const overrides = parsed.map((o) => ({ ...o, value: ownValue(workflow.nodes.find((n) => n.id === o.nodeId)?.params, o.param) }));
  warnings.push(...shadowedOverrides(workflow, registry, overrides));

  const plan: PlanOptions = args.target === undefined
    ? { mode: 'all' }
    : { mode: args.target.mode, nodeId: findNode(workflow, args.target.node, `--${args.target.mode}`, loaded.renamedIds).id };
  const chatModel = args.model ?? (args.textBaseUrl === undefined ? DEFAULT_LOCAL_CHAT_MODEL : '');
  const planned = planRun(workflow, registry, plan, review);
  const inRun = new Set(planned.ok ? planned.plan.nodes.map((n) => n.id) : workflow.nodes.map((n) => n.id));
  const problems = [...(planned.ok ? [] : planned.problems), ...chatModelProblems(workflow, inRun, chatModel)];
  if (problems.length > 0) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    throw new PrepareError(`${args.file}: the workflow cannot run (${count}); nothing was sent`,
      problems.map(formatProblem));
  }
  // A node the chosen backend cannot run is said now; it fails at run time and the rest still runs.
  if (planned.ok) warnings.push(...planWarnings(planned.plan).map(formatProblem));
  return { workflow, plan, overrides, chatModel, warnings };
}
