/** How the store records changes (src/store/produce.ts): immer patches, one undo step a gesture. */
import { describe, expect, it } from 'vitest';
import { createEditorStore } from '../../src/store/editor-store';
import { createWorkflow } from '../../workflow/create';

describe('changes to the document', () => {
  it('are frozen, recorded only when something changed, typing grouped, and undone and redone exactly', () => {
    let now = 1_000_000;
    const store = createEditorStore({ initial: createWorkflow({ title: 'Early' }), now: () => now });
    const start = store.getState().doc;
    const text = store.addNode('text', { x: 0, y: 0 });
    const typing = { typing: true };
    store.setParam(text, 'text', 'a', typing);
    now += 100;
    store.setParam(text, 'text', 'ab', typing);
    expect(store.getState().history.canUndo).toBe(true);
    expect(store.getState().dirty).toBe(true);
    expect(Object.isFrozen(store.getState().doc)).toBe(true);
    // Nothing changed, nothing recorded.
    const revision = store.getState().revision;
    store.setParam(text, 'text', 'ab', typing);
    expect(store.getState().revision).toBe(revision);
    now += 100;
    store.setParam(text, 'text', 'abc', typing);
    const typed = store.getState().doc;
    expect(typed.nodes[0]!.params.text).toBe('abc');

    // The typing is one step; the node is another.
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
