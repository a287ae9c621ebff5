/**
 * Which view the editor shows: the graph, or the App view (the workflow's app as a form). It is
 * the page's state, never the document's: the URL carries it (`?view=app`), so a link or a reload
 * opens the same view, and switching is not an undo step. A workflow opened with an app (a file,
 * an example, an image's embedded one) opens in App view; one without, or a new one, in the graph.
 */
import { hasApp } from '../../workflow/app';
import type { Workflow } from '../../workflow/schema';
import type { EditorStore } from '../store/editor-store';
import { createSmallStore } from '../ui/small-store';

export type EditorView = 'graph' | 'app';

/** The view a URL's query asks for: `?view=app`, else the graph. */
export function viewFromSearch(search: string): EditorView {
  return new URLSearchParams(search).get('view') === 'app' ? 'app' : 'graph';
}

/** The query with `view` set (the graph is the default, so it has no parameter), others kept. */
export function searchForView(search: string, view: EditorView): string {
  const params = new URLSearchParams(search);
  if (view === 'app') params.set('view', 'app');
  else params.delete('view');
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

const initial: EditorView = typeof location === 'undefined' ? 'graph' : viewFromSearch(location.search);

export const viewStore = createSmallStore<EditorView>(initial);

/** Shows `view` and writes it into the URL (replacing the entry: views are not pages to go back through). */
export function setView(view: EditorView): void {
  viewStore.set(view);
  if (typeof location === 'undefined' || typeof history === 'undefined') return;
  const search = searchForView(location.search, view);
  if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
}

/**
 * The view for a workflow just opened from a file, an example or an image: App view when it has
 * an app, the graph otherwise (an App view of nothing would hide the graph for no reason). Only
 * opening decides it: undo, the history's "Open this run's workflow" and another tab's reload
 * leave the view where the person put it.
 */
export function showOpened(workflow: Workflow): void {
  setView(hasApp(workflow.app) ? 'app' : 'graph');
}

/**
 * Shows the graph and brings a node (and field) into view there: the request is made again once
 * the canvas is drawn, as a canvas that was not there could not carry out the first one.
 */
export function showInGraph(store: EditorStore, nodeId: string, field?: string): void {
  setView('graph');
  let frames = 0;
  const whenDrawn = () => {
    // A frame more once the canvas is there, for it to start listening; give up after a second.
    if (document.querySelector('.react-flow__pane') !== null || ++frames > 60) requestAnimationFrame(() => store.focusNode(nodeId, field));
    else requestAnimationFrame(whenDrawn);
  };
  requestAnimationFrame(whenDrawn);
}
