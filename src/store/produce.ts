/**
 * How the store changes the document: immer's patches, one entry per gesture in the history, so
 * undo and redo replay exactly what a change did.
 */
import { applyPatches, enablePatches, produceWithPatches, type Draft, type Patch } from 'immer';
import { touchModified } from '../../workflow/create';
import type { Workflow } from '../../workflow/schema';

enablePatches();

/** The document after `recipe`, with the patches that redo and undo it; no patches when nothing changed. */
export function produceChange(doc: Workflow, recipe: (draft: Draft<Workflow>) => void): [Workflow, Patch[], Patch[]] {
  const [next, patches, inverse] = produceWithPatches(doc, recipe);
  return [next, patches, inverse];
}

/**
 * A change of the document, with `metadata.modified` moved to `at` (never before `created`) as
 * part of it: the time of the last edit is the document's, so undoing the edit restores the time
 * it had, and saving writes the time of the last edit rather than of the save.
 */
export function stampModified([doc, patches, inverse]: [Workflow, Patch[], Patch[]], at: Date): [Workflow, Patch[], Patch[]] {
  const modified = touchModified(doc, () => at).metadata.modified;
  if (patches.length === 0 || modified === doc.metadata.modified) return [doc, patches, inverse];
  const [stamped, more, undoMore] = produceWithPatches(doc, (draft) => {
    draft.metadata.modified = modified;
  });
  return [stamped, [...patches, ...more], [...undoMore, ...inverse]];
}

/** `doc` with `patches` applied (an undo's inverse, a redo's patches). */
export function applyChange(doc: Workflow, patches: readonly Patch[]): Workflow {
  return applyPatches(doc, patches as Patch[]);
}
