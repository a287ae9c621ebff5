/**
 * The bar across the top: the workflow's title with its unsaved marker, the File and Examples
 * menus, undo and redo, adding a node, fitting the view, settings and help.
 */
import { useReactFlow } from '@xyflow/react';
import { useEffect, useState } from 'react';
import {
  chooseAndOpen, fetchExamples, newWorkflow, OPEN_INPUT_ID, openExample, openWorkflowFile, saveWorkflow, WORKFLOW_ACCEPT,
} from '../files/commands';
import { fitAll } from '../canvas/CanvasTools';
import { MOD } from '../canvas/mod-key';
import { useEditor, useEditorStore } from '../store/react';
import { MenuButton, type MenuItem } from './Menu';
import { useSmallStore } from './small-store';
import { setView, viewStore } from '../appview/view-state';
import { openDialog, openPalette } from './ui-state';

function WorkflowTitle() {
  const store = useEditorStore();
  const title = useEditor((s) => s.doc.metadata.title);
  const dirty = useEditor((s) => s.dirty);
  const [draft, setDraft] = useState(title);
  useEffect(() => setDraft(title), [title]);
  const commit = () => {
    if (draft.trim() !== title) store.setWorkflowTitle(draft);
    else setDraft(title);
  };
  return (
    <div className="workflow-title">
      <span className={`dirty-dot ${dirty ? 'on' : ''}`} role="img" aria-label={dirty ? 'Unsaved changes' : 'All changes saved'} title={dirty ? 'Unsaved changes since the last Save or Open (your work is autosaved in this browser)' : 'Saved'} />
      <input
        className="input title"
        value={draft}
        maxLength={200}
        aria-label="Workflow title"
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') e.currentTarget.blur();
          if (e.key === 'Escape') {
            setDraft(title);
            e.currentTarget.blur();
          }
        }}
      />
    </div>
  );
}

export function Toolbar() {
  const store = useEditorStore();
  const rf = useReactFlow();
  const history = useEditor((s) => s.history);
  const view = useSmallStore(viewStore);

  const fileItems: MenuItem[] = [
    { label: 'New workflow', onSelect: () => newWorkflow(store) },
    { label: 'Open…', shortcut: `${MOD}+O`, onSelect: () => chooseAndOpen(store) },
    { label: 'Save (download)', shortcut: `${MOD}+S`, onSelect: () => saveWorkflow(store) },
  ];
  const loadExamples = async (): Promise<MenuItem[]> =>
    (await fetchExamples()).map((entry) => ({ label: entry.title, detail: entry.description, onSelect: () => void openExample(store, entry) }));

  const addNode = () => {
    const rect = document.querySelector('.canvas')?.getBoundingClientRect();
    const screen = rect ? { x: rect.left + rect.width / 2 - 170, y: rect.top + 60 } : { x: 300, y: 120 };
    const center = rect ? { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 } : screen;
    openPalette({ screen, flow: rf.screenToFlowPosition(center) });
  };

  return (
    <header className="toolbar">
      <span className="brand" aria-hidden="true">Atelier</span>
      <WorkflowTitle />
      <nav className="toolbar-group" aria-label="Workflow">
        <MenuButton label="File" items={fileItems} />
        <input
          id={OPEN_INPUT_ID}
          type="file"
          accept={WORKFLOW_ACCEPT}
          hidden
          aria-label="Open a workflow file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void openWorkflowFile(store, file);
          }}
        />
        <MenuButton label="Examples" items={loadExamples} emptyText="No examples were found on this server." />
      </nav>
      <div className="toolbar-group" role="group" aria-label="Edit">
        <button type="button" className="button toolbar-button" disabled={!history.canUndo} onClick={() => store.undo()}
          aria-label={history.undoLabel ? `Undo ${history.undoLabel}` : 'Undo'} title={`Undo${history.undoLabel ? ` ${history.undoLabel}` : ''} (${MOD}+Z)`} aria-keyshortcuts="Control+Z">
          ↶ Undo
        </button>
        <button type="button" className="button toolbar-button" disabled={!history.canRedo} onClick={() => store.redo()}
          aria-label={history.redoLabel ? `Redo ${history.redoLabel}` : 'Redo'} title={`Redo${history.redoLabel ? ` ${history.redoLabel}` : ''} (${MOD}+Shift+Z)`} aria-keyshortcuts="Control+Shift+Z">
          ↷ Redo
        </button>
      </div>
      <div className="toolbar-group" role="group" aria-label="View">
        <button type="button" className="button toolbar-button" aria-pressed={view === 'graph'} onClick={() => setView('graph')} title="The graph: nodes, wires and every setting">
          Graph
        </button>
        <button type="button" className="button toolbar-button" aria-pressed={view === 'app'} onClick={() => setView('app')} title="App view: the workflow as a form, its outputs as a gallery (?view=app)">
          App view
        </button>
      </div>
      {view === 'graph' && <div className="toolbar-group" role="group" aria-label="Canvas">
        <button type="button" className="button toolbar-button" onClick={addNode} aria-keyshortcuts="Control+K" title={`Add a node (${MOD}+K)`}>
          + Add node
        </button>
        <button type="button" className="button toolbar-button" onClick={() => fitAll(rf)} title="Fit the workflow in view (F)" aria-keyshortcuts="F">
          Fit view
        </button>
      </div>}
      <div className="toolbar-spacer" />
      <div className="toolbar-group" role="group" aria-label="Application">
        <button type="button" className="button toolbar-button" onClick={() => openDialog('settings')}>Settings</button>
        <button type="button" className="button toolbar-button" onClick={() => openDialog('help')} aria-label="Keyboard shortcuts and help" aria-keyshortcuts="Shift+?">?</button>
      </div>
    </header>
  );
}
