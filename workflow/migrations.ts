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
}

/** Every step ever published, oldest first. Version 1 is the first version: nothing to do yet. */
export const MIGRATIONS: readonly Migration[] = [];

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
