/**
 * The editor: the store, the run side and React Flow's context around the toolbar, the canvas
 * and the run panel. The help and the settings are loaded when first opened.
 */
import { ReactFlowProvider, type Viewport } from '@xyflow/react';
import { lazy, Suspense, useEffect } from 'react';
import { AppPanel } from './appview/AppPanel';
import { useAppPrunedToast } from './appview/pruned-toast';
import { viewStore } from './appview/view-state';
import { Canvas } from './canvas/Canvas';
import { RunSlotsProvider, type RunSlots } from './canvas/run-slots';
import { NodeResults, NodeRunMenu, NodeRunStatus, RunPanel, RunProvider } from './run';
import { Inspector } from './forms/Inspector';
import { HistorySection } from './history/HistorySection';
import { EditorStoreProvider, useEditor, useEditorStore } from './store';
import type { EditorStore } from './store/editor-store';
import { useSmallStore } from './ui/small-store';
import { SidePanel } from './ui/SidePanel';
import { Announcer } from './ui/announce';
import { Toasts } from './ui/toast';
import { ProblemsDialog } from './ui/ProblemsDialog';
import { Toolbar } from './ui/Toolbar';
import { closeDialog, uiStore } from './ui/ui-state';

const HelpDialog = lazy(() => import('./ui/HelpDialog'));
const SettingsDialog = lazy(() => import('./settings/SettingsDialog'));
const AppView = lazy(() => import('./appview/AppView'));

const RUN_SLOTS: RunSlots = { NodeRunStatus, NodeResults, NodeRunMenu };

/** "● Title — Atelier" while there are unsaved changes. */
function useDocumentTitle() {
  const title = useEditor((s) => s.doc.metadata.title);
  const dirty = useEditor((s) => s.dirty);
  useEffect(() => {
    setDocumentTitle(`${dirty ? '● ' : ''}${title} — Atelier`);
  }, [title, dirty]);
}

/**
 * Rewrites the text the <title> holds instead of replacing it (as `document.title =` does): in
 * Chrome a node removed anywhere in the page ends the run of typing that Ctrl+Z takes back in a
 * text field, and the first key typed after a save is what adds the ●.
 */
function setDocumentTitle(text: string): void {
  const only = document.head.querySelector('title')?.firstChild;
  if (only instanceof Text && only.nextSibling === null) only.data = text;
  else document.title = text;
}

function Shell({ viewport, onViewportChange }: AppProps) {
  useDocumentTitle();
  useAppPrunedToast(useEditorStore());
  const { dialog, problems } = useSmallStore(uiStore);
  const view = useSmallStore(viewStore);
  return (
    <div className="app">
      <Toolbar />
      {view === 'app' ? <Suspense fallback={null}><AppView /></Suspense> : (
        <main className="workspace">
          <Canvas {...(viewport ? { initialViewport: viewport } : {})} {...(onViewportChange ? { onViewportChange } : {})} />
          <SidePanel>
            <RunPanel />
            <Inspector />
            <AppPanel />
            <HistorySection />
          </SidePanel>
        </main>
      )}
      <Toasts />
      <Announcer />
      {problems && <ProblemsDialog />}
      <Suspense fallback={null}>
        {dialog === 'settings' && <SettingsDialog onClose={closeDialog} />}
        {dialog === 'help' && <HelpDialog onClose={closeDialog} />}
      </Suspense>
    </div>
  );
}

export interface AppProps {
  store?: EditorStore;
  /** The view restored from the autosave; the canvas fits the workflow otherwise. */
  viewport?: Viewport;
  onViewportChange?: (viewport: Viewport) => void;
}

export function App({ store, ...rest }: AppProps & { store: EditorStore }) {
  return (
    <EditorStoreProvider store={store}>
      <RunProvider>
        <RunSlotsProvider value={RUN_SLOTS}>
          <ReactFlowProvider>
            <Shell {...rest} />
          </ReactFlowProvider>
        </RunSlotsProvider>
      </RunProvider>
    </EditorStoreProvider>
  );
}
