/**
 * The canvas's own tools, at its top-left corner: add a note, frame the selection in a group,
 * auto-layout (the selection, or everything), and the minimap's switch (remembered per browser).
 */
import { getViewportForBounds, Panel, useReactFlow, type Rect, type Viewport } from '@xyflow/react';
import { useCallback, useState } from 'react';
import { DEFAULT_NOTE_SIZE, itemOf } from '../store/frames';
import { useEditor, useEditorStore } from '../store/react';
import type { EditorStore } from '../store/editor-store';
import { createSmallStore, useSmallStore } from '../ui/small-store';
import { toast } from '../ui/toast';
import { autoFit } from './auto-fit';
import { FIT_VIEW_OPTIONS, MIN_ZOOM } from './fit';
import type { SizeBook } from './size-book';
import { MOD } from './mod-key';
import { openMakeComponent } from '../components/dialog-state';

const MINIMAP_KEY = 'atelier.minimap';

function readMinimap(): boolean {
  try {
    return localStorage.getItem(MINIMAP_KEY) === 'on';
  } catch {
    return false;
  }
}

/** Whether the minimap is shown (Canvas draws it); remembered per browser. */
export const minimapStore = createSmallStore(readMinimap());

/** What Fit view and auto-layout need of React Flow: the nodes, their bounds, moving the view. */
interface Fitter {
  getNodes(): { id: string }[];
  getNodesBounds(ids: string[]): Rect;
  setViewport(viewport: Viewport, options: { duration: number }): Promise<boolean>;
}

/**
 * Fits `nodes` (by default all) in view, at 100% at most: React Flow's fitView rule. Not its
 * fitView itself, which counts only the nodes it has measured and waits until all are: a node
 * never drawn yet (out of view since the workflow opened, derive.ts) counts by its estimated size.
 */
async function fitNodes(rf: Fitter, nodes: { id: string }[] = rf.getNodes()): Promise<void> {
  const pane = document.querySelector('.react-flow')?.getBoundingClientRect();
  if (!pane || nodes.length === 0) return;
  const { padding, maxZoom } = FIT_VIEW_OPTIONS;
  await rf.setViewport(getViewportForBounds(rf.getNodesBounds(nodes.map((n) => n.id)), pane.width, pane.height, MIN_ZOOM, maxZoom, padding), { duration: 250 });
}

/** Two frames: React Flow has drawn the nodes where the layout put them. */
const drawn = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

/**
 * Lays out the selection (two nodes or more) or the whole graph, as one undo step, then fits the
 * view to what it laid out, so nothing is left out of sight.
 */
export async function autoLayout(store: EditorStore, sizes: SizeBook, rf?: Fitter): Promise<{ partial: boolean } | undefined> {
  const [{ layoutRequest, placeLaidOut }, { computeLayout }] = await Promise.all([import('./layout-input'), import('./auto-layout')]);
  const { view, selection } = store.getState();
  const request = layoutRequest(view, selection, store.registry, sizes);
  if (!request) return undefined;
  const positions = placeLaidOut(request, await computeLayout(request.graph, request.origin));
  // The graph may have changed while ELK loaded: only what still exists moves.
  store.arrange(positions, request.partial ? 'auto-layout selection' : 'auto-layout');
  if (rf) {
    autoFit.stop();
    await drawn();
    const laid = Object.keys(positions).filter((id) => itemOf(id).kind === 'node').map((id) => ({ id }));
    await fitNodes(rf, request.partial ? laid : undefined);
  }
  return { partial: request.partial };
}

/** Fit view (the toolbar's button, F): the whole workflow in view, at 100% at most. */
export function fitAll(rf: Fitter): void {
  autoFit.stop();
  void fitNodes(rf);
}

/** Where a new note or empty group goes: the middle of the view. */
export function viewCentre(rf: ReturnType<typeof useReactFlow>): { x: number; y: number } {
  const rect = document.querySelector('.canvas')?.getBoundingClientRect();
  const screen = rect ? { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 } : { x: 400, y: 300 };
  return rf.screenToFlowPosition(screen);
}

export function CanvasTools({ sizes }: { sizes: SizeBook }) {
  const store = useEditorStore();
  const rf = useReactFlow();
  const selection = useEditor((s) => s.selection);
  const minimap = useSmallStore(minimapStore);
  const [busy, setBusy] = useState(false);
  const framable = [...selection.nodes].filter((id) => itemOf(id).kind !== 'group');
  const selectedNodes = [...selection.nodes].filter((id) => itemOf(id).kind === 'node').length;

  const toggleMinimap = () => {
    const next = !minimap;
    minimapStore.set(next);
    try {
      localStorage.setItem(MINIMAP_KEY, next ? 'on' : 'off');
    } catch {
      // A browser that refuses storage still toggles for this page.
    }
  };

  const layout = useCallback(() => {
    setBusy(true);
    autoLayout(store, sizes, rf).then(() => undefined, (error: unknown) => toast(`Auto-layout failed: ${error instanceof Error ? error.message : String(error)}`, 'error'))
      .finally(() => setBusy(false));
  }, [store, sizes, rf]);

  return (
    <Panel position="top-left" className="canvas-tools" role="toolbar" aria-label="Canvas tools">
      <button type="button" className="button toolbar-button" title="Add a note (N)" aria-keyshortcuts="N"
        onClick={() => {
          const c = viewCentre(rf);
          store.addNote({ x: c.x - DEFAULT_NOTE_SIZE.width / 2, y: c.y - DEFAULT_NOTE_SIZE.height / 2 }, '', { free: true });
        }}>
        Add note
      </button>
      <button type="button" className="button toolbar-button" title={`Frame the selection in a group (${MOD}+G)`} aria-keyshortcuts="Control+G"
        onClick={() => store.addGroup(framable.length > 0 ? { around: framable } : { at: viewCentre(rf) })}>
        {framable.length > 0 ? 'Group selection' : 'Add group'}
      </button>
      {selectedNodes > 0 && (
        <button type="button" className="button toolbar-button" title={`Make a component of the selected nodes (${MOD}+Shift+G)`} aria-keyshortcuts="Control+Shift+G"
          onClick={() => openMakeComponent(store)}>
          Make component
        </button>
      )}
      <label className="button toolbar-button" title="Add a component from its file (.component.json)">
        Import component
        <input type="file" accept=".json,application/json" hidden onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          const at = viewCentre(rf);
          // The component file's reader loads when a file is first chosen.
          if (file) void import('../components/component-commands').then(({ importComponent }) => importComponent(store, file, at));
        }} />
      </label>
      <button type="button" className="button toolbar-button" disabled={busy} aria-busy={busy} aria-keyshortcuts="L"
        title={selectedNodes >= 2 ? 'Lay out the selected nodes, left to right (L)' : 'Lay out the whole workflow, left to right (L)'}
        onClick={layout}>
        {busy ? 'Laying out…' : selectedNodes >= 2 ? 'Auto-layout selection' : 'Auto-layout'}
      </button>
      <button type="button" className="button toolbar-button" aria-pressed={minimap} onClick={toggleMinimap}>Minimap</button>
    </Panel>
  );
}
