/**
 * The App view: the workflow run from a form, the graph out of sight. The author's inputs as a
 * form, Run with the cost of the next run (the same estimator as the graph's run panel),
 * progress, and the outputs as a gallery. "Edit graph" goes back. Problems the form cannot show
 * on a field or an output (a node the app does not list) are listed under Run, each naming its
 * node, with a way to it in the graph. Ctrl+S, Ctrl+O, Ctrl+Z and Ctrl+Shift+Z / Ctrl+Y work as in
 * the graph. Loaded when first shown.
 */
import { useEffect, useMemo, useRef } from 'react';
import { appFields } from '../../nodes/app-fields';
import { hasApp } from '../../workflow/app';
import EstimateView from '../run/EstimateView';
import { useRunContext, useRunCount } from '../run/context';
import { useEditor, useEditorStore } from '../store/react';
import { useDocumentKeys } from '../ui/document-keys';
import { AppInputField, appControlId } from './AppInputField';
import { AppOutputs } from './AppOutputs';
import { AppRunBar } from './AppRunBar';
import { onAppDragOver, onAppDrop } from './app-drop';
import { setView, showInGraph } from './view-state';
import './appview.css';

/**
 * A focus request (a problem's link) lands on the form's control when the form has it, else in
 * the graph, which is shown for it.
 */
function useFocusRequests() {
  const store = useEditorStore();
  const focus = useEditor((s) => s.focus);
  // Only requests made while the form is shown: an older one was the graph's.
  const since = useRef(focus?.seq ?? 0);
  useEffect(() => {
    if (!focus || focus.seq <= since.current) return;
    const control = focus.field === undefined ? null : document.getElementById(appControlId(focus.nodeId, focus.field));
    if (control) {
      control.focus();
      return;
    }
    showInGraph(store, focus.nodeId, focus.field);
  }, [focus, store]);
}

export default function AppView() {
  const store = useEditorStore();
  const doc = useEditor((s) => s.doc);
  const { fields, problems } = useMemo(() => appFields(doc, store.registry), [doc, store.registry]);
  const count = useRunCount();
  const { start } = useRunContext();
  useFocusRequests();
  // Save, open, undo and redo as on the canvas (whose shortcuts are not mounted here); Run's Ctrl+Enter is the run side's.
  useDocumentKeys(store);
  const title = doc.metadata.title.trim() || 'Untitled workflow';

  return (
    <main className="app-view" aria-label="App view" onDragOver={onAppDragOver} onDrop={(e) => onAppDrop(store, e)}>
      <div className="app-view__inner">
        <header className="app-view__head">
          <div>
            <h1 className="app-view__title">{title}</h1>
            {doc.metadata.description.trim() !== '' && <p className="app-view__description">{doc.metadata.description}</p>}
          </div>
          <button type="button" className="button" onClick={() => setView('graph')}>Edit graph</button>
        </header>
        {!hasApp(doc.app) ? (
          <p className="app-view__empty">
            This workflow has no app yet: in the graph, <strong>+ app</strong> beside a field in Node settings adds it to this
            form, and <strong>Add to app as output</strong> on a Preview / save node shows its results here.
          </p>
        ) : (
          <div className="app-view__columns">
            <div className="app-view__side">
            <form
              className="app-view__form"
              aria-label="Inputs"
              onSubmit={(e) => {
                e.preventDefault();
                start({ mode: 'all' });
              }}
            >
              {fields.length === 0 && <p className="app-view__empty">No inputs: Run runs the workflow as it is.</p>}
              {fields.map((field) => <AppInputField key={field.name} field={field} />)}
              {problems.map((p) => <p key={p.name} className="field-issue" role="alert">{p.message}</p>)}
              <AppRunBar app={doc.app} />
            </form>
            <EstimateView count={count} />
            </div>
            <AppOutputs outputs={doc.app.outputs} />
          </div>
        )}
      </div>
    </main>
  );
}
