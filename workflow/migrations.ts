/**
 * Upgrading files written by older versions: an ordered list of small named
 * steps, each reading version N and writing version N + 1, run on the raw JSON before the parse.
 * A file of any version ever written opens by running the steps from its version onwards.
 *
 * To change the format: bump WORKFLOW_VERSION, change the schema, and append one step here that
 * turns the previous version's documents into the new shape. Never edit a published step.
 */
import { WorkflowLoadError, loadError } from './errors';
import { type JsonObject, isJsonObject } from './sanitize';

export interface Migration {
  /** What the step changes, in a few words ('edges-keyed-by-port-name'); shown in warnings. */
  name: string;
  /** The version this step reads; it writes `from + 1` (the runner sets `version`). */
  from: number;
  /** Returns the upgraded document; may change and return its argument. */
  migrate(doc: JsonObject): JsonObject;
  /**
   * True when the step only makes room for optional sections: a file of the older version reads
   * unchanged and is saved in its own version again (versionFor), so opening it is not an upgrade.
   */
  additive?: true;
}

/** Every step ever published, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  // Version 2 adds the optional `components` section; a version 1 document is a version 2 one as it is.
  { name: 'components-section', from: 1, additive: true, migrate: (doc) => doc },
];

/**
 * Whether a file of version `from` opens as what Save writes again: it is the current version, or
 * every step from it is additive (a version 1 file without components is saved as version 1).
 */
export function readsUnchanged(from: number, to: number, migrations: readonly Migration[] = MIGRATIONS): boolean {
  if (from > to) return false;
  for (let version = from; version < to; version++) {
    if (migrations.find((step) => step.from === version)?.additive !== true) return false;
  }
  return true;
}

export interface MigrationResult {
  doc: JsonObject;
  /** Names of the steps that ran, in order. */
  applied: string[];
}

/**
 * Runs the steps that take `doc` from version `from` to version `to`. Throws a WorkflowLoadError
 * when a step is missing (a version this build cannot upgrade) or a step fails on the file.
 */
export function applyMigrations(doc: JsonObject, from: number, to: number, migrations: readonly Migration[] = MIGRATIONS): MigrationResult {
  const byVersion = indexMigrations(migrations);
  const applied: string[] = [];
  let current = doc;
  for (let version = from; version < to; version++) {
    const step = byVersion.get(version);
    if (!step) {
      const oldest = Math.min(to, ...migrations.map((m) => m.from));
      throw loadError('The workflow file is too old for this build to open', 'version',
        `format version ${from} cannot be upgraded: this build opens ${oldest === to ? `version ${to} only` : `versions ${oldest} to ${to}`}`);
    }
    let next: unknown;
    try {
      next = step.migrate(current);
    } catch (error) {
      if (error instanceof WorkflowLoadError) throw error;
      throw loadError('The workflow file could not be upgraded', 'version',
        `upgrading from version ${version} (step '${step.name}') failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!isJsonObject(next)) throw new Error(`Migration '${step.name}' did not return a document`);
    next.version = version + 1;
    current = next;
    applied.push(step.name);
  }
  return { doc: current, applied };
}

/** The steps by the version they read; a list with two steps for one version is a bug. */
function indexMigrations(migrations: readonly Migration[]): Map<number, Migration> {
  const byVersion = new Map<number, Migration>();
  for (const step of migrations) {
    const other = byVersion.get(step.from);
    if (other) throw new Error(`Migrations '${other.name}' and '${step.name}' both read version ${step.from}`);
    byVersion.set(step.from, step);
  }
  return byVersion;
}
