/**
 * Seeds of components' inner nodes: after a run they move on where the file holds them (the
 * definition, shared by every instance, or an instance that sets its own), once per run however
 * many instances ran; the editor applies them whatever component is open, as one undo step with
 * the rest of the run's; "pin this seed" on a picture made inside lands on the definition.
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { seedChangesBetween } from '../../nodes/seed-control';
import { nextSeeds, pinSeedsUsed, planBatch } from '../../workers/seeds';
import { componentHash } from '../../workflow/components';
import { innerNodeAt } from '../../workflow/inner-nodes';
import type { ComponentDefinition, Workflow } from '../../workflow/schema';
import { createEditorStore } from '../../src/store/editor-store';
import { storeLink } from '../../src/run/store-link';
import { createSettingsStore } from '../../src/settings/settings-store';
import { createRunController } from '../../src/run/controller';
import { imagesOf } from '../../src/results/object-urls';
import { seedTarget } from '../../src/results/seed-owner';
import { countingUrls, inThreadClient, settings } from '../run/helpers';
import { component, withComponents } from './helpers';

/** "Picture": one Text to image with an increment seed of 5, its seed shown on the face. */
const picture = (params: Record<string, unknown> = {}) => component({
  id: 'pic',
  name: 'Picture',
  nodes: [{ id: 'draw', type: 'text-to-image', position: { x: 0, y: 0 }, params: { prompt: 'a fox', seed: 5, seed_mode: 'increment', ...params } }],
  edges: [],
  inputs: [{ name: 'seed_in', targets: [{ node: 'draw', port: 'seed' }] }],
  outputs: [{ name: 'image', source: { node: 'draw', port: 'image' } }],
  params: [{ name: 'seed', label: 'Seed', node: 'draw', param: 'seed' }],
});

/** "Pair": a Picture inside another component, its seed shown again under another name. */
const pair = () => component({
  id: 'pair',
  name: 'Pair',
  nodes: [{ id: 'inner', type: 'component:pic', position: { x: 0, y: 0 }, params: {} }],
  edges: [],
  inputs: [],
  outputs: [{ name: 'image', source: { node: 'inner', port: 'image' } }],
  params: [{ name: 'outer_seed', label: 'Seed', node: 'inner', param: 'seed' }],
});

const drawOf = (wf: Workflow, id = 'pic') => wf.components!.find((c) => c.id === id)!.nodes[0]!;
const defOf = (wf: Workflow, id = 'pic'): ComponentDefinition => wf.components!.find((c) => c.id === id)!;

describe('inner seeds after a run', () => {
  it('move on in the definition once per run, however many instances ran, and on an instance that holds its own', () => {
    const wf = withComponents([picture()], [['one', 'component:pic'], ['two', 'component:pic'], ['own', 'component:pic', { seed: 40 }]]);
    const { workflow: next, changes } = nextSeeds(wf, registry);

    // One and two used seed 5 (and made the same picture): the next run's both use 6, none skipped.
    expect(drawOf(next).params.seed).toBe(6);
    expect(next.nodes.find((n) => n.id === 'own')!.params).toEqual({ seed: 41 });
    expect(changes).toEqual([
      { nodeId: 'one/draw', slot: 'seed', mode: 'increment', from: 5, to: 6 },
      { nodeId: 'own/draw', slot: 'seed', mode: 'increment', from: 40, to: 41 },
    ]);
    // The definition stays valid (its hash follows its content) and counts the edit; the input is untouched.
    expect(defOf(next).hash).toBe(componentHash(defOf(next)));
    expect(defOf(next).revision).toBe(2);
    expect(drawOf(wf).params.seed).toBe(5);

    // A batch: each run's snapshot has the seeds the one before left.
    const batch = planBatch(wf, registry, 3);
    expect(batch.runs.map((r) => drawOf(r).params.seed)).toEqual([5, 6, 7]);
    expect(drawOf(batch.after).params.seed).toBe(8);
    // The editor is told of each instance's change, by flat id (it applies the shared one once).
    expect(seedChangesBetween(batch.runs[0]!, batch.runs[1]!, registry)).toEqual([
      { nodeId: 'one/draw', slot: 'seed', mode: 'increment', from: 5, to: 6 },
      { nodeId: 'two/draw', slot: 'seed', mode: 'increment', from: 5, to: 6 },
      { nodeId: 'own/draw', slot: 'seed', mode: 'increment', from: 40, to: 41 },
    ]);
  });

  it('draw one new random seed for the definition, and move a nested one where the outermost instance holds it', () => {
    const random = nextSeeds(withComponents([picture({ seed_mode: 'random' })], [['one', 'component:pic'], ['two', 'component:pic']]), registry, { random: () => 0.25 });
    expect(drawOf(random.workflow).params.seed).toBe(2 ** 30);
    expect(random.changes).toHaveLength(1);

    const nested = withComponents([picture(), pair()], [['a', 'component:pair'], ['b', 'component:pair', { outer_seed: 70 }]]);
    const next = nextSeeds(nested, registry).workflow;
    expect(drawOf(next).params.seed).toBe(6);
    expect(next.nodes.find((n) => n.id === 'b')!.params).toEqual({ outer_seed: 71 });
    expect(innerNodeAt(next, 'b/inner/draw')?.home('seed')).toEqual({ node: 'b', param: 'outer_seed' });
    expect(innerNodeAt(next, 'a/inner/draw')?.home('seed')).toEqual({ component: 'pic', node: 'draw', param: 'seed' });
  });

  it('leave a seed wired through the face, a bypassed instance and one that did not run', () => {
    const wf = withComponents([picture()], [['n', 'text', { text: '3' }], ['wired', 'component:pic'], ['off', 'component:pic'], ['idle', 'component:pic']], ['n.text -> wired.seed_in']);
    wf.nodes[2]!.bypass = true;
    const result = nextSeeds(wf, registry, { ran: ['n', 'wired/draw', 'off/draw'] });
    expect(result.changes).toEqual([]);
    expect(result.workflow).toBe(wf);
    expect(innerNodeAt(wf, 'wired/draw')?.wiredPorts()).toEqual(new Set(['seed']));
    expect(innerNodeAt(wf, 'idle/draw')?.wiredPorts()).toEqual(new Set());
  });
});

describe('the workflow a history entry and a download carry', () => {
  it('pins the seed an inner node drew where the file holds it, the first instance\'s when they share one', () => {
    const wf = withComponents([picture({ seed: null, seed_mode: 'fixed' })], [['one', 'component:pic'], ['two', 'component:pic'], ['own', 'component:pic', { seed: null }]]);
    const pinned = pinSeedsUsed(wf, registry, new Map([['two/draw', 22], ['one/draw', 11], ['own/draw', 33]]));
    expect(drawOf(pinned).params).toMatchObject({ seed: 11, seed_mode: 'fixed' });
    expect(pinned.nodes.find((n) => n.id === 'own')!.params).toEqual({ seed: 33 });
    expect(defOf(pinned).hash).toBe(componentHash(defOf(pinned)));
    // A seed the wire decides is not pinned.
    const wired = withComponents([picture({ seed: null })], [['n', 'text', { text: '3' }], ['one', 'component:pic']], ['n.text -> one.seed_in']);
    expect(pinSeedsUsed(wired, registry, new Map([['one/draw', 11]]))).toBe(wired);
  });
});

describe('inner seeds in the editor', () => {
  const setup = () => {
    const wf = withComponents([picture()], [['top', 'text-to-image', { prompt: 'a kite', seed: 1, seed_mode: 'increment' }], ['one', 'component:pic'], ['two', 'component:pic']]);
    const store = createEditorStore({ initial: wf });
    return { store, link: storeLink(store, createSettingsStore(null), 'http://127.0.0.1:8787') };
  };

  for (const opened of [false, true]) {
    it(`land in the definition as one undo step with the file's own seeds${opened ? ', with the component open' : ''}`, () => {
      const { store, link } = setup();
      if (opened) expect(store.openComponent('one').ok).toBe(true);
      const before = store.getState().doc;
      const { workflow: after } = nextSeeds(before, registry);
      link.applySeeds(seedChangesBetween(before, after, registry));
      const doc = store.getState().doc;
      expect(doc.nodes.find((n) => n.id === 'top')!.params.seed).toBe(2);
      expect(drawOf(doc).params.seed).toBe(6);
      expect(defOf(doc).hash).toBe(componentHash(defOf(doc)));
      // The canvas shows what it showed, the opened definition with its new seed.
      expect(store.getState().scope).toHaveLength(opened ? 1 : 0);
      if (opened) expect(store.getState().index.nodeById.get('draw')?.params.seed).toBe(6);
      // A second run's moves join the same step.
      link.applySeeds(seedChangesBetween(after, nextSeeds(after, registry).workflow, registry));
      expect(drawOf(store.getState().doc).params.seed).toBe(7);
      expect(store.getState().history.undoLabel).toBe('move seeds on after the run');
      store.undo();
      expect(store.getState().doc.nodes.find((n) => n.id === 'top')!.params.seed).toBe(1);
      expect(drawOf(store.getState().doc).params.seed).toBe(5);
      expect(store.getState().history.canUndo).toBe(false);
    });
  }

  it('pins a picture\'s seed on the definition\'s inner node, and names it through its instance', () => {
    const { store, link } = setup();
    store.openComponent('two');
    link.pinSeed('two/draw', 1234);
    expect(drawOf(store.getState().doc).params).toMatchObject({ seed: 1234, seed_mode: 'fixed' });
    expect(store.getState().history.undoLabel).toBe('pin seed');
    expect(link.describeNode('two/draw').label).toBe('Picture › Text to image');
  });
});

describe('"pin this seed" on a picture made inside a component', () => {
  it('finds the inner node from its own picture, from the instance\'s, and from a Preview after the instance', async () => {
    const wf = withComponents([picture({ seed_mode: 'fixed' })], [['one', 'component:pic', { seed: 8 }], ['show', 'preview']], ['one.image -> show.value']);
    const controller = createRunController({ client: inThreadClient({ registry }).client, settings: () => settings, urls: countingUrls().urls });
    expect((await controller.run(wf))?.status).toBe('succeeded');
    const { results } = controller.state;
    const resultOf = (id: string) => results.get(id);
    const store = createEditorStore({ initial: wf });
    for (const shownOn of ['one/draw', 'one', 'show']) {
      const [image] = imagesOf(results.get(shownOn)!.outputs);
      expect(image?.seed).toBe(8);
      expect(seedTarget(shownOn, image!, wf, store.registry, resultOf)).toEqual({ ok: true, nodeId: 'one/draw', seed: 8 });
    }

    // Wired through the face, the seed is the wire's.
    const wired = withComponents([picture()], [['n', 'text', { text: '3' }], ['one', 'component:pic']], ['n.text -> one.seed_in']);
    const [image] = imagesOf(results.get('one/draw')!.outputs);
    expect(seedTarget('one/draw', image!, wired, store.registry, resultOf)).toEqual({ ok: false, nodeId: 'one/draw', reason: 'its seed comes from a wire' });
    controller.dispose();
  });
});
