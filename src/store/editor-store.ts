/**
 * The editor store: one object holding the document, the UI state beside it and every action,
 * usable without React or a DOM: `tests/editor` drives it headless, the React
 * views subscribe to slices of it through `useEditor`.
 */
import { registry as defaultRegistry, type NodeRegistry } from '../../nodes/index';
import { WORKFLOW_VERSION } from '../../workflow/format';
import { readsUnchanged } from '../../workflow/migrations';
import type { Workflow } from '../../workflow/schema';
import type { LoadResult } from '../../workflow/load';
import { createAnnotationActions } from './annotation-actions';
import { createClipboardActions } from './clipboard';
import { createComponentActions } from './component-actions';
import { createCore } from './core';
import { createAppActions } from './app-actions';
import { createGraphActions } from './graph-actions';
import { createMoveActions } from './move-actions';
import { starterWorkflow } from './starter';
import { EMPTY_SELECTION, type EditorState, type Selection } from './state';
import { createWorkflow } from '../../workflow/create';
import { keyedRecord } from '../../workflow/keys';

export interface EditorStoreOptions {
  /** The document to start with; the starter workflow by default. */
  initial?: Workflow;
  registry?: NodeRegistry;
  /** Milliseconds, for typing groups in history. */
  now?: () => number;
}

export type SelectMode = 'replace' | 'add' | 'toggle';

/** Parameters shown as ports, as plain data for the autosave. */
export type AsInputRecord = Record<string, string[]>;

export interface LoadOptions {
  /** Undoable (Open, Examples, New); false when restoring the autosave. */
  record?: boolean;
  asInput?: AsInputRecord;
  /** Restored work that was not saved before the reload. */
  dirty?: boolean;
}

function toMap(record: AsInputRecord | undefined): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const [id, params] of Object.entries(record ?? {})) {
    if (Array.isArray(params) && params.length > 0) map.set(id, new Set(params.filter((p) => typeof p === 'string')));
  }
  return map;
}

/** `workflow`'s content as a document, with no empty notes or groups (as a saved file has none). */
function contentOf(workflow: Workflow): Workflow {
  const { notes, groups, ...rest } = workflow;
  return { ...rest, ...(notes?.length ? { notes } : {}), ...(groups?.length ? { groups } : {}) };
}

export function createEditorStore(options: EditorStoreOptions = {}) {
  const core = createCore(options.initial ?? starterWorkflow(), { registry: options.registry ?? defaultRegistry, now: options.now ?? (() => Date.now()) });
  // Knows the document's components as node types too.
  const registry = core.registry;
  const graph = createGraphActions(core);
  const clipboard = createClipboardActions(core);
  const moves = createMoveActions(core);
  const annotations = createAnnotationActions(core);
  const app = createAppActions(core);
  const components = createComponentActions(core, graph);
  let focusSeq = 0;

  const store = {
    registry,
    /** The app entries the last change removed because they pointed at nothing any more (store/app-prune.ts). */
    appPruned: core.appPruned,
    getState: (): EditorState => core.get(),
    subscribe: core.subscribe,
    ...graph,
    ...moves,
    ...annotations,
    ...app,
    ...components,
    ...clipboard,
    /** How the canvas measures drawn sizes (by canvas id), for frames and layout. */
    setMeasure: core.setMeasure,
    /** A drawn size by canvas id (see Measure in frames.ts). */
    measureOf: (canvasId: string, type?: string) => core.measure(canvasId, type),

    undo: () => core.undo(),
    redo: () => core.redo(),
    /** The document counts as saved (after Save, Open or New): clears the unsaved marker. */
    markSaved: () => core.markSaved(),

    /** Replaces the document: one undo step when `record`, a fresh history otherwise. */
    load(workflow: Workflow, loadOptions: LoadOptions = {}): void {
      const extra = {
        selection: EMPTY_SELECTION, scope: [], drag: null, resize: null, focus: null, asInput: toMap(loadOptions.asInput), loads: core.get().loads + 1,
      };
      if (loadOptions.record) {
        core.replace(contentOf(workflow), { label: 'open workflow' }, extra);
      } else {
        core.reset(workflow, extra, loadOptions.dirty ?? false);
      }
    },

    /**
     * Replaces the document's content with `workflow` (the same graph, edited elsewhere: the
     * credential check's removals) as one undo step, keeping the view and the history.
     */
    rewrite(workflow: Workflow, label: string): void {
      core.replace(contentOf(workflow), { label });
    },

    /**
     * Opens a file the loader has read (workflow/load.ts) as one undo step, marking it saved
     * unless it was migrated (what Save writes differs from the file).
     */
    open(result: LoadResult): LoadResult {
      store.load(result.workflow, { record: true });
      // A migrated or newer file, or one whose ids were renamed, is not what Save would write: the marker says so.
      if (readsUnchanged(result.fromVersion, WORKFLOW_VERSION) && result.renamedIds.size === 0) core.markSaved();
      else core.markUnsaved();
      return result;
    },

    /** An empty workflow (one undo step). */
    newWorkflow(): void {
      store.load(createWorkflow(), { record: true });
      core.markSaved();
    },

    select(selection: { nodes?: Iterable<string>; edges?: Iterable<string> }, mode: SelectMode = 'replace'): void {
      const current = core.get().selection;
      const apply = (before: ReadonlySet<string>, ids: Iterable<string> | undefined): Set<string> => {
        const list = [...(ids ?? [])];
        if (mode === 'replace') return new Set(list);
        const next = new Set(before);
        for (const id of list) {
          if (mode === 'toggle' && next.has(id)) next.delete(id);
          else next.add(id);
        }
        return next;
      };
      core.patch({ selection: { nodes: apply(current.nodes, selection.nodes), edges: apply(current.edges, selection.edges) } });
    },

    /** Sets the selection exactly (React Flow reports it whole). */
    setSelection(selection: Selection): void {
      core.patch({ selection });
    },

    selectAll(): void {
      const { doc } = core.get();
      core.patch({ selection: { nodes: new Set(doc.nodes.map((n) => n.id)), edges: new Set(doc.edges.map((e) => e.id)) } });
    },

    clearSelection(): void {
      core.patch({ selection: EMPTY_SELECTION });
    },

    /** Selects a node and asks the canvas to bring it (and `field`, if given) into view and focus. */
    focusNode(nodeId: string, field?: string): void {
      if (!core.get().index.nodeById.has(nodeId)) return;
      core.patch({
        selection: { nodes: new Set([nodeId]), edges: new Set() },
        focus: { nodeId, seq: ++focusSeq, ...(field === undefined ? {} : { field }) },
      });
    },

    /** The node types this build knows, for the loader. */
    knownTypes(): Set<string> {
      return new Set(registry.list().map((d) => d.type));
    },

    /** Parameters shown as ports, as plain data (for the autosave). */
    asInputRecord(): AsInputRecord {
      const out: AsInputRecord = keyedRecord();
      for (const [id, params] of core.get().asInput) out[id] = [...params];
      return out;
    },
  };
  return store;
}

export type EditorStore = ReturnType<typeof createEditorStore>;
