/**
 * How the store changes the document: immer's patches (one entry per gesture in the history),
 * with immer fetched on the first change, or when the person starts working (`loadProducer`),
 * rather than with the first paint, which changes nothing. A change made before immer has
 * arrived is applied to a copy and recorded whole: one patch that replaces the document and one
 * that puts it back, so undo, redo, typing groups and the unsaved marker work the same; only the
 * objects it did not touch are copies rather than shared, that once.
 */
import type * as ImmerModule from 'immer';
import type { Draft, Patch } from 'immer';
import type { Workflow } from '../../workflow/schema';

let immer: typeof ImmerModule | undefined;
let loading: Promise<void> | undefined;

/** Fetches immer; resolves once changes are made with it. */
export function loadProducer(): Promise<void> {
  loading ??= import('immer').then((m) => {
    m.enablePatches();
    immer = m;
  }, (error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The document after `recipe`, with the patches that redo and undo it; no patches when nothing changed. */
export function produceChange(doc: Workflow, recipe: (draft: Draft<Workflow>) => void): [Workflow, Patch[], Patch[]] {
  if (immer) {
    const [next, patches, inverse] = immer.produceWithPatches(doc, recipe);
    return [next, patches, inverse];
  }
  loadProducer().catch(() => undefined);
  const draft = structuredClone(doc);
  recipe(draft as Draft<Workflow>);
  if (sameValue(draft, doc)) return [doc, [], []];
  return [draft, [{ op: 'replace', path: [], value: draft }], [{ op: 'replace', path: [], value: doc }]];
}

/** `doc` with `patches` applied (an undo's inverse, a redo's patches). */
export function applyChange(doc: Workflow, patches: readonly Patch[]): Workflow {
  if (immer) return immer.applyPatches(doc, patches as Patch[]);
  // Without immer, only whole-document patches can have been recorded (see produceChange).
  const last = patches.at(-1);
  if (!last || patches.some((p) => p.path.length > 0 || p.op !== 'replace')) throw new Error('these patches need immer, which has not loaded');
  return last.value as Workflow;
}

/** Deep equality of JSON-like values (a workflow and its copy). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && sameValue(ra[k], rb[k]));
}
