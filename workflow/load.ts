/**
 * Opening a workflow file: the one boundary every file crosses, in the editor, the worker and the
 * CLI alike. The steps, in order, each on a document the previous ones made safe:
 * size → JSON → depth, keys and strings (sanitize) → format and version → migrations or newer-
 * version handling → node and edge counts → credentials removed → schema and cross-checks → ids
 * that are not safe keys renamed → unknown node types reported. The version decides the path taken; nothing is tried and retried.
 */
import type { z } from 'zod';
import { findCredentialLike } from './credentials';
import { COMPONENT_TYPE_PREFIX, componentHash } from './components';
import { versionFor } from './format';
import { type WorkflowIssue, type WorkflowWarning, MAX_ISSUES, WarningSink, WorkflowLoadError, loadError } from './errors';
import { parseJsonText } from './json-text';
import { DEFAULT_LIMITS, type WorkflowLimits } from './limits';
import { type Migration, MIGRATIONS, applyMigrations, readsUnchanged } from './migrations';
import { dropUnknownFields } from './newer';
import { formatPath } from './path';
import { type JsonObject, isJsonObject, sanitizeJson } from './sanitize';
import { type Workflow, WORKFLOW_FORMAT, WORKFLOW_VERSION, WorkflowSchema } from './schema';
import { type RenamedIds, renameUnsafeIds } from './safe-ids';
import { type DeclaredParams, scrubCredentials } from './scrub';

export interface LoadOptions {
  /** Node types this build can run; any other type is kept verbatim and reported. */
  knownTypes?: ReadonlySet<string>;
  /**
   * The params a node type declares. A declared param may have an endpoint-like name (`url`);
   * an undeclared one is removed. Credential-named params are removed whatever is declared.
   */
  declaredParams?: DeclaredParams;
  /** Tighter bounds than DEFAULT_LIMITS (the schema holds node and edge counts to the defaults). */
  limits?: Partial<WorkflowLimits>;
  /** Replaces the published migration steps; for testing the mechanism. */
  migrations?: readonly Migration[];
}

export interface LoadResult {
  workflow: Workflow;
  /** Things changed or worth knowing, each with where; the file opened regardless. */
  warnings: WorkflowWarning[];
  /** The format version the file was written in (migrated or not). */
  fromVersion: number;
  /** Node ids renamed because they were not safe keys (safe-ids.ts): old id → new id. */
  renamedIds: RenamedIds;
}

const CANNOT_OPEN = 'The workflow file cannot be opened';
const SECRETS_STAY_HOME = 'a workflow never carries credentials or endpoints: they are your settings, not the file\'s';

/**
 * Reads, checks and cleans a workflow file. Throws a WorkflowLoadError listing every problem
 * with its path; anything it fixed or kept as unknown comes back as warnings.
 */
export function loadWorkflow(text: string, options: LoadOptions = {}): LoadResult {
  const limits: WorkflowLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const parsed = parseJsonText(text, limits.maxFileChars);
  const warnings = new WarningSink();
  const sanitized = sanitizeJson(parsed, limits, warnings);
  if (sanitized.issues.length > 0) throw new WorkflowLoadError('The workflow file is beyond what Atelier opens', sanitized.issues);

  if (!isJsonObject(sanitized.value)) {
    throw loadError(CANNOT_OPEN, '(file)', `expected a JSON object with "format": "${WORKFLOW_FORMAT}", found ${describeJson(sanitized.value)}`);
  }
  const fromVersion = readVersion(sanitized.value);
  let doc = sanitized.value;

  const newer = fromVersion > WORKFLOW_VERSION;
  if (fromVersion < WORKFLOW_VERSION) {
    const { doc: upgraded, applied } = applyMigrations(doc, fromVersion, WORKFLOW_VERSION, options.migrations ?? MIGRATIONS);
    doc = upgraded;
    // A step that only makes room for a new section changes nothing in this file: no upgrade to tell.
    if (!readsUnchanged(fromVersion, WORKFLOW_VERSION, options.migrations ?? MIGRATIONS)) warnings.add({
      code: 'migrated',
      path: 'version',
      message: `upgraded from format version ${fromVersion} to ${WORKFLOW_VERSION} (${applied.join(', ')}); saving writes version ${WORKFLOW_VERSION}`,
    });
  } else if (newer) {
    warnings.add({
      code: 'newer-version',
      path: 'version',
      message: `written by a newer Atelier (format version ${fromVersion}; this build writes ${WORKFLOW_VERSION}): opened best-effort, and saving writes version ${WORKFLOW_VERSION}`,
    });
  }

  checkCounts(doc, limits);
  doc = scrubCredentials(doc, options.declaredParams, (finding) => {
    const warning: WorkflowWarning = finding.freeText
      ? { code: 'credential-in-text', path: finding.path, message: `${finding.message}; kept as written: remove it before sharing the file` }
      : { code: 'credential-dropped', path: finding.path, message: `${finding.message}; removed: ${SECRETS_STAY_HOME}` };
    if (finding.nodeId !== undefined) warning.nodeId = finding.nodeId;
    warnings.add(warning);
  });

  if (newer) {
    // After the credential pass, so a newer secret-bearing field is reported as what it is.
    dropUnknownFields(doc, fromVersion, warnings);
    doc.version = WORKFLOW_VERSION;
  }

  const checked = parseDocument(doc, newer
    ? `The workflow file was written by a newer Atelier (format version ${fromVersion}) and this build cannot read it`
    : CANNOT_OPEN);
  // After the parse, which proved the ids unique and every edge's ends present.
  const { workflow, renamed } = renameUnsafeIds(checked, warnings);
  checkHashes(workflow, warnings);
  // In memory the version says what the content needs, as Save will write it.
  workflow.version = versionFor(workflow);
  if (options.knownTypes) reportUnknownTypes(workflow, options.knownTypes, warnings);
  return { workflow, warnings: warnings.list(), fromVersion, renamedIds: renamed };
}

/** The file's format version, or a load error saying why there is none. */
function readVersion(doc: JsonObject): number {
  const { format, version } = doc;
  if (format === undefined) {
    const andVersion = version === undefined ? ' and no "version"' : '';
    const comfy = 'last_node_id' in doc || 'links' in doc ? ' (it looks like a ComfyUI workflow)' : '';
    throw loadError('This is not an Atelier workflow file', '(file)',
      `it has no "format": "${WORKFLOW_FORMAT}"${andVersion}${comfy}`);
  }
  if (format !== WORKFLOW_FORMAT) {
    throw loadError('This is not an Atelier workflow file', 'format', `expected "${WORKFLOW_FORMAT}", found ${describeJson(format)}`);
  }
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) {
    throw loadError(CANNOT_OPEN, 'version',
      version === undefined ? 'missing: a workflow file says which version of the format it uses' : 'must be a whole number such as 1');
  }
  return version;
}

function checkCounts(doc: JsonObject, limits: WorkflowLimits): void {
  const issues: WorkflowIssue[] = [];
  const { nodes, edges } = doc;
  if (Array.isArray(nodes) && nodes.length > limits.maxNodes) {
    issues.push({ path: 'nodes', message: `${nodes.length} nodes, the limit is ${limits.maxNodes}` });
  }
  if (Array.isArray(edges) && edges.length > limits.maxEdges) {
    issues.push({ path: 'edges', message: `${edges.length} edges, the limit is ${limits.maxEdges}` });
  }
  if (issues.length > 0) throw new WorkflowLoadError('The workflow file is beyond what Atelier opens', issues);
}

/** Says what is missing where zod's default would only say "received undefined". */
const errorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type' && issue.input === undefined) return `missing (expected ${issue.expected})`;
  return undefined;
};

function parseDocument(doc: JsonObject, summary: string): Workflow {
  const result = WorkflowSchema.safeParse(doc, { error: errorMap });
  if (result.success) return result.data;
  const issues: WorkflowIssue[] = [];
  for (const issue of result.error.issues.slice(0, MAX_ISSUES)) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({ path: formatPath([...path, key]), message: `unknown field (format version ${WORKFLOW_VERSION} has no such field; a typo?)` });
      }
    } else {
      issues.push({ path: formatPath(path), message: issue.message });
    }
  }
  throw new WorkflowLoadError(summary, issues);
}

function reportUnknownTypes(workflow: Workflow, knownTypes: ReadonlySet<string>, warnings: WarningSink): void {
  const defined = new Set((workflow.components ?? []).map((c) => COMPONENT_TYPE_PREFIX + c.id));
  workflow.nodes.forEach((node, i) => {
    if (knownTypes.has(node.type) || defined.has(node.type)) return;
    if (node.type.startsWith(COMPONENT_TYPE_PREFIX)) {
      warnings.add({
        code: 'unknown-node-type',
        path: formatPath(['nodes', i, 'type']),
        nodeId: node.id,
        message: `node '${node.id}' is an instance of component '${node.type.slice(COMPONENT_TYPE_PREFIX.length)}', whose definition is not in the file: it is kept as it is and cannot run`,
      });
      return;
    }
    warnings.add({
      code: 'unknown-node-type',
      path: formatPath(['nodes', i, 'type']),
      nodeId: node.id,
      message: `node '${node.id}' has type '${node.type}', which this build does not know: it is kept as it is and cannot run`,
    });
  });
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const plain = value.length <= 40 && /^[\w.:/ -]*$/.test(value) && !findCredentialLike(value);
    return plain ? JSON.stringify(value) : 'another text';
  }
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A definition whose stored hash is not its content's was edited by hand: said, and the hash put right. */
function checkHashes(workflow: Workflow, warnings: WarningSink): void {
  workflow.components?.forEach((def, i) => {
    const hash = componentHash(def);
    if (hash === def.hash) return;
    def.hash = hash;
    warnings.add({
      code: 'component-hash-fixed',
      path: formatPath(['components', i, 'hash']),
      message: `component '${def.id}' does not match its content hash (edited outside Atelier?): its content is kept and the hash recomputed`,
    });
  });
}
