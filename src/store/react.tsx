/**
 * React access to the editor store: a provider, and `useEditor(selector)`, which re-renders a
 * component only when what its selector returns changes (by identity). Node views select their
 * own node, so a keystroke in one node re-renders that node alone.
 */
import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { EditorStore } from './editor-store';
import type { EditorState } from './state';

const EditorStoreContext = createContext<EditorStore | null>(null);

export function EditorStoreProvider({ store, children }: { store: EditorStore; children: ReactNode }) {
  return <EditorStoreContext.Provider value={store}>{children}</EditorStoreContext.Provider>;
}

/** The store itself, for actions (`store.undo()`) and reading state in event handlers. */
export function useEditorStore(): EditorStore {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error('useEditorStore: the component is not inside <EditorStoreProvider>');
  return store;
}

/** A slice of the state; the selector must return a stable value (a primitive or a kept object). */
export function useEditor<T>(selector: (state: EditorState) => T): T {
  const store = useEditorStore();
  const read = () => selector(store.getState());
  return useSyncExternalStore(store.subscribe, read, read);
}
