/** Changes the store makes before immer has arrived (src/store/produce.ts): recorded whole, undone and redone the same. */
import { describe, expect, it, vi } from 'vitest';
import { createWorkflow } from '../../workflow/create';

/** A store from fresh modules, whose producer has not fetched immer yet. */
async function storeWithoutImmer() {
  vi.resetModules();
  const { createEditorStore } = await import('../../src/store/editor-store');
  const { loadProducer } = await import('../../src/store/produce');
  let now = 1_000_000;
  const store = createEditorStore({ initial: createWorkflow({ title: 'Early' }), now: () => now });
  return { store, loadProducer, tick: (ms: number) => (now += ms) };
}

describe('changes made before immer arrives', () => {
  it('are one undo step each, typing still grouped, and undo and redo across the arrival', async () => {
    const { store, loadProducer, tick } = await storeWithoutImmer();
    const start = store.getState().doc;
    const text = store.addNode('text', { x: 0, y: 0 });
    const typing = { typing: true };
    store.setParam(text, 'text', 'a', typing);
    tick(100);
    store.setParam(text, 'text', 'ab', typing);
    expect(store.getState().history.canUndo).toBe(true);
    expect(store.getState().dirty).toBe(true);
    // A copy, not immer's (which freezes what it makes).
    expect(Object.isFrozen(store.getState().doc)).toBe(false);
    // Nothing changed, nothing recorded.
    const revision = store.getState().revision;
    store.setParam(text, 'text', 'ab', typing);
    expect(store.getState().revision).toBe(revision);

    await loadProducer();
    tick(100);
    store.setParam(text, 'text', 'abc', typing);
    const typed = store.getState().doc;
    expect(typed.nodes[0]!.params.text).toBe('abc');
    expect(Object.isFrozen(typed)).toBe(true);

    // The typing (two changes before immer, one after) is one step; the node is another.
    store.undo();
    expect(store.getState().doc.nodes[0]!.params.text ?? '').toBe('');
    store.undo();
    expect(store.getState().doc).toEqual(start);
    expect(store.getState().history.canUndo).toBe(false);
    store.redo();
    store.redo();
    expect(store.getState().doc).toEqual(typed);
  });
});
