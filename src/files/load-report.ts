/**
 * What opening someone's file found, in words: credential-like fields first, then everything
 * else, each named by field label and node title ("Negative prompt of “Hero shot”") rather than
 * by path.
 */
import type { NodeRegistry } from '../../nodes/index';
import { fieldLabel, nodeName } from '../../nodes/labels';
import type { WorkflowError, WorkflowIssue, WorkflowWarning } from '../../workflow/errors';
import type { ExportFinding } from '../../workflow/export-scan';
import type { Workflow, WorkflowNode } from '../../workflow/schema';

export interface LoadReport {
  summary: string;
  issues: WorkflowIssue[];
  /** How many fields looked like credentials (removed, or kept in prose). */
  credentials: number;
}

const CREDENTIAL_CODES = new Set(['credential-dropped', 'credential-in-text']);

/** `nodes[2].params.api_key` → `api_key`; `notes[0].text` → `text`. */
function fieldOf(path: string, after: RegExp): string {
  const match = after.exec(path);
  return match ? path.slice(match[0].length) || '(the whole node)' : path;
}

/**
 * A node as the canvas names it; when others share that name, which of them in the workflow's
 * order ("(2 of 3)"), since the id that tells them apart is shown nowhere.
 */
function nameOf(node: WorkflowNode, workflow: Workflow, registry: NodeRegistry): string {
  const name = nodeName(node, registry.get(node.type));
  const twins = workflow.nodes.filter((n) => nodeName(n, registry.get(n.type)) === name);
  return twins.length > 1 ? `“${name}” (${twins.indexOf(node) + 1} of ${twins.length})` : `“${name}”`;
}

/** Where a warning or an export finding points, as a person names it: field label and node title. */
export function placeOf(warning: Pick<WorkflowWarning, 'path' | 'nodeId'>, workflow: Workflow, registry: NodeRegistry): string {
  const node = warning.nodeId === undefined ? undefined : workflow.nodes.find((n) => n.id === warning.nodeId);
  if (node) {
    const field = fieldOf(warning.path, /^nodes\[\d+\]\.(?:params\.?)?/);
    const isParam = /^nodes\[\d+\]\.params\./.test(warning.path);
    return `${isParam ? fieldLabel(registry.get(node.type), field) : field} of ${nameOf(node, workflow, registry)}`;
  }
  const note = /^notes\[(\d+)\]/.exec(warning.path);
  if (note) return `note #${Number(note[1]) + 1}`;
  const group = /^groups\[(\d+)\]/.exec(warning.path);
  if (group) return `group “${workflow.groups?.[Number(group[1])]?.title ?? Number(group[1]) + 1}”`;
  if (warning.path.startsWith('metadata.')) return `the workflow's ${warning.path.slice('metadata.'.length)}`;
  return warning.path;
}

/** Where each finding of the credential scan is, as a person names it (the scan's own words outside nodes). */
export function findingPlaces(findings: readonly ExportFinding[], workflow: Workflow, registry: NodeRegistry): string[] {
  return findings.map((f) => (f.nodeId === undefined ? f.field : placeOf(f, workflow, registry)));
}

/** The warnings of an opened file as a readable report. */
export function loadReport(source: string, warnings: readonly WorkflowWarning[], workflow: Workflow, registry: NodeRegistry): LoadReport {
  const credential = warnings.filter((w) => CREDENTIAL_CODES.has(w.code));
  const rest = warnings.filter((w) => !CREDENTIAL_CODES.has(w.code));
  const issues = [...credential, ...rest].map((w) => ({ path: placeOf(w, workflow, registry), message: w.message }));
  if (credential.length === 0) return { summary: `${source} opened. Read these before running or sharing it:`, issues, credentials: 0 };
  const dropped = credential.filter((w) => w.code === 'credential-dropped').length;
  const kept = credential.length - dropped;
  const parts = [
    dropped > 0 ? `${dropped === 1 ? 'one field' : `${dropped} fields`} named or shaped like a key, token or endpoint ${dropped === 1 ? 'was' : 'were'} removed` : '',
    kept > 0 ? `${kept === 1 ? 'one text holds' : `${kept} texts hold`} what looks like a credential and ${kept === 1 ? 'was' : 'were'} kept as written: remove ${kept === 1 ? 'it' : 'them'} before you share the file` : '',
  ].filter(Boolean);
  return {
    summary: `${source} opened, but it held what looks like credentials: ${parts.join('; ')}. `
      + 'A workflow cannot change where requests go or which token they carry: those stay in your settings.',
    issues,
    credentials: credential.length,
  };
}

/**
 * The sentence above a refused file's problems: "The workflow file is not valid JSON (1 problem).
 * Your current workflow is unchanged." Built from the error's parts, not its multi-line message.
 */
export function refusalSummary(error: WorkflowError): string {
  const n = error.issues.length;
  const count = n === 0 ? '' : ` (${n === 1 ? '1 problem' : `${n} problems`})`;
  return `${error.summary}${count}. Your current workflow is unchanged.`;
}
