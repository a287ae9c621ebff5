/**
 * Edit face: after Make, which inner fields a component's face shows and their labels can change,
 * as one undo step; every instance follows, and loses its values of fields taken off the face.
 */
import { describe, expect, it } from 'vitest';
import { faceChoices } from '../../src/components/shown-choices';
import { createEditorStore } from '../../src/store/editor-store';
import { starterWorkflow } from '../../src/store/starter';
import { loadWorkflow } from '../../workflow/load';
import { serializeWorkflow } from '../../workflow/serialize';
import type { ComponentParam } from '../../workflow/schema';

const STRENGTH: ComponentParam = { name: 'strength', label: 'Restyle strength', node: 'image-to-image', param: 'strength' };

/** Restyle (the starter's two image nodes) showing its strength, used twice, the first with a value of its own. */
function twoInstances() {
  const store = createEditorStore({ initial: starterWorkflow() });
  store.select({ nodes: ['text-to-image', 'image-to-image'] });
  const made = store.makeComponent({ name: 'Restyle', shown: [STRENGTH] });
  if (!made.ok) throw new Error(made.reason);
  store.setParam(made.nodeId, 'strength', 0.3);
  store.select({ nodes: [made.nodeId] });
  const pasted = store.duplicate();
  if (!pasted.ok) throw new Error(pasted.reason);
  const other = [...store.getState().selection.nodes][0]!;
  return { store, first: made.nodeId, other };
}

const fieldsOf = (store: ReturnType<typeof createEditorStore>, nodeId: string) => {
  const node = store.getState().index.nodeById.get(nodeId)!;
  return store.registry.get(node.type)!.mainFields;
};

describe('edit a component\'s face', () => {
  it('offers the inner fields, those shown under their face names and labels', () => {
    const { store } = twoInstances();
    const def = store.getState().doc.components![0]!;
    const { choices, shown } = faceChoices(def, store.registry);
    expect(shown).toEqual(new Map([['strength', 'Restyle strength']]));
    const strength = choices.filter((c) => c.node === 'image-to-image' && c.param === 'strength');
    expect(strength.map((c) => c.name)).toEqual(['strength']);
    // Another node's field of the same parameter name gets a name of its own.
    expect(new Set(choices.map((c) => c.name)).size).toBe(choices.length);
    expect(choices.some((c) => c.node === 'text-to-image')).toBe(true);
  });

  it('changes every instance as one undo step, relabelling, adding and taking off fields', () => {
    const { store, first, other } = twoInstances();
    const before = store.getState().doc;
    const revision = before.components![0]!.revision;
    const steps: ComponentParam = { name: 'steps', label: 'Picture steps', node: 'text-to-image', param: 'steps' };

    expect(store.setComponentFace('restyle', [{ ...STRENGTH, label: 'How far' }, steps])).toEqual({ ok: true, nodeId: 'restyle' });
    expect(store.getState().history.undoLabel).toBe('edit the face of Restyle');
    const def = store.getState().doc.components![0]!;
    expect(def.params).toEqual([{ ...STRENGTH, label: 'How far' }, steps]);
    expect(def.revision).toBe(revision + 1);
    for (const id of [first, other]) expect(fieldsOf(store, id)).toEqual(['strength', 'steps']);
    // A field kept keeps the value an instance had set.
    expect(store.getState().index.nodeById.get(first)!.params).toEqual({ strength: 0.3 });
    expect(() => loadWorkflow(serializeWorkflow(store.getState().doc))).not.toThrow();

    // Taken off: no instance keeps a value for it, and the file still loads and runs as before.
    store.setParam(other, 'steps', 9);
    expect(store.setComponentFace('restyle', [steps]).ok).toBe(true);
    expect(store.getState().index.nodeById.get(first)!.params).toEqual({});
    expect(store.getState().index.nodeById.get(other)!.params).toEqual({ steps: 9 });
    expect(() => loadWorkflow(serializeWorkflow(store.getState().doc))).not.toThrow();

    store.undo();
    store.undo();
    store.undo();
    expect(store.getState().doc).toEqual(before);
  });

  it('refuses a face naming a node the component does not hold, or one name twice, changing nothing', () => {
    const { store } = twoInstances();
    const before = store.getState().doc;
    const label = store.getState().history.undoLabel;
    expect(store.setComponentFace('restyle', [{ ...STRENGTH, node: 'preview' }])).toEqual({
      ok: false, reason: "shown field 'strength' names 'preview', which is not a node of 'Restyle'",
    });
    expect(store.setComponentFace('restyle', [STRENGTH, { ...STRENGTH, param: 'seed' }])).toEqual({ ok: false, reason: "two shown fields are named 'strength'" });
    expect(store.setComponentFace('nothing', [])).toMatchObject({ ok: false });
    expect(store.getState().doc).toBe(before);
    expect(store.getState().history.undoLabel).toBe(label);
  });

  it('reaches the instances in the file\'s own graph while a component is open', () => {
    const { store, first } = twoInstances();
    store.openComponent(first);
    expect(store.setComponentFace('restyle', []).ok).toBe(true);
    expect(store.getState().doc.nodes.find((n) => n.id === first)!.params).toEqual({});
    expect(store.getState().doc.components![0]!.params).toEqual([]);
    expect(store.getState().scope).toHaveLength(1);
    expect(() => loadWorkflow(serializeWorkflow(store.getState().doc))).not.toThrow();
  });
});
