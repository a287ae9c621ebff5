/**
 * The store's engine: state, subscriptions, and the one way the document changes (`change`),
 * which records immer patches in the history. Actions live in their own modules and use this.
 */
import type { Draft } from 'immer';
import type { NodeRegistry } from '../../nodes/index';
import type { Workflow } from '../../workflow/schema';
import { groupItem, noteItem, type Measure } from './frames';
import { buildIndex } from './graph-index';
import { History, type RecordOptions } from './history';
import { applyChange, produceChange, stampModified } from './produce';
import { createSmallStore } from '../ui/small-store';
import { EMPTY_SELECTION, type EditorState, type Selection } from './state';

export interface CoreOptions {
  registry: NodeRegistry;
  /** Milliseconds; tests pass a fake clock to exercise typing groups. */
  now: () => number;
}

export interface Core {
  readonly registry: NodeRegistry;
  readonly history: History;
  readonly now: () => number;
  get(): EditorState;
  /** Replaces UI-only parts of the state (never `doc`). */
  patch(partial: Partial<Omit<EditorState, 'doc' | 'index' | 'history' | 'dirty'>>): void;
  /** Changes the document as one undo step (or part of the open group); false when nothing changed. */
  change(options: RecordOptions, recipe: (draft: Draft<Workflow>) => void, extra?: Partial<EditorState>): boolean;
  /**
   * Replaces the whole document as one undo step (opening a file, New): recorded as one patch
   * each way, without immer walking every node of a big file.
   */
  replace(doc: Workflow, options: RecordOptions, extra?: Partial<EditorState>): void;
  /** Replaces the document without history (restoring an autosave): undo starts from here. */
  reset(doc: Workflow, extra?: Partial<EditorState>, dirty?: boolean): void;
  undo(): boolean;
  redo(): boolean;
  /** The current state counts as saved from now on. */
  markSaved(): void;
  /** The current state differs from any saved file (restored or migrated work). */
  markUnsaved(): void;
  subscribe(listener: () => void): () => void;
  /** Drawn sizes by canvas id (the canvas measures them; headless, nothing is measured). */
  measure: Measure;
  setMeasure(measure: Measure): void;
}

/** Drops selected ids that no longer exist in the document (nodes, notes and groups by canvas id). */
function prune(selection: Selection, doc: Workflow): Selection {
  if (selection.nodes.size === 0 && selection.edges.size === 0) return selection;
  const nodeIds = new Set([
    ...doc.nodes.map((n) => n.id),
    ...(doc.notes ?? []).map((n) => noteItem(n.id)),
    ...(doc.groups ?? []).map((g) => groupItem(g.id)),
  ]);
  const edgeIds = new Set(doc.edges.map((e) => e.id));
  const nodes = [...selection.nodes].filter((id) => nodeIds.has(id));
  const edges = [...selection.edges].filter((id) => edgeIds.has(id));
  if (nodes.length === selection.nodes.size && edges.length === selection.edges.size) return selection;
  return { nodes: new Set(nodes), edges: new Set(edges) };
}

export function createCore(initial: Workflow, options: CoreOptions): Core {
  const history = new History(options.now);
  /** History position at the last save; -1 means "never matches" (restored unsaved work). */
  let savedAt = 0;
  let measure: Measure = () => undefined;
  const holder = createSmallStore<EditorState>({
    doc: initial,
    index: buildIndex(initial),
    selection: EMPTY_SELECTION,
    drag: null,
    resize: null,
    asInput: new Map(),
    history: { canUndo: false, canRedo: false },
    dirty: false,
    focus: null,
    placed: null,
    revision: 0,
    loads: 0,
  });

  const flags = () => {
    const undoLabel = history.undoLabel();
    const redoLabel = history.redoLabel();
    return {
      canUndo: undoLabel !== undefined,
      canRedo: redoLabel !== undefined,
      ...(undoLabel === undefined ? {} : { undoLabel }),
      ...(redoLabel === undefined ? {} : { redoLabel }),
    };
  };

  /** Installs a new document with everything derived from it. */
  const install = (doc: Workflow, extra: Partial<EditorState> = {}) => {
    holder.set({
      ...holder.get(),
      ...extra,
      doc,
      index: buildIndex(doc, holder.get().index),
      selection: prune(extra.selection ?? holder.get().selection, doc),
      history: flags(),
      dirty: history.position() !== savedAt,
      revision: holder.get().revision + 1,
    });
  };

  return {
    registry: options.registry,
    history,
    now: options.now,
    get: holder.get,
    patch(partial) {
      const asInputChanged = partial.asInput !== undefined && partial.asInput !== holder.get().asInput;
      holder.set({ ...holder.get(), ...partial, revision: asInputChanged ? holder.get().revision + 1 : holder.get().revision });
    },
    change(recordOptions, recipe, extra) {
      // An edit moves the document's `modified` with it, in the same step (undo puts it back).
      const produced = produceChange(holder.get().doc, recipe);
      const [doc, patches, inverse] = recordOptions.keepModified === true ? produced : stampModified(produced, new Date(options.now()));
      if (patches.length === 0) {
        if (extra) {
          holder.set({ ...holder.get(), ...extra });
        }
        return false;
      }
      history.record(patches, inverse, recordOptions);
      install(doc, extra);
      return true;
    },
    replace(doc, recordOptions, extra) {
      history.record([{ op: 'replace', path: [], value: doc }], [{ op: 'replace', path: [], value: holder.get().doc }], recordOptions);
      install(doc, extra);
    },
    reset(doc, extra, dirty = false) {
      history.clear();
      savedAt = dirty ? -1 : 0;
      install(doc, { selection: EMPTY_SELECTION, drag: null, focus: null, ...extra });
    },
    undo() {
      const entry = history.popUndo();
      if (!entry) return false;
      install(applyChange(holder.get().doc, entry.inverse), { drag: null });
      return true;
    },
    redo() {
      const entry = history.popRedo();
      if (!entry) return false;
      install(applyChange(holder.get().doc, entry.patches), { drag: null });
      return true;
    },
    markSaved() {
      history.seal();
      savedAt = history.position();
      if (holder.get().dirty) {
        holder.set({ ...holder.get(), dirty: false });
      }
    },
    markUnsaved() {
      history.seal();
      savedAt = -1;
      if (!holder.get().dirty) {
        holder.set({ ...holder.get(), dirty: true });
      }
    },
    subscribe: holder.subscribe,
    measure: (id, type) => measure(id, type),
    setMeasure(next) {
      measure = next;
    },
  };
}
