/**
 * The editor store driven headless: editing actions, and undo/redo one gesture
 * at a time, with no DOM.
 */
import { describe, expect, it } from 'vitest';
import { createWorkflow } from '../../workflow/create';
import { createEditorStore } from '../../src/store/editor-store';
import { GROUP_WINDOW_MS } from '../../src/store/history';

function emptyStore() {
  let now = 1_000_000;
  const store = createEditorStore({ initial: createWorkflow({ title: 'Test' }), now: () => now });
  return { store, tick: (ms: number) => (now += ms) };
}

describe('editor store: building a graph', () => {
  it('adds a node with its type defaults and selects it', () => {
    const { store } = emptyStore();
    const id = store.addNode('text-to-image', { x: 10.4, y: 20.6 });
    const node = store.getState().index.nodeById.get(id)!;
    expect(node).toMatchObject({ id: 'text-to-image-1', type: 'text-to-image', position: { x: 10, y: 21 } });
    expect(node.params).toMatchObject({ engine: 'sdxl', sampler: 'DDIM', steps: 30, seed: null, prompt: '' });
    expect('width' in node.params).toBe(false);
    expect([...store.getState().selection.nodes]).toEqual([id]);
  });

  it('refuses an unknown type', () => {
    const { store } = emptyStore();
    expect(() => store.addNode('no-such-node', { x: 0, y: 0 })).toThrow(/unknown node type 'no-such-node'/);
  });

  it('connects ports of fitting kinds and refuses others with the reason', () => {
    const { store } = emptyStore();
    const chat = store.addNode('chat-prompt-writer', { x: 0, y: 0 });
    const t2i = store.addNode('text-to-image', { x: 300, y: 0 });
    const ok = store.connect({ node: chat, port: 'text' }, { node: t2i, port: 'prompt' });
    expect(ok).toEqual({ ok: true });
    expect(store.getState().doc.edges).toEqual([
      { id: `${chat}:text->${t2i}:prompt`, source: { node: chat, port: 'text' }, target: { node: t2i, port: 'prompt' } },
    ]);
    const loader = store.addNode('image-loader', { x: 0, y: 300 });
    const bad = store.connect({ node: loader, port: 'image' }, { node: t2i, port: 'negative_prompt' });
    expect(bad).toEqual({ ok: false, reason: expect.stringMatching(/Image gives image, but Negative prompt takes text, number or text list/) });
    expect(store.getState().doc.edges).toHaveLength(1);
  });

  it('shows a parameter wired as an input as a port, and hiding it removes the wire', () => {
    const { store } = emptyStore();
    const chat = store.addNode('chat-prompt-writer', { x: 0, y: 0 });
    const t2i = store.addNode('text-to-image', { x: 300, y: 0 });
    store.connect({ node: chat, port: 'text' }, { node: t2i, port: 'prompt' });
    expect(store.getState().asInput.get(t2i)?.has('prompt')).toBe(true);
    store.setAsInput(t2i, 'prompt', false);
    expect(store.getState().doc.edges).toEqual([]);
    expect(store.getState().asInput.has(t2i)).toBe(false);
    store.undo();
    expect(store.getState().doc.edges).toHaveLength(1);
  });

  it('replaces the wire of an input that is already connected', () => {
    const { store } = emptyStore();
    const a = store.addNode('text', { x: 0, y: 0 });
    const b = store.addNode('text', { x: 0, y: 200 });
    const t2i = store.addNode('text-to-image', { x: 300, y: 0 });
    store.connect({ node: a, port: 'text' }, { node: t2i, port: 'prompt' });
    const check = store.connect({ node: b, port: 'text' }, { node: t2i, port: 'prompt' });
    expect(check.ok && check.replaces?.source.node).toBe(a);
    expect(store.getState().doc.edges.map((e) => e.source.node)).toEqual([b]);
    store.undo();
    expect(store.getState().doc.edges.map((e) => e.source.node)).toEqual([a]);
  });

  it('adds a node already wired to the port a wire was dropped from', () => {
    const { store } = emptyStore();
    const t2i = store.addNode('text-to-image', { x: 0, y: 0 });
    const i2i = store.addNode('image-to-image', { x: 400, y: 0 }, { connect: { from: { node: t2i, port: 'image' } } });
    expect(store.getState().doc.edges).toEqual([expect.objectContaining({ target: { node: i2i, port: 'image' } })]);
    const chat = store.addNode('chat-prompt-writer', { x: -400, y: 0 }, { connect: { to: { node: t2i, port: 'prompt' } } });
    expect(store.getState().doc.edges.map((e) => e.source)).toContainEqual({ node: chat, port: 'text' });
    store.undo();
    expect(store.getState().index.nodeById.has(chat)).toBe(false);
    expect(store.getState().doc.edges).toHaveLength(1);
  });

  it('deletes the selection with the wires that touch it, as one step', () => {
    const { store } = emptyStore();
    const chat = store.addNode('chat-prompt-writer', { x: 0, y: 0 });
    const t2i = store.addNode('text-to-image', { x: 300, y: 0 });
    const pv = store.addNode('preview', { x: 600, y: 0 });
    store.connect({ node: chat, port: 'text' }, { node: t2i, port: 'prompt' });
    store.connect({ node: t2i, port: 'image' }, { node: pv, port: 'value' });
    store.select({ nodes: [t2i] });
    store.deleteSelection();
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual([chat, pv]);
    expect(store.getState().doc.edges).toEqual([]);
    expect(store.getState().selection.nodes.size).toBe(0);
    store.undo();
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual([chat, t2i, pv]);
    expect(store.getState().doc.edges).toHaveLength(2);
  });

  it('deletes a selected wire alone', () => {
    const { store } = emptyStore();
    const t2i = store.addNode('text-to-image', { x: 0, y: 0 });
    const pv = store.addNode('preview', { x: 300, y: 0 });
    store.connect({ node: t2i, port: 'image' }, { node: pv, port: 'value' });
    store.select({ edges: [store.getState().doc.edges[0]!.id] });
    store.deleteSelection();
    expect(store.getState().doc.edges).toEqual([]);
    expect(store.getState().doc.nodes).toHaveLength(2);
  });

  it('renames nodes and the workflow; an empty name goes back to the type title', () => {
    const { store } = emptyStore();
    const id = store.addNode('text', { x: 0, y: 0 });
    store.setNodeTitle(id, '  Style words ');
    expect(store.getState().index.nodeById.get(id)!.title).toBe('Style words');
    expect(store.titleOf(id)).toBe('Style words');
    store.setNodeTitle(id, '');
    expect('title' in store.getState().index.nodeById.get(id)!).toBe(false);
    store.setWorkflowTitle('Portraits');
    expect(store.getState().doc.metadata.title).toBe('Portraits');
  });
});

describe('editor store: undo and redo by gesture', () => {
  it('a drag is one step, committed at its end; positions during it stay out of the document', () => {
    const { store } = emptyStore();
    const id = store.addNode('text', { x: 0, y: 0 });
    for (let i = 1; i <= 20; i++) store.dragNodes({ [id]: { x: i * 5, y: i * 2 } });
    expect(store.getState().index.nodeById.get(id)!.position).toEqual({ x: 0, y: 0 });
    expect(store.getState().drag?.get(id)).toEqual({ x: 100, y: 40 });
    store.endDrag();
    expect(store.getState().drag).toBeNull();
    expect(store.getState().index.nodeById.get(id)!.position).toEqual({ x: 100, y: 40 });
    expect(store.getState().history.undoLabel).toBe('move');
    store.undo();
    expect(store.getState().index.nodeById.get(id)!.position).toEqual({ x: 0, y: 0 });
    store.redo();
    expect(store.getState().index.nodeById.get(id)!.position).toEqual({ x: 100, y: 40 });
  });

  it('typing in one field within a second is one step; a pause or another field starts a new one', () => {
    const { store, tick } = emptyStore();
    const id = store.addNode('text', { x: 0, y: 0 });
    const text = () => store.getState().index.nodeById.get(id)!.params.text;
    for (const value of ['a', 'ab', 'abc']) {
      store.setParam(id, 'text', value, { typing: true });
      tick(300);
    }
    tick(GROUP_WINDOW_MS + 1);
    store.setParam(id, 'text', 'abcd', { typing: true });
    store.undo();
    expect(text()).toBe('abc');
    store.undo();
    expect(text()).toBe('');
    store.redo();
    expect(text()).toBe('abc');
  });

  it('a change that is not typing is never merged, even in the same field', () => {
    const { store } = emptyStore();
    const id = store.addNode('text-to-image', { x: 0, y: 0 });
    store.setParam(id, 'sampler', 'K_EULER');
    store.setParam(id, 'sampler', 'HEUN');
    store.undo();
    expect(store.getState().index.nodeById.get(id)!.params.sampler).toBe('K_EULER');
  });

  it('a new edit after undo clears redo; undo with nothing to undo reports false', () => {
    const { store } = emptyStore();
    expect(store.undo()).toBe(false);
    const id = store.addNode('text', { x: 0, y: 0 });
    store.setParam(id, 'text', 'one');
    store.undo();
    expect(store.getState().history.canRedo).toBe(true);
    store.setParam(id, 'text', 'two');
    expect(store.getState().history.canRedo).toBe(false);
    expect(store.redo()).toBe(false);
  });

  it('setParams changes several fields in one step; undefined removes a field', () => {
    const { store } = emptyStore();
    const id = store.addNode('text-to-image', { x: 0, y: 0 });
    store.setParams(id, { width: 832, height: 1216 });
    expect(store.getState().index.nodeById.get(id)!.params).toMatchObject({ width: 832, height: 1216 });
    store.setParams(id, { width: undefined, height: undefined });
    expect('width' in store.getState().index.nodeById.get(id)!.params).toBe(false);
    store.undo();
    store.undo();
    expect('width' in store.getState().index.nodeById.get(id)!.params).toBe(false);
  });

  it('selection is not history', () => {
    const { store } = emptyStore();
    const a = store.addNode('text', { x: 0, y: 0 });
    const b = store.addNode('text', { x: 0, y: 100 });
    store.select({ nodes: [a] });
    store.select({ nodes: [b] }, 'add');
    expect([...store.getState().selection.nodes].sort()).toEqual([a, b].sort());
    store.undo();
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual([a]);
    expect([...store.getState().selection.nodes]).toEqual([a]);
  });

  it('keeps other nodes\' index entries when one node changes', () => {
    const { store } = emptyStore();
    const a = store.addNode('text', { x: 0, y: 0 });
    const t2i = store.addNode('text-to-image', { x: 300, y: 0 });
    store.connect({ node: a, port: 'text' }, { node: t2i, port: 'prompt' });
    const before = store.getState().index;
    store.setParam(a, 'text', 'hello');
    const after = store.getState().index;
    expect(after.inbound.get(t2i)).toBe(before.inbound.get(t2i));
    expect(after.nodeById.get(t2i)).toBe(before.nodeById.get(t2i));
    expect(after.nodeById.get(a)).not.toBe(before.nodeById.get(a));
  });
});

describe('editor store: unsaved marker and focus', () => {
  it('is dirty after an edit, clean after markSaved, and clean again when undone back to the save', () => {
    const { store } = emptyStore();
    expect(store.getState().dirty).toBe(false);
    const id = store.addNode('text', { x: 0, y: 0 });
    expect(store.getState().dirty).toBe(true);
    store.markSaved();
    expect(store.getState().dirty).toBe(false);
    store.setParam(id, 'text', 'x');
    expect(store.getState().dirty).toBe(true);
    store.undo();
    expect(store.getState().dirty).toBe(false);
    store.undo();
    expect(store.getState().dirty).toBe(true);
  });

  it('typing after a save starts a new step, so undo returns exactly to the saved text', () => {
    const { store } = emptyStore();
    const id = store.addNode('text', { x: 0, y: 0 });
    store.setParam(id, 'text', 'a', { typing: true });
    store.markSaved();
    store.setParam(id, 'text', 'ab', { typing: true });
    store.undo();
    expect(store.getState().index.nodeById.get(id)!.params.text).toBe('a');
    expect(store.getState().dirty).toBe(false);
  });

  it('focusNode selects the node and issues a distinct request each time', () => {
    const { store } = emptyStore();
    const id = store.addNode('text-to-image', { x: 0, y: 0 });
    store.clearSelection();
    store.focusNode(id, 'prompt');
    const first = store.getState().focus;
    expect(first).toMatchObject({ nodeId: id, field: 'prompt' });
    expect([...store.getState().selection.nodes]).toEqual([id]);
    store.focusNode(id, 'prompt');
    expect(store.getState().focus!.seq).toBeGreaterThan(first!.seq);
    store.focusNode('missing');
    expect(store.getState().focus!.nodeId).toBe(id);
  });
});

describe('editor store: reconnecting a wire', () => {
  it('moves a wire end to another input as one step, refusing a wrong kind', () => {
    const { store } = emptyStore();
    const chat = store.addNode('chat-prompt-writer', { x: 0, y: 0 });
    const t2i = store.addNode('text-to-image', { x: 300, y: 0 });
    store.connect({ node: chat, port: 'text' }, { node: t2i, port: 'prompt' });
    const id = store.getState().doc.edges[0]!.id;
    expect(store.reconnect(id, { node: chat, port: 'text' }, { node: t2i, port: 'negative_prompt' })).toEqual({ ok: true });
    expect(store.getState().doc.edges.map((e) => e.target.port)).toEqual(['negative_prompt']);
    store.undo();
    expect(store.getState().doc.edges.map((e) => e.target.port)).toEqual(['prompt']);
    const loader = store.addNode('image-loader', { x: 0, y: 300 });
    expect(store.reconnect(id, { node: loader, port: 'image' }, { node: t2i, port: 'prompt' }).ok).toBe(false);
    expect(store.reconnect('gone', { node: chat, port: 'text' }, { node: t2i, port: 'prompt' })).toEqual({ ok: false, reason: 'that wire no longer exists' });
  });
});
