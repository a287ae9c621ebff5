/**
 * Keeping the app true to the graph: after any change of the document, app entries that point at
 * what it no longer has (a deleted node, a parameter a component's face stopped showing) are
 * removed in the same undo step, and an app left empty with them. Undo brings them back with the
 * change. The store says what it removed (`appPruned`), for the page to tell the person. Entries
 * that pointed at nothing before the change are not its doing and are left to the person.
 */
import { produceWithPatches, type Patch } from 'immer';
import { staleAppEntries, type StaleAppEntry } from '../../nodes/app-fields';
import type { NodeRegistry } from '../../nodes/index';
import type { Workflow } from '../../workflow/schema';

/** What one change took out of the app. */
export interface AppPruned {
  /** Counts up, so the same entries removed twice are told twice. */
  seq: number;
  entries: readonly StaleAppEntry[];
}

/** Which entry, whatever its place: inputs by name, outputs by node (each unique in its list). */
const entryKey = (entry: StaleAppEntry): string => JSON.stringify([entry.list, entry.key]);

/**
 * `change` (a document with its patches) with the app's stale entries removed as part of it, and
 * those entries. Only a change that touched the nodes, the components or the app is looked at:
 * typing in a field of a workflow without an app costs nothing.
 */
export function pruneStaleApp(before: Workflow, change: [Workflow, Patch[], Patch[]], registry: (doc: Workflow) => NodeRegistry): [[Workflow, Patch[], Patch[]], StaleAppEntry[]] {
  const [doc, patches, inverse] = change;
  if (patches.length === 0 || doc.app === undefined) return [change, []];
  if (doc.nodes === before.nodes && doc.components === before.components && doc.app === before.app) return [change, []];
  // Only what this change broke: an entry that was stale already (a file from an older build) stays
  // for the app panel to show as missing, rather than going with some unrelated edit.
  const already = new Set(staleAppEntries(before, registry(before)).map(entryKey));
  const stale = staleAppEntries(doc, registry(doc)).filter((entry) => !already.has(entryKey(entry)));
  if (stale.length === 0) return [change, []];
  const gone = { inputs: new Set<number>(), outputs: new Set<number>() };
  for (const entry of stale) gone[entry.list].add(entry.index);
  const [pruned, more, undoMore] = produceWithPatches(doc, (draft) => {
    const app = draft.app!;
    app.inputs = app.inputs.filter((_, i) => !gone.inputs.has(i));
    app.outputs = app.outputs.filter((_, i) => !gone.outputs.has(i));
    if (app.inputs.length === 0 && app.outputs.length === 0) delete draft.app;
  });
  return [[pruned, [...patches, ...more], [...undoMore, ...inverse]], stale];
}
