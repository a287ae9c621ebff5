/**
 * Components in the editor store, headless: make from the selection, the instance as a node type
 * (ports from the definition, shown parameters with their labels), open and edit the definition
 * (every instance follows), unpack, each one undo step; a missing definition is a placeholder.
 */
import { describe, expect, it } from 'vitest';
import { createEditorStore } from '../../src/store/editor-store';
import { starterWorkflow } from '../../src/store/starter';
import { inputsFor, outputsFor } from '../../src/store/ports';
import { flattenComponents } from '../../workflow/flatten';
import { serializeWorkflow } from '../../workflow/serialize';
import { loadWorkflow } from '../../workflow/load';

const SHOWN = [{ name: 'strength', label: 'Restyle strength', node: 'image-to-image', param: 'strength' }];

function madeStore() {
  let now = 1_000_000;
  const store = createEditorStore({ initial: starterWorkflow(), now: () => (now += 10) });
  store.select({ nodes: ['text-to-image', 'image-to-image'] });
  const made = store.makeComponent({ name: 'Restyle', shown: SHOWN });
  if (!made.ok) throw new Error(made.reason);
  return { store, id: made.nodeId };
}

/** A second instance of the same definition, wired like nothing (as a paste of the first makes). */
function secondInstance(store: ReturnType<typeof createEditorStore>, id: string): string {
  store.select({ nodes: [id] });
  const pasted = store.duplicate();
  if (!pasted.ok) throw new Error(pasted.reason);
  return [...store.getState().selection.nodes][0]!;
}

describe('editor: make component', () => {
  it('replaces the selection by one instance whose ports are the wires that crossed its border, as one undo step', () => {
    const { store, id } = madeStore();
    const { doc } = store.getState();
    expect(doc.nodes.map((n) => n.id)).toEqual(['prompt-writer', id, 'preview']);
    expect(doc.components).toHaveLength(1);
    expect(doc.edges.map((e) => `${e.source.node}.${e.source.port}->${e.target.node}.${e.target.port}`))
      .toEqual([`prompt-writer.text->${id}.prompt`, `${id}.image->preview.value`]);
    expect([...store.getState().selection.nodes]).toEqual([id]);
    expect(store.getState().history.undoLabel).toBe('make component');
    // The file saves and loads with it.
    expect(() => loadWorkflow(serializeWorkflow(doc))).not.toThrow();
    store.undo();
    expect(store.getState().doc.nodes).toEqual(starterWorkflow().nodes);
    expect(store.getState().doc.components).toBeUndefined();
  });

  it('shows as a node type: ports from the definition with the inner kinds and labels, shown parameters under their own labels', () => {
    const { store, id } = madeStore();
    const node = store.getState().index.nodeById.get(id)!;
    const def = store.registry.get(node.type)!;
    expect(def.title).toBe('Restyle');
    expect(inputsFor(def, node.params).map((p) => [p.name, p.kind, p.label])).toEqual([['prompt', 'text', 'Prompt']]);
    expect(outputsFor(def, node.params).map((p) => [p.name, p.kind])).toEqual([['image', 'image']]);
    expect(def.mainFields).toEqual(['strength']);
    // Unset on the instance, the field holds the definition's value.
    expect(def.params.parse({})).toEqual({ strength: 0.55 });
    expect(def.params.safeParse({ strength: 7 }).success).toBe(false);
    const schema = JSON.stringify(def.params.toJSONSchema?.() ?? {});
    expect(schema === '{}' || schema.includes('Restyle strength')).toBe(true);
    // A value set on the face reaches the inner node when the plan flattens it.
    store.setParam(id, 'strength', 0.3);
    const flat = flattenComponents(store.getState().doc);
    expect(flat.ok && flat.workflow.nodes.find((n) => n.id === `${id}/image-to-image`)?.params.strength).toBe(0.3);
  });

  it('refuses an empty selection or name, saying why', () => {
    const store = createEditorStore({ initial: starterWorkflow() });
    expect(store.makeComponent({ name: 'X' })).toEqual({ ok: false, reason: 'select the nodes to make a component of first' });
    store.select({ nodes: ['preview'] });
    expect(store.makeComponent({ name: '  ' })).toEqual({ ok: false, reason: 'the component needs a name' });
  });
});

describe('editor: open, edit inside, back out', () => {
  it('shows the definition, and an edit inside changes every instance as one undo step', () => {
    const { store, id } = madeStore();
    const other = secondInstance(store, id);
    expect(store.openComponent(id)).toEqual({ ok: true, nodeId: id });
    const inside = store.getState();
    expect(inside.scope).toEqual([{ componentId: 'restyle', instanceId: id }]);
    expect(inside.view.nodes.map((n) => n.id)).toEqual(['text-to-image', 'image-to-image']);
    expect(store.breadcrumb().map((c) => c.label)).toEqual(['Prompt → picture → restyle', 'Restyle']);
    // The file is still the whole workflow.
    expect(inside.doc.nodes.map((n) => n.id)).toEqual(['prompt-writer', id, 'preview', other]);

    const revision = inside.doc.components![0]!.revision;
    store.setParam('text-to-image', 'steps', 12);
    const def = store.getState().doc.components![0]!;
    expect(def.nodes.find((n) => n.id === 'text-to-image')!.params.steps).toBe(12);
    expect(def.revision).toBe(revision + 1);
    expect(() => loadWorkflow(serializeWorkflow(store.getState().doc))).not.toThrow();
    // Both instances run the edited definition.
    const flat = flattenComponents(store.getState().doc);
    if (!flat.ok) throw new Error('flatten failed');
    for (const instance of [id, other]) expect(flat.workflow.nodes.find((n) => n.id === `${instance}/text-to-image`)!.params.steps).toBe(12);

    store.undo();
    expect(store.getState().doc.components![0]!.nodes.find((n) => n.id === 'text-to-image')!.params.steps).not.toBe(12);
    expect(store.getState().scope).toHaveLength(1);
    store.closeComponent(0);
    expect(store.getState().scope).toEqual([]);
    expect(store.getState().view).toBe(store.getState().doc);
    expect(store.getState().index.nodeById.has(id)).toBe(true);
  });

  it('keeps the face in line: deleting an inner node drops its ports and values on every instance', () => {
    const { store, id } = madeStore();
    store.setParam(id, 'strength', 0.3);
    store.openComponent(id);
    store.select({ nodes: ['image-to-image'] });
    store.deleteSelection();
    const { doc } = store.getState();
    const def = doc.components![0]!;
    expect(def.outputs).toEqual([]);
    expect(def.params).toEqual([]);
    expect(doc.nodes.find((n) => n.id === id)!.params).toEqual({});
    expect(doc.edges.some((e) => e.source.node === id)).toBe(false);
    expect(() => loadWorkflow(serializeWorkflow(doc))).not.toThrow();
    // One step brings all of it back.
    store.undo();
    expect(store.getState().doc.components![0]!.outputs).toHaveLength(1);
    expect(store.getState().doc.nodes.find((n) => n.id === id)!.params).toEqual({ strength: 0.3 });
  });

  it('closes an opened component whose definition an undo takes away', () => {
    const { store, id } = madeStore();
    store.openComponent(id);
    store.closeComponent(0);
    store.openComponent(id);
    store.undo();
    expect(store.getState().scope).toEqual([]);
    expect(store.getState().view.nodes.map((n) => n.id)).toEqual(['prompt-writer', 'text-to-image', 'image-to-image', 'preview']);
  });

  it('adds notes and groups to the workflow only, never to a definition', () => {
    const { store, id } = madeStore();
    store.openComponent(id);
    store.addNote({ x: 0, y: 0 }, 'hello');
    expect(store.getState().doc.components![0]).not.toHaveProperty('notes');
    expect(() => loadWorkflow(serializeWorkflow(store.getState().doc))).not.toThrow();
  });
});

describe('editor: unpack', () => {
  it('brings the nodes back in place with the instance\'s values, as one undo step, and drops the unused definition', () => {
    const { store, id } = madeStore();
    store.setParam(id, 'strength', 0.3);
    expect(store.unpackComponent(id).ok).toBe(true);
    const { doc } = store.getState();
    expect(doc.components).toBeUndefined();
    expect(doc.nodes.map((n) => n.id).sort()).toEqual(['image-to-image', 'preview', 'prompt-writer', 'text-to-image']);
    expect(doc.nodes.find((n) => n.id === 'image-to-image')!.params.strength).toBe(0.3);
    expect(store.getState().history.undoLabel).toBe('unpack component');
    store.undo();
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual(['prompt-writer', id, 'preview']);
  });

  it('keeps the definition while another instance uses it', () => {
    const { store, id } = madeStore();
    secondInstance(store, id);
    store.unpackComponent(id);
    expect(store.getState().doc.components).toHaveLength(1);
  });
});

describe('editor: a missing definition', () => {
  it('is a placeholder: not a known type, kept as it is, and neither opened nor unpacked', () => {
    const { store, id } = madeStore();
    const doc = store.getState().doc;
    const { components: _gone, ...without } = doc;
    store.load({ ...without, version: 1 }, { record: true });
    expect(store.registry.has(`component:restyle`)).toBe(false);
    expect(store.getState().doc.nodes.find((n) => n.id === id)!.type).toBe('component:restyle');
    expect(store.openComponent(id)).toEqual({ ok: false, reason: "the definition of component 'restyle' is not in this workflow, so it cannot be opened" });
    expect(store.unpackComponent(id).ok).toBe(false);
  });
});

describe('editor: a component never inside itself', () => {
  it('refuses a paste of the opened component into its own definition, changing nothing', () => {
    const { store, id } = madeStore();
    store.select({ nodes: [id] });
    store.copy();
    store.openComponent(id);
    const before = store.getState().doc;
    expect(() => store.paste({ x: 0, y: 0 })).toThrow("a component cannot contain itself: 'restyle' is open, and this would put it inside");
    expect(store.getState().doc).toBe(before);
    // Other nodes paste as ever.
    store.closeComponent(0);
    store.select({ nodes: ['preview'] });
    store.copy();
    store.openComponent(id);
    expect(store.paste({ x: 0, y: 0 }).ok).toBe(true);
  });
});

describe('editor: copy and paste between tabs', () => {
  it('carries the definitions with the instances, so another workflow pastes them whole', () => {
    const { store, id } = madeStore();
    store.select({ nodes: [id] });
    const text = serializeWorkflow(store.copy()!);
    const other = createEditorStore({ initial: starterWorkflow() });
    const pasted = other.pasteWorkflow(loadWorkflow(text).workflow, { x: 0, y: 900 });
    expect(pasted.ok).toBe(true);
    const doc = other.getState().doc;
    expect(doc.components?.map((c) => c.id)).toEqual(['restyle']);
    expect(doc.nodes.filter((n) => n.type === 'component:restyle')).toHaveLength(1);
    expect(() => loadWorkflow(serializeWorkflow(doc))).not.toThrow();
  });
});
