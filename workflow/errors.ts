/** What the loader reports: problems that stop a file from opening, and warnings that do not. */

/** One problem, at one place in the file. */
export interface WorkflowIssue {
  /** Where, as `nodes[2].params.prompt`; `(file)` for the file as a whole. */
  path: string;
  message: string;
}

export type WorkflowWarningCode =
  /** A node type this build does not know: kept verbatim, shown as unknown, not runnable. */
  | 'unknown-node-type'
  /** A key or value that looks like a credential or an endpoint was removed. */
  | 'credential-dropped'
  /** Free text (a prompt, a description) contains something credential-shaped; kept as written. */
  | 'credential-in-text'
  /** `__proto__`, `constructor` or `prototype` was removed. */
  | 'unsafe-key-dropped'
  /** An id that is a name objects answer to on their own (`toString`) was renamed; what refers to it follows. */
  | 'unsafe-id-renamed'
  /** The file was written by a newer Atelier and opened best-effort. */
  | 'newer-version'
  /** A field from a newer version that this build does not understand; not kept on save. */
  | 'unknown-field-dropped'
  /** The file was upgraded from an older version. */
  | 'migrated'
  /** A component's stored content hash did not match its content (edited by hand): the hash is recomputed. */
  | 'component-hash-fixed';

export interface WorkflowWarning extends WorkflowIssue {
  code: WorkflowWarningCode;
  /** The node the warning is about, when it is about one. */
  nodeId?: string;
}

/** Most issues listed in an error's message; `issues` holds them all (up to MAX_ISSUES). */
const LISTED_IN_MESSAGE = 20;
/** A hostile file can have a problem per edge; past this many, more add nothing. */
export const MAX_ISSUES = 200;

/** A workflow that is not valid, with every problem found and where it is. */
export class WorkflowError extends Error {
  override name = 'WorkflowError';
  readonly issues: readonly WorkflowIssue[];
  /** What is wrong in one phrase, without the count and list the message adds. */
  readonly summary: string;

  constructor(summary: string, issues: readonly WorkflowIssue[]) {
    super(formatMessage(summary, issues));
    this.issues = issues.slice(0, MAX_ISSUES);
    this.summary = summary;
  }
}

/** A workflow file that cannot be opened. */
export class WorkflowLoadError extends WorkflowError {
  override name = 'WorkflowLoadError';
}

/** A workflow that cannot be written as a file (it would not open again). */
export class WorkflowSaveError extends WorkflowError {
  override name = 'WorkflowSaveError';
}

function formatMessage(summary: string, issues: readonly WorkflowIssue[]): string {
  if (issues.length === 0) return summary;
  const listed = issues.slice(0, LISTED_IN_MESSAGE).map((i) => `  - ${i.path}: ${i.message}`);
  const rest = issues.length - listed.length;
  if (rest > 0) listed.push(`  - …and ${rest} more`);
  const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
  return `${summary} (${count}):\n${listed.join('\n')}`;
}

/** Most warnings of one kind kept; a hostile file could otherwise produce millions. */
export const MAX_WARNINGS_PER_CODE = 200;

/** One per node at most, so bounded by the node limit; the editor marks every unknown node. */
const UNCAPPED: ReadonlySet<WorkflowWarningCode> = new Set(['unknown-node-type']);

/**
 * Collects warnings, keeping the first MAX_WARNINGS_PER_CODE of each code and counting the rest,
 * so memory stays bounded however many a file provokes.
 */
export class WarningSink {
  private readonly kept: WorkflowWarning[] = [];
  private readonly counts = new Map<WorkflowWarningCode, number>();

  add(warning: WorkflowWarning): void {
    const count = (this.counts.get(warning.code) ?? 0) + 1;
    this.counts.set(warning.code, count);
    if (count <= MAX_WARNINGS_PER_CODE || UNCAPPED.has(warning.code)) this.kept.push(warning);
  }

  /** The kept warnings in the order they came, then one line per code that overflowed. */
  list(): WorkflowWarning[] {
    const out = [...this.kept];
    for (const [code, count] of this.counts) {
      if (count > MAX_WARNINGS_PER_CODE && !UNCAPPED.has(code)) {
        out.push({ code, path: '(file)', message: `…and ${count - MAX_WARNINGS_PER_CODE} more like the ones above` });
      }
    }
    return out;
  }
}

/** Shorthand for an error with a single issue. */
export function loadError(summary: string, path: string, message: string): WorkflowLoadError {
  return new WorkflowLoadError(summary, [{ path, message }]);
}
