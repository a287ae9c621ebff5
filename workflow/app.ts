/**
 * A workflow's app: the inputs and outputs its author chose to show people who never open the
 * graph. The editor's App view draws them as a form and a gallery, and the CLI takes the inputs
 * as named values (`--input prompt="..."`). It is a list over the graph, nothing more: it runs
 * nothing of its own, so a workflow with an app runs exactly as it does without one.
 *
 * It refers to nodes by id and to parameters by name, like `--set`; whether a parameter exists is
 * the node type's business (nodes/app-fields.ts), whether a node exists the file's (checkApp).
 */
import { z } from 'zod';
import { TEXT_LIMITS } from './limits';

/** At most this many inputs and outputs each: a form, not a second graph. */
export const MAX_APP_ITEMS = 200;

/** An input's name is a command-line word (`--input prompt=...`): a letter, then letters, digits, '_' and '-'. */
const APP_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
export const APP_NAME_RULE = "a letter, then letters, digits, '_' and '-'";

// The node id's own rules are the nodes' (schema.ts); an id that names no node is refused by checkApp.
const nodeRef = z.string().min(1, 'must not be empty').max(TEXT_LIMITS.id).describe('The id of a node in this workflow.');
const label = z.string().max(TEXT_LIMITS.title).optional().describe('What the form or the gallery calls it; the node and parameter titles when absent.');

export const AppInputSchema = z.strictObject({
  name: z.string().min(1, 'must not be empty').max(64).regex(APP_NAME, APP_NAME_RULE)
    .describe('The input\'s name on the command line (`--input NAME=VALUE`); unique among the inputs.'),
  node: nodeRef,
  param: z.string().min(1, 'must not be empty').max(TEXT_LIMITS.port).regex(/^\P{Cc}+$/u, 'must not contain control characters')
    .describe("The parameter's name, as the node type defines it (an Image loader's `image`, a Text node's `text`)."),
  label,
});
export type AppInput = z.infer<typeof AppInputSchema>;

export const AppOutputSchema = z.strictObject({
  node: nodeRef.describe('A Preview / save node whose results the app shows.'),
  label,
});
export type AppOutput = z.infer<typeof AppOutputSchema>;

export const AppSchema = z.strictObject({
  inputs: z.array(AppInputSchema).max(MAX_APP_ITEMS).default([]).describe('The form, in order.'),
  outputs: z.array(AppOutputSchema).max(MAX_APP_ITEMS).default([]).describe('The gallery, in order.'),
}).describe('The workflow shown as a form: the inputs people fill in and the outputs they get. Absent when the workflow has no app.');
export type App = z.infer<typeof AppSchema>;

interface AppIssue {
  path: (string | number)[];
  message: string;
}

/**
 * What no field of the app can check alone: names unique, each node present, a parameter or an
 * output listed once. Keys are a file's names, so everything is kept in Maps.
 */
export function checkApp(app: App | undefined, nodeIds: ReadonlySet<string> | ReadonlyMap<string, unknown>): AppIssue[] {
  if (app === undefined) return [];
  const issues: AppIssue[] = [];
  const names = new Map<string, number>();
  const params = new Map<string, number>();
  (app.inputs ?? []).forEach((input, i) => {
    const at = (field: string) => ['app', 'inputs', i, field];
    const first = names.get(input.name);
    if (first === undefined) names.set(input.name, i);
    else issues.push({ path: at('name'), message: `duplicate input name '${input.name}' (also app.inputs[${first}])` });
    if (!nodeIds.has(input.node)) {
      issues.push({ path: at('node'), message: `no node '${input.node}'` });
      return;
    }
    const key = JSON.stringify([input.node, input.param]);
    const same = params.get(key);
    if (same === undefined) params.set(key, i);
    else issues.push({ path: at('param'), message: `parameter '${input.param}' of node '${input.node}' is already app.inputs[${same}]` });
  });
  const outputs = new Map<string, number>();
  (app.outputs ?? []).forEach((output, i) => {
    const at = ['app', 'outputs', i, 'node'];
    if (!nodeIds.has(output.node)) {
      issues.push({ path: at, message: `no node '${output.node}'` });
      return;
    }
    const first = outputs.get(output.node);
    if (first === undefined) outputs.set(output.node, i);
    else issues.push({ path: at, message: `node '${output.node}' is already app.outputs[${first}]` });
  });
  return issues;
}

/** The app with node ids renamed (`renamed`: old → new), or the same object when none is. */
export function renameAppNodes(app: App, renamed: ReadonlyMap<string, string>): App {
  if (renamed.size === 0) return app;
  const node = (id: string) => renamed.get(id) ?? id;
  return {
    inputs: app.inputs.map((input) => (renamed.has(input.node) ? { ...input, node: node(input.node) } : input)),
    outputs: app.outputs.map((output) => (renamed.has(output.node) ? { ...output, node: node(output.node) } : output)),
  };
}

/** Whether the app has anything to show: an app with no inputs and no outputs is not written. */
export function hasApp(app: App | undefined): app is App {
  return app !== undefined && (app.inputs.length > 0 || app.outputs.length > 0);
}
