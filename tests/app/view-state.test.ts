/**
 * The App view's place in the URL, and which view an opened workflow gets: one with an app opens
 * in App view, one without in the graph.
 */
import { describe, expect, it } from 'vitest';
import { searchForView, setView, showOpened, viewFromSearch, viewStore } from '../../src/appview/view-state';
import { createWorkflow } from '../../workflow/create';
import type { Workflow } from '../../workflow/schema';

describe('the view in the URL', () => {
  it('reads ?view=app and writes it, keeping other parameters', () => {
    expect(viewFromSearch('?view=app')).toBe('app');
    expect(viewFromSearch('?a=1&view=app')).toBe('app');
    expect(viewFromSearch('?view=graph')).toBe('graph');
    expect(viewFromSearch('')).toBe('graph');
    expect(searchForView('', 'app')).toBe('?view=app');
    expect(searchForView('?a=1', 'app')).toBe('?a=1&view=app');
    expect(searchForView('?a=1&view=app', 'graph')).toBe('?a=1');
    expect(searchForView('?view=app', 'graph')).toBe('');
  });
});

describe('the view an opened workflow gets', () => {
  it('opens a workflow with an app in App view and one without in the graph', () => {
    const doc = createWorkflow({ title: 'Has an app' });
    const withApp: Workflow = {
      ...doc,
      nodes: [{ id: 'say', type: 'text', position: { x: 0, y: 0 }, params: { text: 'hi' } }],
      app: { inputs: [{ name: 'say', node: 'say', param: 'text' }], outputs: [] },
    };
    setView('graph');
    showOpened(withApp);
    expect(viewStore.get()).toBe('app');
    showOpened(doc);
    expect(viewStore.get()).toBe('graph');
    // An app section with nothing in it is no app.
    showOpened({ ...doc, app: { inputs: [], outputs: [] } });
    expect(viewStore.get()).toBe('graph');
  });
});
