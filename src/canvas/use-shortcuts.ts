/**
 * The editor's keyboard shortcuts and clipboard. Inside a text field the browser keeps its own
 * keys (undo undoes the typing, Delete deletes characters, paste pastes text); save, open, undo
 * and redo follow the rule App view shares (src/ui/document-keys.ts). Copy and paste use the
 * clipboard events, so nodes travel between tabs as JSON text without a permission prompt.
 */
import { useReactFlow } from '@xyflow/react';
import { useEffect, useRef } from 'react';
import { readImageFile } from '../files/commands';
import { isImageFile } from '../files/image-kind';
import type { PasteResult } from '../store/clipboard';
import { parsePasteToStore } from '../store/paste-text';
import type { EditorStore } from '../store/editor-store';
import { groupItem, itemOf, noteItem } from '../store/frames';
import type { XY } from '../store/state';
import { handleDocumentKey, inDialog, isTextTarget } from '../ui/document-keys';
import { toast } from '../ui/toast';
import { toggleSidePanel } from '../ui/side-panel-state';
import { closePalette, openDialog, openPalette, uiStore } from '../ui/ui-state';
import { autoLayout, fitAll } from './CanvasTools';
import { copySelection } from './copy-event';
import { openMakeComponent } from '../components/dialog-state';
import { isComponentNode } from '../../nodes/component-node';
import type { CanvasNode } from './derive';
import type { SizeBook } from './size-book';

/** Clicks a control inside a canvas item (a node, note or group) by selector. */
function clickIn(canvasId: string, selector: string): void {
  document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(canvasId)}"] ${selector}`)?.click();
}

/** Ctrl+Enter (Run) and Escape during a run belong to the run side (src/run). */
export function useShortcuts(store: EditorStore, sizes: SizeBook) {
  const rf = useReactFlow<CanvasNode>();
  const pointer = useRef<XY | null>(null);

  useEffect(() => {
    const canvasRect = () => document.querySelector('.canvas')?.getBoundingClientRect();
    /** Where new things go: the pointer when it is over the canvas, else the middle of the view. */
    const placement = (): { screen: XY; flow: XY } => {
      const rect = canvasRect();
      const p = pointer.current;
      const inside = rect && p && p.x >= rect.left && p.x <= rect.right && p.y >= rect.top && p.y <= rect.bottom;
      const screen = inside ? p : rect ? { x: rect.left + rect.width / 2, y: rect.top + rect.height / 3 } : { x: 200, y: 200 };
      return { screen, flow: rf.screenToFlowPosition(screen) };
    };

    const onPointer = (e: PointerEvent) => {
      pointer.current = { x: e.clientX, y: e.clientY };
    };

    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const text = isTextTarget(e.target);
      const dialog = inDialog(e.target);
      if (e.defaultPrevented) return;
      const key = e.key.toLowerCase();
      const act = (f: () => void) => {
        e.preventDefault();
        f();
      };
      // Save, open, undo and redo: the rule App view shares (src/ui/document-keys.ts).
      if (handleDocumentKey(e, store)) return;
      // The palette opens from a field too (Ctrl+K is no text key); "/" stays the field's.
      if (mod && key === 'k' && text && !dialog && !uiStore.get().palette) return act(() => openPalette(placement()));
      if (text || dialog) return;
      // While the palette is open, letters are for its search, never shortcuts: one typed before
      // its field has the focus is sent there (focusing it now takes this key's character too).
      if (uiStore.get().palette && !mod && !e.altKey && e.key.length === 1) {
        document.querySelector<HTMLInputElement>('.palette-search')?.focus();
        return;
      }
      if (mod && key === 'd') {
        return act(() => {
          const result = store.duplicate({ free: true });
          if (!result.ok) toast(result.reason, 'info');
        });
      }
      if (mod && key === 'a') return act(() => store.selectAll());
      const selected = [...store.getState().selection.nodes];
      if (mod && key === 'b') return act(() => store.toggleBypass(selected.filter((id) => itemOf(id).kind === 'node')));
      if (mod && e.key === '.') return act(() => store.toggleCollapsed(selected.filter((id) => itemOf(id).kind === 'node')));
      if (mod && e.shiftKey && key === 'g') return act(() => openMakeComponent(store));
      if (mod && key === 'g') {
        const framable = selected.filter((id) => itemOf(id).kind !== 'group');
        return act(() => void store.addGroup(framable.length > 0 ? { around: framable } : { at: placement().flow }));
      }
      if ((mod && key === 'k') || (!mod && e.key === '/')) return act(() => openPalette(placement()));
      if (mod || e.altKey) return;
      if (e.key === 'Delete' || e.key === 'Backspace') return act(() => store.deleteSelection());
      if (e.key === '?') return act(() => openDialog('help'));
      if (key === 'f') return act(() => fitAll(rf));
      if (key === 'n' && !e.shiftKey) return act(() => void store.addNote(placement().flow, '', { free: true }));
      if (key === 'p' && !e.shiftKey) return act(toggleSidePanel);
      if (key === 'l' && !e.shiftKey) {
        return act(() => void autoLayout(store, sizes, rf).catch((error: unknown) => toast(`Auto-layout failed: ${error instanceof Error ? error.message : String(error)}`, 'error')));
      }
      const only = selected.length === 1 ? itemOf(selected[0]!) : undefined;
      if (e.key === 'F2' && only) {
        if (only.kind === 'node') return act(() => clickIn(only.id, '.node-header .rename'));
        if (only.kind === 'group') return act(() => clickIn(groupItem(only.id), '.frame-header .frame-tool'));
      }
      // Enter on a selected component opens it.
      if (e.key === 'Enter' && only?.kind === 'node' && isComponentNode({ type: store.getState().index.nodeById.get(only.id)?.type ?? '' })) {
        return act(() => {
          const opened = store.openComponent(only.id);
          if (!opened.ok) toast(opened.reason, 'info');
        });
      }
      // Enter on a selected note writes in it (on a node, Enter is React Flow's "select").
      if (e.key === 'Enter' && only?.kind === 'note') return act(() => clickIn(noteItem(only.id), '.note-header button'));
      if (e.key === 'Escape') {
        if (uiStore.get().palette) closePalette();
        // With nothing selected inside a component, Escape goes back out one level.
        else if (store.getState().selection.nodes.size === 0 && store.getState().scope.length > 0) store.closeComponent();
        else store.clearSelection();
      }
    };

    const onCopy = (e: ClipboardEvent, cut: boolean) => {
      if (isTextTarget(e.target) || inDialog(e.target) || (window.getSelection()?.toString() ?? '') !== '') return;
      copySelection(store, e, cut);
    };

    const onPaste = (e: ClipboardEvent) => {
      if (isTextTarget(e.target) || inDialog(e.target)) return;
      const data = e.clipboardData;
      if (!data) return;
      const image = [...data.files].find(isImageFile);
      if (image) {
        e.preventDefault();
        const { selection, index } = store.getState();
        const only = selection.nodes.size === 1 ? index.nodeById.get([...selection.nodes][0]!) : undefined;
        readImageFile(image).then((loaded) => {
          if (only?.type === 'image-loader') store.setParam(only.id, 'image', loaded);
          else store.addNode('image-loader', placement().flow, { params: { image: loaded }, free: true });
        }, (error: unknown) => toast(error instanceof Error ? error.message : String(error), 'error'));
        return;
      }
      const textData = data.getData('text/plain');
      if (textData.trim() === '') return;
      e.preventDefault();
      const at = placement().flow;
      const report = (result: PasteResult) => {
        if (!result.ok) toast(`Nothing pasted: ${result.reason}`, 'info');
        else if (result.warnings.length > 0) toast(`Pasted, with notes: ${result.warnings.map((w) => w.message).slice(0, 2).join('; ')}`, 'warning');
      };
      // What this tab copied comes back as it was; anything else is read like a file.
      // Inside an opened component, pasting that component itself is refused (core.ts), with why.
      const refused = (error: unknown) => toast(`Nothing pasted: ${error instanceof Error ? error.message : String(error)}`, 'info');
      if (textData === store.copiedText()) {
        try {
          report(store.paste(at, { free: true }));
        } catch (error) {
          refused(error);
        }
        return;
      }
      void parsePasteToStore(textData, store.registry).then((parsed) => {
        report(parsed.ok ? store.pasteWorkflow(parsed.workflow, at, parsed.warnings, { free: true }) : parsed);
      }).catch(refused);
    };

    const copy = (e: ClipboardEvent) => onCopy(e, false);
    const cut = (e: ClipboardEvent) => onCopy(e, true);
    window.addEventListener('pointermove', onPointer, { passive: true });
    window.addEventListener('keydown', onKey);
    document.addEventListener('copy', copy);
    document.addEventListener('cut', cut);
    document.addEventListener('paste', onPaste);
    return () => {
      window.removeEventListener('pointermove', onPointer);
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('copy', copy);
      document.removeEventListener('cut', cut);
      document.removeEventListener('paste', onPaste);
    };
  }, [store, rf, sizes]);
  return rf;
}
