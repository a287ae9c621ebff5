/**
 * App entries that a change leaves pointing at nothing go with that change, as part of its undo
 * step, and the store says which (for the page's toast): a deleted node, nodes made into a
 * component, a field taken off a component's face (Edit face, or its inner node deleted inside).
 * A ComfyUI workflow node's new file leaves its entries alone: they name its parameters, which
 * every file has.
 */
import { describe, expect, it } from 'vitest';
import { importPipeline } from '../../api/backends/comfyui/pipeline/import';
import { comfyWorkflowParams } from '../../nodes/comfy-workflow';
import { staleAppEntries } from '../../nodes/app-fields';
import { registry } from '../../nodes/index';
import { appPrunedMessage } from '../../src/appview/pruned-toast';
import { createEditorStore } from '../../src/store/editor-store';
import { starterWorkflow } from '../../src/store/starter';
import { loadWorkflow } from '../../workflow/load';
import { serializeWorkflow } from '../../workflow/serialize';
import type { ComponentParam } from '../../workflow/schema';
import { fixtureText, recordedObjectInfo } from '../backends/comfyui/pipeline/fixtures';

type Store = ReturnType<typeof createEditorStore>;
const STRENGTH: ComponentParam = { name: 'strength', label: 'Restyle strength', node: 'image-to-image', param: 'strength' };
const names = (store: Store) => ({
  inputs: store.getState().doc.app?.inputs.map((i) => i.name) ?? [],
  outputs: store.getState().doc.app?.outputs.map((o) => o.node) ?? [],
});

/** The starter made into a Restyle component showing its strength, marked in the app with the preview. */
function withComponent() {
  const store = createEditorStore({ initial: starterWorkflow() });
  store.select({ nodes: ['text-to-image', 'image-to-image'] });
  const made = store.makeComponent({ name: 'Restyle', shown: [STRENGTH] });
  if (!made.ok) throw new Error(made.reason);
  store.markAppInput(made.nodeId, 'strength');
  store.markAppInput('prompt-writer', 'user');
  store.markAppOutput('preview');
  return { store, instance: made.nodeId };
}

describe('app inputs follow a field that stays reachable', () => {
  const inputs = (store: Store) => store.getState().doc.app?.inputs.map((i) => [i.name, i.node, i.param]) ?? [];

  it('Make moves an input onto the instance\'s face when that field is shown there; Unpack moves it back; one undo step each', () => {
    const store = createEditorStore({ initial: starterWorkflow() });
    store.markAppInput('image-to-image', 'strength');
    store.markAppInput('text-to-image', 'steps');
    store.markAppInput('prompt-writer', 'user');
    const told = store.appPruned.get()?.seq ?? 0;
    store.select({ nodes: ['text-to-image', 'image-to-image'] });
    const made = store.makeComponent({ name: 'Restyle', shown: [STRENGTH] });
    if (!made.ok) throw new Error(made.reason);
    // Strength is on the face and moves there, under its face name; steps is not and goes, told.
    expect(inputs(store)).toEqual([['strength', made.nodeId, 'strength'], ['user', 'prompt-writer', 'user']]);
    expect(store.appPruned.get()!.seq).toBe(told + 1);
    expect(store.appPruned.get()!.entries.map((e) => e.name)).toEqual(['steps']);

    const unpacked = store.unpackComponent(made.nodeId);
    if (!unpacked.ok) throw new Error(unpacked.reason);
    expect(inputs(store)).toEqual([['strength', 'image-to-image', 'strength'], ['user', 'prompt-writer', 'user']]);
    expect(store.appPruned.get()!.seq).toBe(told + 1);
    store.undo();
    expect(inputs(store)).toEqual([['strength', made.nodeId, 'strength'], ['user', 'prompt-writer', 'user']]);
    store.undo();
    expect(inputs(store).map(([name]) => name)).toEqual(['strength', 'steps', 'user']);
  });

  it('Unpack keeps the value the instance held for the field the input names', () => {
    const { store, instance } = withComponent();
    store.setParams(instance, { strength: 0.35 });
    const unpacked = store.unpackComponent(instance);
    if (!unpacked.ok) throw new Error(unpacked.reason);
    const input = store.getState().doc.app!.inputs.find((i) => i.name === 'strength')!;
    expect(store.getState().doc.nodes.find((n) => n.id === input.node)?.params[input.param]).toBe(0.35);
    expect(staleAppEntries(store.getState().doc, registry)).toEqual([]);
  });
});

describe('app entries pointing at nothing go with the change that did it', () => {
  it('deleting nodes removes their entries in the same step, and the store says which; undo brings them back, silently', () => {
    const { store, instance } = withComponent();
    const told = store.appPruned.get()?.seq ?? 0;
    store.deleteNodes([instance, 'preview']);
    expect(names(store)).toEqual({ inputs: ['user'], outputs: [] });
    const pruned = store.appPruned.get()!;
    expect(pruned.seq).toBe(told + 1);
    expect(pruned.entries.map((e) => e.message)).toEqual([`input 'strength': no node '${instance}'`, "output 'preview': no node 'preview'"]);
    expect(appPrunedMessage(pruned.entries)).toMatch(/^2 app entries pointed at what is gone and were removed from the app \(input 'strength': .*\)\. Undo brings them back\.$/);
    store.undo();
    expect(names(store)).toEqual({ inputs: ['strength', 'user'], outputs: ['preview'] });
    expect(store.appPruned.get()!.seq).toBe(told + 1);
    store.redo();
    expect(names(store)).toEqual({ inputs: ['user'], outputs: [] });
    expect(() => serializeWorkflow(store.getState().doc)).not.toThrow();
  });

  it('Edit face taking a field off removes the app input on it, in the face\'s undo step', () => {
    const { store } = withComponent();
    const steps: ComponentParam = { name: 'steps', label: 'Steps', node: 'text-to-image', param: 'steps' };
    expect(store.setComponentFace('restyle', [steps]).ok).toBe(true);
    expect(names(store).inputs).toEqual(['user']);
    expect(store.appPruned.get()!.entries[0]!.message).toMatch(/^input 'strength': node '.*' \(Restyle\) has no parameter 'strength'$/);
    expect(store.getState().history.undoLabel).toBe('edit the face of Restyle');
    store.undo();
    expect(names(store).inputs).toEqual(['strength', 'user']);
    expect(store.getState().doc.components![0]!.params).toEqual([STRENGTH]);
    // A relabelled field keeps its name: its entry stays.
    store.setComponentFace('restyle', [{ ...STRENGTH, label: 'How far' }]);
    expect(names(store).inputs).toEqual(['strength', 'user']);
  });

  it('deleting, inside the component, the node a shown field belongs to removes the app input on that field', () => {
    const { store, instance } = withComponent();
    expect(store.openComponent(instance).ok).toBe(true);
    store.deleteNodes(['image-to-image']);
    expect(store.getState().doc.components![0]!.params).toEqual([]);
    expect(names(store).inputs).toEqual(['user']);
    expect(store.appPruned.get()!.entries.map((e) => e.name)).toEqual(['strength']);
    store.undo();
    expect(names(store).inputs).toEqual(['strength', 'user']);
  });

  it('making a component of marked nodes removes their entries with the make', () => {
    const store = createEditorStore({ initial: starterWorkflow() });
    store.markAppInput('image-to-image', 'strength');
    store.markAppInput('prompt-writer', 'user');
    store.select({ nodes: ['text-to-image', 'image-to-image'] });
    expect(store.makeComponent({ name: 'Restyle' }).ok).toBe(true);
    expect(names(store).inputs).toEqual(['user']);
    store.undo();
    expect(names(store).inputs).toEqual(['strength', 'user']);
  });

  it('edits that leave every entry whole say nothing and add nothing to the step', () => {
    const { store, instance } = withComponent();
    const told = store.appPruned.get()?.seq;
    store.setParam(instance, 'strength', 0.4);
    store.setParam('prompt-writer', 'user', 'a fox');
    store.deleteNodes(['text']);
    expect(store.appPruned.get()?.seq).toBe(told);
    expect(names(store)).toEqual({ inputs: ['strength', 'user'], outputs: ['preview'] });
  });

  it('an entry stale already in the file opened is left for the person: an unrelated edit neither removes it nor says so', () => {
    const { store, instance } = withComponent();
    store.setComponentFace('restyle', [{ ...STRENGTH, name: 'how_far' }]);
    // The file as an older build would have written it: the entry kept, the face changed.
    const doc = store.getState().doc;
    const old = { ...doc, app: { inputs: [{ name: 'strength', node: instance, param: 'strength' }, ...doc.app!.inputs], outputs: doc.app!.outputs } };
    const opened = createEditorStore({ initial: loadWorkflow(serializeWorkflow(old)).workflow });
    expect(staleAppEntries(opened.getState().doc, opened.registry).map((e) => e.name)).toEqual(['strength']);
    opened.setParam('prompt-writer', 'user', 'a fox');
    opened.setParam(instance, 'how_far', 0.2);
    expect(opened.appPruned.get()).toBeNull();
    expect(names(opened).inputs).toEqual(['strength', 'user']);
    // Taken out by hand, it is gone.
    opened.unmarkAppInput('strength');
    expect(names(opened).inputs).toEqual(['user']);
  });

  it('a ComfyUI workflow node given another file keeps its entries: they name its parameters, which every file has', () => {
    const info = recordedObjectInfo();
    const params = (name: string) => comfyWorkflowParams(importPipeline({ api: fixtureText(name, 'api') }, { info }), `${name}.json`);
    const store = createEditorStore({ initial: starterWorkflow() });
    const comfy = store.addNode('comfy-workflow', { x: 0, y: 600 }, { params: params('flux-dev') });
    store.markAppInput(comfy, 'values', 'Settings');
    const told = store.appPruned.get()?.seq;
    const next = params('img2img');
    store.setParamsPruningWires(comfy, { ...next }, 'choose ComfyUI workflow');
    expect(store.getState().index.nodeById.get(comfy)?.params.source).toBe('img2img.json');
    expect(names(store).inputs).toEqual(['values']);
    expect(store.appPruned.get()?.seq).toBe(told);
    expect(staleAppEntries(store.getState().doc, store.registry)).toEqual([]);
  });
});

describe('staleAppEntries', () => {
  it('names each entry on a missing node or parameter, and leaves entries on a type this build does not know', () => {
    const doc = loadWorkflow(JSON.stringify({
      format: 'atelier.workflow', version: 2,
      metadata: { title: 'Stale', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
      nodes: [
        { id: 'draw', type: 'text-to-image', position: { x: 0, y: 0 }, params: {} },
        { id: 'future', type: 'made-up-node', position: { x: 0, y: 300 }, params: {} },
      ],
      edges: [],
      app: { inputs: [{ name: 'gone', node: 'draw', param: 'no_such_param' }, { name: 'seed', node: 'draw', param: 'seed' }, { name: 'later', node: 'future', param: 'x' }], outputs: [] },
    }), { knownTypes: new Set(registry.list().map((d) => d.type)) }).workflow;
    expect(staleAppEntries(doc, registry)).toEqual([
      { list: 'inputs', index: 0, name: 'gone', key: 'gone', message: "input 'gone': node 'draw' (Text to image) has no parameter 'no_such_param'" },
    ]);
  });
});
