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
import { afterDefinitionEdit } from '../../workflow/component-edit';
import { definitionsFor } from '../../workflow/component-file';
import { COMPONENT_TYPE_PREFIX, type ComponentDefinition } from '../../workflow/schema';
import { withComponents } from '../../nodes/component-node';
import { openedDefinition, pruneScope, scopedDraft, viewOf } from './scope';
import { pruneStaleApp, type AppPruned } from './app-prune';
import type { SmallStore } from '../ui/small-store';
import { EMPTY_SELECTION, type EditorState, type Selection } from './state';

export interface CoreOptions {
  registry: NodeRegistry;
  /** Milliseconds; tests pass a fake clock to exercise typing groups. */
  now: () => number;
}

export interface Core {
  /** The node types, with the document's components as types of their own (nodes/component-node.ts). */
  readonly registry: NodeRegistry;
  readonly history: History;
  readonly now: () => number;
  /** The app entries the last change removed with it, because it left them pointing at nothing (app-prune.ts). */
  readonly appPruned: SmallStore<AppPruned | null>;
  get(): EditorState;
  /** Replaces UI-only parts of the state (never `doc`). */
  patch(partial: Partial<Omit<EditorState, 'doc' | 'view' | 'index' | 'history' | 'dirty' | 'scope'>>): void;
  /**
   * Changes the document as one undo step (or part of the open group); false when nothing changed.
   * With a component open, the recipe's draft is its definition as a workflow (scope.ts), and the
   * definition's face, hash and instances follow in the same step (workflow/component-edit.ts).
   */
  change(options: RecordOptions, recipe: (draft: Draft<Workflow>) => void, extra?: Partial<EditorState>): boolean;
  /**
   * Replaces the whole document as one undo step (opening a file, New): recorded as one patch
   * each way, without immer walking every node of a big file.
   */
  replace(doc: Workflow, options: RecordOptions, extra?: Partial<EditorState>): void;
  /** Replaces the document without history (restoring an autosave): undo starts from here. */
  reset(doc: Workflow, extra?: Partial<EditorState>, dirty?: boolean): void;
  /** Shows another level of opened components (the breadcrumb); selection and drag cleared. */
  setScope(scope: EditorState['scope']): void;
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
  // Inside a component, notes and groups are the file's and not shown: only nodes and edges count.
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
  // Read through `holder` once it exists: the types follow the document's definitions.
  let currentDoc = (): Workflow => initial;
  const registry = withComponents(options.registry, () => currentDoc().components);
  // The types of a document not yet installed (a change's result), for checking its app.
  let checking: Workflow = initial;
  const checkRegistry = withComponents(options.registry, () => checking.components);
  const appPruned = createSmallStore<AppPruned | null>(null);
  /** History position at the last save; -1 means "never matches" (restored unsaved work). */
  let savedAt = 0;
  let measure: Measure = () => undefined;
  const holder = createSmallStore<EditorState>({
    doc: initial,
    scope: [],
    view: initial,
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
    const scope = pruneScope(doc, extra.scope ?? holder.get().scope);
    const view = viewOf(doc, scope);
    const sameLevel = scope.length === holder.get().scope.length;
    holder.set({
      ...holder.get(),
      ...extra,
      doc,
      scope,
      view,
      index: buildIndex(view, sameLevel ? holder.get().index : undefined),
      selection: sameLevel ? prune(extra.selection ?? holder.get().selection, view) : EMPTY_SELECTION,
      history: flags(),
      dirty: history.position() !== savedAt,
      revision: holder.get().revision + 1,
    });
  };

  currentDoc = () => holder.get().doc;

  return {
    registry,
    history,
    appPruned,
    now: options.now,
    get: holder.get,
    patch(partial) {
      const asInputChanged = partial.asInput !== undefined && partial.asInput !== holder.get().asInput;
      holder.set({ ...holder.get(), ...partial, revision: asInputChanged ? holder.get().revision + 1 : holder.get().revision });
    },
    change(recordOptions, recipe, extra) {
      // An edit moves the document's `modified` with it, in the same step (undo puts it back).
      const { doc: before, scope } = holder.get();
      const opened = recordOptions.whole === true ? undefined : openedDefinition(before, scope)?.id;
      const produced = produceChange(before, opened === undefined ? recipe : (draft) => {
        const def = draft.components?.find((c) => c.id === opened);
        if (def === undefined) return;
        recipe(scopedDraft(draft, def));
        // A paste or a palette choice must not put a component inside itself: the change is refused whole.
        const all = draft.components as ComponentDefinition[];
        const inside = new Set(def.nodes.flatMap((n) => (n.type.startsWith(COMPONENT_TYPE_PREFIX) ? definitionsFor(all, n.type.slice(COMPONENT_TYPE_PREFIX.length)) : []).map((d) => d.id)));
        const loop = scope.find((level) => inside.has(level.componentId));
        if (loop !== undefined) throw new Error(`a component cannot contain itself: '${loop.componentId}' is open, and this would put it inside`);
        afterDefinitionEdit(draft as Workflow, opened);
      });
      const [kept, removed] = pruneStaleApp(before, produced, (next) => {
        checking = next;
        return checkRegistry;
      });
      const [doc, patches, inverse] = recordOptions.keepModified === true ? kept : stampModified(kept, new Date(options.now()));
      if (patches.length === 0) {
        if (extra) {
          holder.set({ ...holder.get(), ...extra });
        }
        return false;
      }
      history.record(patches, inverse, recordOptions);
      install(doc, extra);
      if (removed.length > 0) appPruned.set({ seq: (appPruned.get()?.seq ?? 0) + 1, entries: removed });
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
    setScope(scope) {
      install(holder.get().doc, { scope, drag: null, resize: null, focus: null, loads: holder.get().loads + 1 });
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
