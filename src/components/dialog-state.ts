/**
 * Which component dialog is open: Make component (for the selected nodes) or Edit face (of an
 * instance's component). Kept apart from the dialogs, which load when one is first opened, so
 * the editor's start carries only this.
 */
import { componentIdOf } from '../../workflow/components';
import type { EditorStore } from '../store/editor-store';
import { itemOf } from '../store/frames';
import { createSmallStore } from '../ui/small-store';
import { toast } from '../ui/toast';

export type ComponentDialog =
  | { kind: 'make'; nodes: readonly string[] }
  | { kind: 'face'; componentId: string };

/** The open component dialog; null when none is. */
export const componentDialogStore = createSmallStore<ComponentDialog | null>(null);

/** Opens Make component for the selected nodes, or says why it cannot. */
export function openMakeComponent(store: EditorStore): void {
  const { selection, index } = store.getState();
  const nodes = [...selection.nodes].filter((id) => itemOf(id).kind === 'node' && index.nodeById.has(id));
  if (nodes.length === 0) {
    toast('Select the nodes to make a component of first', 'info');
    return;
  }
  componentDialogStore.set({ kind: 'make', nodes });
}

/** Opens Edit face for the component that `nodeId` is an instance of, or says why it cannot. */
export function openEditFace(store: EditorStore, nodeId: string): void {
  const node = store.getState().index.nodeById.get(nodeId);
  const componentId = node && componentIdOf(node.type);
  if (componentId === undefined) {
    toast('Select a component to edit its face', 'info');
    return;
  }
  if (!store.getState().doc.components?.some((c) => c.id === componentId)) {
    toast(`The definition of component '${componentId}' is not in this workflow, so its face cannot be edited`, 'info');
    return;
  }
  componentDialogStore.set({ kind: 'face', componentId });
}
