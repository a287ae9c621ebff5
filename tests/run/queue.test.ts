import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { createRunController } from '../../src/run/controller';
import type { EditorLink } from '../../src/run/editor-link';
import { createRunQueue, seedChanges, type BatchProgress } from '../../src/run/queue';
import { createEditorStore } from '../../src/store/editor-store';
import { starterWorkflow } from '../../src/store/starter';
import { storeLink } from '../../src/run/store-link';
import { createSettingsStore } from '../../src/settings/settings-store';
import type { SeedChange } from '../../workers/seeds';
import type { Workflow } from '../../workflow/schema';
import { workflow } from '../workers/fakes';
import { countingUrls, inThreadClient, settings } from './helpers';

const drawing = (params: Record<string, unknown>) => workflow([['draw', 'text-to-image', { prompt: 'a red kite', ...params }]]);

/** A link over a plain document, recording what the queue asks of the editor. */
function fakeLink(doc: Workflow) {
  const applied: SeedChange[][] = [];
  const link: EditorLink = {
    registry,
    getWorkflow: () => doc,
    loads: () => 0,
    subscribe: () => () => undefined,
    getSettings: () => settings,
    secrets: () => [],
    focusNode: () => undefined,
    describeNode: (id) => ({ label: id }),
    selectedNode: () => undefined,
    runNodeId: (id) => id,
    applySeeds: (changes) => void applied.push([...changes]),
    pinSeed: () => undefined,
    restore: () => undefined,
  };
  return { link, applied };
}

function setup(doc: Workflow, imageLatencyMs = 1) {
  const fake = inThreadClient({ registry, imageLatencyMs });
  const controller = createRunController({ client: fake.client, settings: () => settings, urls: countingUrls().urls });
  const { link, applied } = fakeLink(doc);
  const runs: string[] = [];
  const queue = createRunQueue({ controller, link, onRun: (s) => runs.push(s.status) });
  const progress: (BatchProgress | undefined)[] = [];
  queue.progress.subscribe(() => progress.push(queue.progress.get()));
  return { ...fake, controller, queue, applied, runs, progress };
}

describe('run queue', () => {
  it('runs a batch one run after another, each with the seed the run before left, and moves the editor\'s seed on after each', async () => {
    const { queue, image, applied, runs, progress } = setup(drawing({ seed: 5, seed_mode: 'increment' }));

    const summaries = await queue.start({ mode: 'all' }, 3);

    expect(summaries.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(image.calls.map((c) => c.request.seed)).toEqual([5, 6, 7]);
    // The form shows, after each run, the seed the next one uses.
    expect(applied).toEqual([
      [{ nodeId: 'draw', slot: 'seed', mode: 'increment', from: 5, to: 6 }],
      [{ nodeId: 'draw', slot: 'seed', mode: 'increment', from: 6, to: 7 }],
      [{ nodeId: 'draw', slot: 'seed', mode: 'increment', from: 7, to: 8 }],
    ]);
    expect(runs).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(progress).toEqual([{ index: 1, count: 3 }, { index: 2, count: 3 }, { index: 3, count: 3 }, undefined]);
    // The whole batch is kept for the run panel, until the next start.
    expect(queue.lastBatch.get()).toEqual({ count: 3, summaries });
    await queue.start({ mode: 'all' });
    expect(queue.lastBatch.get()).toBeUndefined();
  });

  it('keeps a fixed seed, so every run after the first comes from the cache', async () => {
    const { queue, image, applied } = setup(drawing({ seed: 5 }));
    const summaries = await queue.start({ mode: 'all' }, 2);
    expect(summaries.map((s) => s.nodes.cached)).toEqual([0, 1]);
    expect(image.calls).toHaveLength(1);
    expect(applied).toEqual([[], []]);
  });

  it('stops the batch at a cancel, without moving the seed of the cancelled run, and counts it in the session', async () => {
    const { queue, controller, image, applied, runs } = setup(drawing({ seed: 5, seed_mode: 'increment' }), 200);

    const done = queue.start({ mode: 'all' }, 3);
    await expect.poll(() => image.calls.length).toBe(1);
    expect(controller.state.overview.get().running).toBe(true);
    queue.cancel();
    const summaries = await done;

    expect(summaries.map((s) => s.status)).toEqual(['cancelled']);
    expect(image.calls).toHaveLength(1);
    expect(applied).toEqual([]);
    // Its request was sent: the session's totals hear of the run.
    expect(runs).toEqual(['cancelled']);
    expect(queue.progress.get()).toBeUndefined();
    expect(queue.lastBatch.get()).toEqual({ count: 3, summaries });
  });

  it('refuses a second start while a batch is under way, and runs nothing for an invalid workflow', async () => {
    const { queue, image } = setup(drawing({ seed: 5, seed_mode: 'increment' }), 50);
    const first = queue.start({ mode: 'all' }, 2);
    expect(await queue.start({ mode: 'all' }, 1)).toEqual([]);
    await first;
    expect(image.calls).toHaveLength(2);

    const invalid = setup(drawing({ steps: 'many', seed: 1, seed_mode: 'increment' }));
    const summaries = await invalid.queue.start({ mode: 'all' }, 3);
    expect(summaries.map((s) => s.status)).toEqual(['invalid']);
    expect(invalid.applied).toEqual([]);
  });
});

describe('seeds in the editor', () => {
  it('names the seeds that differ between two snapshots', () => {
    const before = workflow([['a', 'text-to-image', { seed: 1, seed_mode: 'random' }], ['b', 'text-to-image', { seed: 2 }], ['c', 'text-to-image', { seed: null }]]);
    const after = workflow([['a', 'text-to-image', { seed: 99, seed_mode: 'random' }], ['b', 'text-to-image', { seed: 2 }], ['c', 'text-to-image', { seed: null }]]);
    expect(seedChanges(before, after, registry)).toEqual([{ nodeId: 'a', slot: 'seed', mode: 'random', from: 1, to: 99 }]);
  });

  it('moves seeds on as one undo step over consecutive runs, leaves a seed edited meanwhile, and pins', () => {
    const store = createEditorStore({ initial: drawing({ seed: 5, seed_mode: 'increment' }) });
    const link = storeLink(store, createSettingsStore(null), 'http://127.0.0.1:8787');
    const seed = () => store.getState().index.nodeById.get('draw')?.params.seed;

    link.applySeeds([{ nodeId: 'draw', slot: 'seed', mode: 'increment', from: 5, to: 6 }]);
    link.applySeeds([{ nodeId: 'draw', slot: 'seed', mode: 'increment', from: 6, to: 7 }]);
    expect(seed()).toBe(7);
    expect(store.getState().history.undoLabel).toBe('move seeds on after the run');
    store.undo();
    expect(seed()).toBe(5);
    expect(store.getState().history.canUndo).toBe(false);

    // The user typed another seed while the run was under way: theirs stays.
    store.setParam('draw', 'seed', 40);
    link.applySeeds([{ nodeId: 'draw', slot: 'seed', mode: 'increment', from: 5, to: 6 }]);
    expect(seed()).toBe(40);

    link.pinSeed('draw', 1234);
    expect(store.getState().index.nodeById.get('draw')?.params).toMatchObject({ seed: 1234, seed_mode: 'fixed' });
    expect(store.getState().history.undoLabel).toBe('pin seed');
  });
});

describe('run to and from a node inside an opened component', () => {
  it('runs to an inner node of an opened component through its instance, and from it', async () => {
    const store = createEditorStore({ initial: starterWorkflow() });
    store.select({ nodes: ['text-to-image', 'image-to-image'] });
    const made = store.makeComponent({ name: 'Restyle' });
    if (!made.ok) throw new Error(made.reason);
    expect(store.openComponent(made.nodeId).ok).toBe(true);
    const link = { ...storeLink(store, createSettingsStore(null), 'http://127.0.0.1:8787'), getSettings: () => settings };
    const fake = inThreadClient({ registry });
    const controller = createRunController({ client: fake.client, settings: () => settings, urls: countingUrls().urls });
    const queue = createRunQueue({ controller, link });

    // The canvas shows the definition's own ids; the run knows them through the instance.
    const [to] = await queue.start({ mode: 'to', nodeId: 'text-to-image' });
    expect(to?.status).toBe('succeeded');
    expect(fake.image.calls).toHaveLength(1);
    expect(controller.state.status.get(`${made.nodeId}/text-to-image`)?.phase).toBe('done');
    expect(controller.state.status.get(`${made.nodeId}/image-to-image`)).toBeUndefined();

    const [from] = await queue.start({ mode: 'from', nodeId: 'image-to-image' });
    expect(from?.status).toBe('succeeded');
    expect(fake.image.calls).toHaveLength(2);
  });
});
