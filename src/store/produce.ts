/**
 * How the store changes the document: immer's patches, one entry per gesture in the history, so
 * undo and redo replay exactly what a change did.
 */
import { applyPatches, enablePatches, produceWithPatches, type Draft, type Patch } from 'immer';
import type { Workflow } from '../../workflow/schema';

enablePatches();

/** The document after `recipe`, with the patches that redo and undo it; no patches when nothing changed. */
export function produceChange(doc: Workflow, recipe: (draft: Draft<Workflow>) => void): [Workflow, Patch[], Patch[]] {
  const [next, patches, inverse] = produceWithPatches(doc, recipe);
  return [next, patches, inverse];
}

/** `doc` with `patches` applied (an undo's inverse, a redo's patches). */
export function applyChange(doc: Workflow, patches: readonly Patch[]): Workflow {
  return applyPatches(doc, patches as Patch[]);
}
