/**
 * The App view's place in the URL, and which view an opened workflow gets: one with an app opens
 * in App view, one without in the graph; editing the app does not move the view.
 */
import { describe, expect, it } from 'vitest';
import { followOpens, searchForView, setView, viewFromSearch, viewStore } from '../../src/appview/view-state';
import { createEditorStore } from '../../src/store/editor-store';
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
  function withApp(): Workflow {
    const doc = createWorkflow({ title: 'Has an app' });
    return {
      ...doc,
      nodes: [{ id: 'say', type: 'text', position: { x: 0, y: 0 }, params: { text: 'hi' } }],
      app: { inputs: [{ name: 'say', node: 'say', param: 'text' }], outputs: [] },
    };
  }

  it('opens a workflow with an app in App view and one without in the graph', () => {
    const store = createEditorStore({ initial: createWorkflow() });
    setView('graph');
    const stop = followOpens(store);
    store.load(withApp(), { record: true });
    expect(viewStore.get()).toBe('app');
    store.newWorkflow();
    expect(viewStore.get()).toBe('graph');
    store.load(withApp(), { record: true });
    expect(viewStore.get()).toBe('app');
    // Editing is not opening: taking the last input out leaves the view alone.
    store.unmarkAppInput('say');
    expect(store.getState().doc.app).toBeUndefined();
    expect(viewStore.get()).toBe('app');
    stop();
    store.newWorkflow();
    expect(viewStore.get()).toBe('app');
    setView('graph');
  });
});
