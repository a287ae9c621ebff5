/**
 * A workflow's app on the command line: `--input NAME=VALUE` fills the inputs its author marked,
 * by the names the App view's form shows, and `atelier run FILE --help` lists them with their
 * kinds and defaults. Values are read by the input's kind, never guessed from their look: the
 * prompt "42" stays a text, a seed "42" is a number, an image input takes a file's path.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { type AppField, applyAppValues, appFields, staleAppEntries } from '../nodes/app-fields';
import { withComponents } from '../nodes/component-node';
import { registry, type NodeRegistry } from '../nodes/index';
import { imageMime } from '../nodes/values';
import type { Workflow } from '../workflow/schema';
import { UsageError } from './args';

/** Largest image an image input reads from disk: the loader's own bound on a file's text. */
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/** The node types of `workflow`: the catalogue's, and its components' instances (their shown fields as parameters). */
function typesOf(workflow: Workflow, nodes: NodeRegistry): NodeRegistry {
  return withComponents(nodes, () => workflow.components);
}

/**
 * A warning for each app entry that points at nothing (a node or a parameter the workflow no
 * longer has): the run goes ahead without it, as the app runs nothing of its own; an `--input`
 * naming it is a usage error that says the same.
 */
export function staleAppWarnings(file: string, workflow: Workflow, nodes: NodeRegistry = registry): string[] {
  return staleAppEntries(workflow, typesOf(workflow, nodes))
    .map((e) => `${file}: app.${e.list}[${e.index}]: ${e.message}: this app ${e.list === 'inputs' ? 'input' : 'output'} is ignored (remove it in the editor's App panel)`);
}

function listNames(fields: readonly AppField[]): string {
  return fields.length === 0 ? 'this workflow has no app inputs' : `its inputs are ${fields.map((f) => f.name).join(', ')}`;
}

async function readImage(path: string, cwd: string, flag: string): Promise<unknown> {
  const full = resolve(cwd, path);
  let bytes: Buffer;
  try {
    const info = await stat(full);
    if (!info.isFile()) throw new UsageError(`${flag}: ${path} is not a file`);
    if (info.size > MAX_IMAGE_BYTES) throw new UsageError(`${flag}: ${path} is ${info.size} bytes, more than an image input takes (${MAX_IMAGE_BYTES})`);
    bytes = await readFile(full);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${flag}: cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')}`);
  }
  const b64 = bytes.toString('base64');
  const mime = imageMime(b64);
  if (mime === undefined) throw new UsageError(`${flag}: ${path} is not a JPEG, PNG, WebP or GIF image`);
  return { b64, mime, name: basename(full) };
}

/** The value of `raw` for `field`, read by its kind; a UsageError says what the kind takes. */
async function readValue(field: AppField, raw: string, cwd: string): Promise<unknown> {
  const flag = `--input ${field.name}`;
  switch (field.kind) {
    case 'text':
      return raw;
    case 'number':
    case 'integer': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${flag} takes a number`);
      if (field.kind === 'integer' && !Number.isSafeInteger(n)) throw new UsageError(`${flag} takes a whole number`);
      return n;
    }
    case 'boolean':
      if (raw === 'true' || raw === 'false') return raw === 'true';
      throw new UsageError(`${flag} takes true or false`);
    case 'choice': {
      const found = (field.choices ?? []).find((c) => String(c) === raw);
      if (found === undefined) throw new UsageError(`${flag} takes one of ${(field.choices ?? []).map(String).join(', ')}`);
      return found;
    }
    case 'image':
      return readImage(raw, cwd, flag);
    case 'json':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new UsageError(`${flag} takes a JSON value`);
      }
  }
}

/**
 * The workflow with each `NAME=VALUE` laid over the parameter its app input names, or a UsageError
 * naming the input (unknown, given twice, or a value its kind does not take). The caller passes
 * the result through the loader again, as `--set` does.
 */
export async function applyAppInputs(workflow: Workflow, raw: readonly string[], cwd: string, nodes: NodeRegistry = registry): Promise<Workflow> {
  if (raw.length === 0) return workflow;
  const { fields, problems } = appFields(workflow, typesOf(workflow, nodes));
  const byName = new Map(fields.map((f) => [f.name, f]));
  const values = new Map<string, unknown>();
  for (const given of raw) {
    const eq = given.indexOf('=');
    if (eq <= 0) throw new UsageError(`--input '${given.slice(0, 60)}' is not NAME=VALUE (for example --input prompt="a red fox")`);
    const name = given.slice(0, eq);
    const field = byName.get(name);
    if (field === undefined) {
      const broken = problems.find((p) => p.name === name);
      throw new UsageError(broken ? `--input ${name}: ${broken.message}` : `--input ${name.slice(0, 60)}: no such input; ${listNames(fields)}`);
    }
    if (values.has(name)) throw new UsageError(`--input ${name} is given twice`);
    values.set(name, await readValue(field, given.slice(eq + 1), cwd));
  }
  return applyAppValues(workflow, fields, values);
}

function shown(value: unknown, kind: AppField['kind']): string {
  if (kind === 'image') {
    const name = (value as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? `the file's own (${name})` : 'none';
  }
  if (value === undefined || value === null) return 'none';
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The help text for one workflow's app: each input's flag, label, kind and default. */
export function appHelpText(file: string, workflow: Workflow, nodes: NodeRegistry = registry): string {
  const { fields, problems } = appFields(workflow, typesOf(workflow, nodes));
  const title = workflow.metadata.title.trim() || file;
  if (fields.length === 0 && problems.length === 0) {
    return `${title}: this workflow has no app inputs; set parameters with --set NODE.PARAM=VALUE (atelier --help).\n`;
  }
  const lines = [`${title}`, '', `Usage: atelier run ${file} [--input NAME=VALUE ...] [options]`, '', 'Inputs:'];
  for (const f of fields) {
    const kind = f.kind === 'choice' ? `one of ${(f.choices ?? []).map(String).join(', ')}` : f.kind === 'image' ? 'image file' : f.kind;
    lines.push(`  --input ${f.name}=VALUE`, `      ${f.label} (${kind}; default ${shown(f.value, f.kind)})`);
  }
  for (const p of problems) lines.push(`  ${p.name}: cannot be set: ${p.message}`);
  const outputs = workflow.app?.outputs ?? [];
  if (outputs.length > 0) {
    const titles = new Map(workflow.nodes.map((n) => [n.id, n.title?.trim() || n.id]));
    lines.push('', 'Outputs:', ...outputs.map((o) => `  ${o.label?.trim() || titles.get(o.node) || o.node}`));
  }
  lines.push('', "Every other option: atelier --help");
  return `${lines.join('\n')}\n`;
}
