/**
 * The app's place in the side panel: how to start one while there is none, else the inputs and
 * outputs the author marked (AppPanelLists.tsx, loaded once there is an app to list). "Open App
 * view" shows the form.
 */
import { lazy, Suspense } from 'react';
import { useEditor } from '../store/react';
import { setView } from './view-state';
import './appview.css';

const AppPanelLists = lazy(() => import('./AppPanelLists'));

export function AppPanel() {
  const app = useEditor((s) => s.doc.app);
  return (
    <section className="app-panel" aria-label="App">
      <h2 className="run-panel__heading">App</h2>
      {app === undefined || (app.inputs.length === 0 && app.outputs.length === 0) ? (
        <p className="app-panel__empty">
          No app yet. In Node settings, <strong>+ app</strong> beside a field adds it to the app's form, and a Preview / save
          node's <strong>Add to app as output</strong> shows its results; App view then runs the workflow from that form.
        </p>
      ) : (
        <Suspense fallback={<p className="app-panel__empty" aria-busy="true">Loading…</p>}>
          <AppPanelLists app={app} />
        </Suspense>
      )}
      <button type="button" className="button small" onClick={() => setView('app')}>Open App view</button>
    </section>
  );
}
