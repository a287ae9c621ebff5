/** Copy, paste, duplicate and opening files through the store. */
import { describe, expect, it } from 'vitest';
import { createWorkflow } from '../../workflow/create';
import { serializeWorkflow } from '../../workflow/serialize';
import { WorkflowLoadError } from '../../workflow/errors';
import { createEditorStore, type EditorStore } from '../../src/store/editor-store';
import { parsePaste } from '../../src/store/paste-text';
import { loadWorkflow } from '../../workflow/load';
import { starterWorkflow } from '../../src/store/starter';

/** Pastes text the way the page does with the system clipboard. */
function pasteText(store: EditorStore, text: string, at?: { x: number; y: number }) {
  const parsed = parsePaste(text, store.registry);
  return parsed.ok ? store.pasteWorkflow(parsed.workflow, at, parsed.warnings) : parsed;
}

const openText = (store: EditorStore, text: string) => store.open(loadWorkflow(text, { knownTypes: store.knownTypes() }));

function twoWired() {
  const store = createEditorStore({ initial: createWorkflow({ title: 'Clip' }) });
  const t2i = store.addNode('text-to-image', { x: 100, y: 100 });
  const pv = store.addNode('preview', { x: 500, y: 100 });
  store.connect({ node: t2i, port: 'image' }, { node: pv, port: 'value' });
  store.setParam(t2i, 'prompt', 'a red fox');
  return { store, t2i, pv };
}

describe('copy and paste', () => {
  it('pastes copies with new ids, their inner wire, offset, selected, as one step', () => {
    const { store, t2i, pv } = twoWired();
    store.select({ nodes: [t2i, pv] });
    expect(store.copy()).toMatchObject({ format: 'atelier.workflow', edges: [{ source: { node: t2i } }] });
    const result = store.paste();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.nodeIds).toEqual(['text-to-image-2', 'preview-2']);
    const { doc, selection } = store.getState();
    expect(doc.nodes).toHaveLength(4);
    const copy = doc.nodes.find((n) => n.id === 'text-to-image-2')!;
    expect(copy.position).toEqual({ x: 140, y: 140 });
    expect(copy.params.prompt).toBe('a red fox');
    expect(doc.edges.map((e) => e.id)).toContain('text-to-image-2:image->preview-2:value');
    expect([...selection.nodes]).toEqual(result.nodeIds);
    store.paste();
    expect(store.getState().doc.nodes.find((n) => n.id === 'text-to-image-3')!.position).toEqual({ x: 180, y: 180 });
    store.undo();
    store.undo();
    expect(store.getState().doc.nodes).toHaveLength(2);
  });

  it('leaves out wires to nodes that were not copied, and pastes at a given point', () => {
    const { store, pv } = twoWired();
    store.select({ nodes: [pv] });
    store.copy();
    const result = store.paste({ x: -300, y: 50 });
    expect(result.ok && result.nodeIds).toEqual(['preview-2']);
    expect(store.getState().index.nodeById.get('preview-2')!.position).toEqual({ x: -300, y: 50 });
    expect(store.getState().doc.edges).toHaveLength(1);
  });

  it('duplicate copies the selection without touching what was copied', () => {
    const { store, t2i, pv } = twoWired();
    store.select({ nodes: [pv] });
    store.copy();
    store.select({ nodes: [t2i] });
    expect(store.duplicate().ok).toBe(true);
    expect(store.getState().index.nodeById.has('text-to-image-2')).toBe(true);
    expect(store.getState().history.undoLabel).toBe('duplicate node');
    const again = store.paste();
    expect(again.ok && again.nodeIds).toEqual(['preview-2']);
    expect(store.getState().history.undoLabel).toBe('paste node');
    store.select({ nodes: [t2i, pv] });
    store.duplicate();
    expect(store.getState().history.undoLabel).toBe('duplicate 2 items');
  });

  it('refuses text that is not Atelier nodes, and removes credentials from pasted nodes', () => {
    const { store } = twoWired();
    const bad = pasteText(store, 'hello there');
    expect(bad).toEqual({ ok: false, reason: expect.stringMatching(/^the clipboard does not hold Atelier nodes/) });
    const hostile = {
      ...createWorkflow(),
      nodes: [{ id: 'n', type: 'text', position: { x: 0, y: 0 }, params: { text: 'hi', api_key: 'sk-abcdefghijklmnopqrstuvwxyz123456' } }],
    };
    const result = pasteText(store, JSON.stringify(hostile));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.warnings.map((w) => w.code)).toContain('credential-dropped');
    expect(store.getState().index.nodeById.get(result.nodeIds[0]!)!.params).toEqual({ text: 'hi' });
  });

  it('nodes copied in one tab paste in another through the clipboard text, wires included', () => {
    const { store, t2i, pv } = twoWired();
    store.select({ nodes: [t2i, pv] });
    // The page puts the copy on the clipboard as file text (copy-out.ts) and tells the store.
    const text = serializeWorkflow(store.copy()!);
    store.setCopiedText(text);
    expect(store.copiedText()).toBe(text);
    const other = createEditorStore({ initial: createWorkflow() });
    const result = pasteText(other, text, { x: 0, y: 0 });
    expect(result.ok && result.nodeIds).toEqual(['text-to-image-1', 'preview-1']);
    expect(other.getState().doc.edges.map((e) => e.id)).toEqual(['text-to-image-1:image->preview-1:value']);
    expect(other.getState().index.nodeById.get('text-to-image-1')!.position).toEqual({ x: 0, y: 0 });
  });

  it('copy with nothing selected gives null; paste with nothing copied says so', () => {
    const store = createEditorStore({ initial: createWorkflow() });
    expect(store.copy()).toBeNull();
    expect(store.paste()).toEqual({ ok: false, reason: 'nothing has been copied yet' });
    expect(store.duplicate()).toEqual({ ok: false, reason: 'select the nodes to duplicate first' });
  });
});

describe('opening files through the store', () => {
  it('opens a file as one undoable step, marked saved', () => {
    const { store } = twoWired();
    const result = openText(store, serializeWorkflow(starterWorkflow()));
    expect(result.warnings).toEqual([]);
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual(['prompt-writer', 'text-to-image', 'image-to-image', 'preview']);
    expect(store.getState().dirty).toBe(false);
    store.undo();
    expect(store.getState().doc.metadata.title).toBe('Clip');
    expect(store.getState().dirty).toBe(true);
  });

  it('keeps the current graph when a file is refused, with every problem listed', () => {
    const { store } = twoWired();
    const before = store.getState().doc;
    const broken = JSON.stringify({ ...createWorkflow(), nodes: [{ id: 'a b', type: 'text', position: { x: 0 }, params: {} }] });
    let error: unknown;
    try {
      openText(store, broken);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WorkflowLoadError);
    expect((error as WorkflowLoadError).issues.map((i) => i.path)).toEqual(expect.arrayContaining(['nodes[0].id', 'nodes[0].position.y']));
    expect(store.getState().doc).toBe(before);
  });

  it('opens unknown node types verbatim with a warning', () => {
    const store = createEditorStore({ initial: createWorkflow() });
    const file = { ...createWorkflow(), nodes: [{ id: 'up', type: 'vendor/upscale', position: { x: 0, y: 0 }, params: { factor: 4, nested: { a: [1, 2] } } }] };
    const result = openText(store, JSON.stringify(file));
    expect(result.warnings.map((w) => w.code)).toEqual(['unknown-node-type']);
    expect(store.getState().index.nodeById.get('up')!.params).toEqual({ factor: 4, nested: { a: [1, 2] } });
  });

  it('New gives an empty, saved workflow that undo takes back', () => {
    const { store } = twoWired();
    store.newWorkflow();
    expect(store.getState().doc.nodes).toEqual([]);
    expect(store.getState().dirty).toBe(false);
    store.undo();
    expect(store.getState().doc.nodes).toHaveLength(2);
  });

  it('restoring without history keeps unsaved work marked, and parameters shown as ports', () => {
    const store = createEditorStore({ initial: createWorkflow() });
    store.load(starterWorkflow(), { dirty: true, asInput: { 'text-to-image': ['seed'] } });
    expect(store.getState().history.canUndo).toBe(false);
    expect(store.getState().dirty).toBe(true);
    expect(store.asInputRecord()).toEqual({ 'text-to-image': ['seed'] });
  });
});
