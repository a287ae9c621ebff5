import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { attachHistory } from '../../src/history/attach';
import { createMemoryHistory } from '../../src/history/memory-store';
import { createRecorder, shortParams } from '../../src/history/recorder';
import { historyStore } from '../../src/history/store';
import type { ImageEntry, TextEntry } from '../../src/history/types';
import { createRunController } from '../../src/run/controller';
import type { EditorLink } from '../../src/run/editor-link';
import { loadWorkflow } from '../../workflow/load';
import { fakeImageB64, workflow } from '../workers/fakes';
import { countingUrls, inThreadClient, settings } from './helpers';

const chain = () => workflow([
  ['chat', 'chat-prompt-writer', { user: 'a prompt about kites' }],
  ['draw', 'text-to-image', { seed: 42 }],
  ['show', 'preview', {}],
], ['chat.text -> draw.prompt', 'draw.images -> show.value']);

function setup() {
  const fake = inThreadClient({ registry, chatAnswer: 'a red kite over dunes' });
  const controller = createRunController({ client: fake.client, settings: () => settings, urls: countingUrls().urls });
  const store = createMemoryHistory();
  const recorder = createRecorder({ store, registry, pageKey: 'page', now: () => 1000, pinSeeds: controller.pinSeeds });
  const pending: Promise<void>[] = [];
  controller.listen((event, run) => {
    if (event.type !== 'node-done' || event.cached) return;
    pending.push(recorder.record(event.nodeId, run, controller.state.results.get(event.nodeId)!));
  });
  const settle = () => Promise.all(pending.splice(0));
  return { ...fake, controller, store, settle };
}

describe('run history recorder', () => {
  it('keeps what the API nodes made, with parameters, seed and requests, and the workflow as it ran', async () => {
    const { controller, store, settle } = setup();
    await controller.run(chain());
    await settle();

    const entries = await store.list(10);
    // The preview shows the drawing's image: it is kept once, under the node that made it.
    expect(entries.map((e) => `${e.nodeId}:${e.kind}`)).toEqual(['draw:image', 'chat:text']);
    const first = entries[0] as ImageEntry;
    expect(first).toMatchObject({ nodeLabel: 'Text to image', typeVersion: 1, index: 0, count: 1, mime: 'image/jpeg', seed: 42, params: { seed: 42 } });
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.calls).toEqual([expect.objectContaining({ api: 'image', engine: 'sdxl', request: expect.objectContaining({ prompt: expect.stringContaining('a red kite over dunes'), seed: 42 }) })]);
    expect((entries[1] as TextEntry).text.trim()).toBe('a red kite over dunes');

    const run = await store.workflow(first.runKey);
    const reopened = loadWorkflow(run!.workflow).workflow;
    expect(reopened.nodes.map((n) => n.id)).toEqual(['chat', 'draw', 'show']);
  });

  it("keeps the run's workflow with every random seed pinned to the one it used; the workflow that ran stays random", async () => {
    const { controller, store, settle } = setup();
    const randomChain = workflow([
      ['draw', 'text-to-image', { prompt: 'a kite', seed: null }],
      ['restyle', 'image-to-image', { prompt: 'in ink', seed: null, seed_mode: 'random' }],
    ], ['draw.image -> restyle.image']);
    await controller.run(randomChain);
    await settle();

    const entries = (await store.list(10)) as ImageEntry[];
    const seeds = new Map(entries.map((e) => [e.nodeId, e.seed!]));
    expect([...seeds.keys()].sort()).toEqual(['draw', 'restyle']);
    for (const entry of entries) expect(entry.params).toMatchObject({ seed: entry.seed, seed_mode: 'fixed' });
    const reopened = loadWorkflow((await store.workflow(entries[0]!.runKey))!.workflow).workflow;
    expect(reopened.nodes.map((n) => [n.id, n.params.seed, n.params.seed_mode])).toEqual([
      ['draw', seeds.get('draw'), 'fixed'],
      ['restyle', seeds.get('restyle'), 'fixed'],
    ]);
    expect(randomChain.nodes.map((n) => n.params.seed)).toEqual([null, null]);

    // Run again, the reopened workflow makes the same images.
    await controller.run(reopened);
    await settle();
    const again = (await store.list(10)).slice(0, 2) as ImageEntry[];
    expect(new Map(again.map((e) => [e.nodeId, e.sha256]))).toEqual(new Map(entries.map((e) => [e.nodeId, e.sha256])));
  });

  it('does not keep results served again from the cache, and keeps what a preview shows of a loaded image', async () => {
    const { controller, store, settle } = setup();
    await controller.run(chain());
    await settle();
    await controller.run(chain());
    await settle();
    expect(await store.list(10)).toHaveLength(2);

    const loaded = workflow([
      ['load', 'image-loader', { image: { b64: fakeImageB64('a photo'), mime: 'image/jpeg', name: 'photo.jpg' } }],
      ['show', 'preview', {}],
    ], ['load.image -> show.value']);
    expect((await controller.run(loaded))?.status).toBe('succeeded');
    await settle();
    const [newest] = await store.list(1);
    expect(newest).toMatchObject({ nodeId: 'show', kind: 'image', nodeType: 'preview' });
  });

  it('is attached to the run controller through attachHistory, which loads the recorder with the first result', async () => {
    const fake = inThreadClient({ registry });
    const controller = createRunController({ client: fake.client, settings: () => settings, urls: countingUrls().urls });
    const link = { registry } as EditorLink;
    const stop = attachHistory(controller, link);
    const before = (await historyStore().stats()).entries;
    await controller.run(workflow([['draw', 'text-to-image', { prompt: 'a kite', seed: 7 }]]));
    await expect.poll(async () => (await historyStore().stats()).entries).toBe(before + 1);
    stop();
    await controller.run(workflow([['draw', 'text-to-image', { prompt: 'another kite', seed: 7 }]]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await historyStore().stats()).entries).toBe(before + 1);
  });

  it('shows parameters with image data and very long text shortened', () => {
    const b64 = fakeImageB64('x'.repeat(3000));
    expect(shortParams({ image: { b64, mime: 'image/jpeg' }, prompt: 'short', notes: 'word '.repeat(1000) })).toEqual({
      image: { b64: expect.stringMatching(/^\(image data, \d+ kB\)$/), mime: 'image/jpeg' },
      prompt: 'short',
      notes: expect.stringMatching(/… \(5000 characters\)$/),
    });
  });
});
