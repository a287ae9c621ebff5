import { describe, expect, it } from 'vitest';
import { createRunController } from '../../src/run/controller';
import { imagesOf } from '../../src/results/object-urls';
import { workflow } from '../workers/fakes';
import { countingUrls, inThreadClient, settings } from './helpers';

function setup(options: Parameters<typeof inThreadClient>[0] = {}) {
  const fake = inThreadClient(options);
  const counted = countingUrls();
  let clock = 0;
  const controller = createRunController({ client: fake.client, settings: () => settings, urls: counted.urls, now: () => (clock += 10) });
  return { ...fake, ...counted, controller, state: controller.state };
}

const chain = () =>
  workflow([['chat', 'chat'], ['gen', 'gen', { prompt: 'unused', seed: 5 }]], ['chat.text -> gen.prompt']);

describe('run controller', () => {
  it('streams text into its node only, then shows each node done with its outputs', async () => {
    const { controller, state, live } = setup({ chatAnswer: 'a red fox at dawn' });
    const wakes = { chat: 0, gen: 0 };
    state.status.subscribe('chat', () => wakes.chat++);
    state.status.subscribe('gen', () => wakes.gen++);
    const texts: string[] = [];
    state.status.subscribe('chat', () => texts.push(state.status.get('chat')!.text));

    const summary = await controller.run(chain());

    expect(summary?.status).toBe('succeeded');
    expect(texts.filter((t, i) => t !== texts[i - 1])).toEqual(['', 'a ', 'a red ', 'a red fox ', 'a red fox at ', 'a red fox at dawn ']);
    // Five chunks woke the chat node's badge, not the image node's.
    expect(wakes.chat).toBeGreaterThanOrEqual(5 + 3);
    expect(wakes.gen).toBeLessThanOrEqual(5);
    expect(state.status.get('chat')).toMatchObject({ phase: 'done', durationMs: expect.any(Number) });
    expect(state.status.get('gen')).toMatchObject({ phase: 'done', progress: 1 });
    expect(state.results.get('chat')?.outputs.text).toEqual({ kind: 'text', value: 'a red fox at dawn' });

    // `image` and `images` hold the same picture: one Blob, one URL.
    const images = imagesOf(state.results.get('gen')!.outputs);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ mime: 'image/jpeg', seed: 5, url: expect.stringMatching(/^blob:test\/1\/image\/jpeg\//) });
    expect(live.size).toBe(1);
    expect(state.overview.get()).toMatchObject({ running: false, problems: [], summary: { apiCalls: 2 } });
  });

  it('replaces a result on the next run and revokes the URLs it held', async () => {
    const { controller, state, live, image } = setup();
    await controller.run(chain());
    const first = imagesOf(state.results.get('gen')!.outputs)[0]!.url;

    const again = await controller.run(chain());

    expect(again?.nodes.cached).toBe(2);
    expect(image.calls).toHaveLength(1);
    expect(state.status.get('gen')).toMatchObject({ phase: 'cached', apiCallsSaved: 1 });
    const second = imagesOf(state.results.get('gen')!.outputs)[0]!.url;
    expect(second).not.toBe(first);
    expect([...live]).toEqual([second]);
  });

  it('lets go of the images of deleted nodes, and of every image when disposed', async () => {
    const { controller, state, live } = setup();
    await controller.run(workflow([['a', 'gen', { prompt: 'one', seed: 1 }], ['b', 'gen', { prompt: 'two', seed: 2 }]]));
    expect(live.size).toBe(2);

    controller.prune(['b']);
    expect(state.results.get('a')).toBeUndefined();
    expect(state.status.get('a')).toBeUndefined();
    expect(live.size).toBe(1);

    controller.dispose();
    expect(live.size).toBe(0);
  });

  it('forgets every result and the last summary when another workflow is opened, but not during a run', async () => {
    const { controller, state, live } = setup();
    await controller.run(workflow([['a', 'gen', { prompt: 'one', seed: 1 }]]));
    expect(state.overview.get().summary).toBeDefined();

    controller.forgetRuns();
    // A node 'a' of the workflow opened now is another node: nothing of the old one shows on it.
    expect(state.results.get('a')).toBeUndefined();
    expect(state.status.get('a')).toBeUndefined();
    expect(live.size).toBe(0);
    expect(state.overview.get()).toEqual({ running: false, problems: [] });

    const running = controller.run(workflow([['slow', 'slow', { ms: 10_000 }]]));
    await expect.poll(() => state.status.get('slow')?.phase).toBe('running');
    controller.forgetRuns();
    expect(state.status.get('slow')?.phase).toBe('running');
    expect(state.overview.get().running).toBe(true);
    controller.cancel();
    await running;
  });

  it('pins a failure on its node, skips what depends on it and finishes the other branch', async () => {
    const { controller, state } = setup();
    const summary = await controller.run(
      workflow([['bad', 'fail', { message: 'the service is over capacity' }], ['after', 'join'], ['ok', 'gen', { prompt: 'fine', seed: 3 }]], ['bad.text -> after.a']),
    );

    expect(summary?.status).toBe('failed');
    expect(state.status.get('bad')).toMatchObject({ phase: 'failed', error: { message: 'the service is over capacity', status: 503 } });
    expect(state.status.get('after')).toMatchObject({ phase: 'skipped', because: 'bad' });
    expect(state.status.get('ok')?.phase).toBe('done');
    expect(state.overview.get().summary?.nodes).toMatchObject({ failed: 1, skipped: 1, done: 1 });
  });

  it('shows a bypassed node and what it passed on', async () => {
    const { controller, state } = setup();
    const wf = workflow([['src', 'source', { text: 'kept' }], ['slow', 'slow', { ms: 10_000 }], ['join', 'join']], ['src.text -> slow.in', 'slow.text -> join.a']);
    wf.nodes[1]!.bypass = true;

    const summary = await controller.run(wf);

    expect(summary?.nodes.bypassed).toBe(1);
    expect(state.status.get('slow')).toMatchObject({ phase: 'bypassed', passed: { text: 'in' } });
    expect(state.results.get('join')?.outputs.text).toEqual({ kind: 'text', value: 'kept' });
  });

  it('refuses an invalid workflow, listing every problem with its node and field, and sends nothing', async () => {
    const { controller, state, image } = setup();
    const summary = await controller.run(workflow([['g', 'gen', { prompt: 'forbidden words', seed: 1 }], ['j', 'join']]));

    expect(summary?.status).toBe('invalid');
    expect(image.calls).toHaveLength(0);
    const problems = state.overview.get().problems;
    expect(problems).toEqual(expect.arrayContaining([
      expect.objectContaining({ nodeId: 'g', field: 'prompt' }),
      expect.objectContaining({ nodeId: 'j', port: 'a' }),
    ]));
    expect(state.status.get('g')).toMatchObject({ phase: 'invalid', problems: [expect.objectContaining({ field: 'prompt' })] });

    // The next valid run clears them.
    await controller.run(workflow([['g', 'gen', { prompt: 'fine', seed: 1 }]]));
    expect(state.overview.get().problems).toEqual([]);
    expect(state.status.get('j')).toBeUndefined();
  });

  it('cancels: the running node and those waiting are marked cancelled, and a second Run meanwhile is ignored', async () => {
    const { controller, state } = setup();
    const running = controller.run(workflow([['slow', 'slow', { ms: 10_000 }], ['next', 'join']], ['slow.text -> next.a']));
    await expect.poll(() => state.status.get('slow')?.phase).toBe('running');
    expect(state.overview.get().running).toBe(true);
    await expect(controller.run(workflow([['x', 'source']]))).resolves.toBeUndefined();

    controller.cancel();
    const summary = await running;

    expect(summary?.status).toBe('cancelled');
    expect(state.status.get('slow')?.phase).toBe('cancelled');
    expect(state.status.get('next')?.phase).toBe('cancelled');
    expect(state.overview.get()).toMatchObject({ running: false, summary: { status: 'cancelled' } });
  });

  it('clears the cache and then tells its listeners; a clear that failed tells nobody', async () => {
    const { controller, image } = setup();
    const doc = workflow([['gen', 'gen', { prompt: 'a kite', seed: 5 }]]);
    await controller.run(doc);
    expect(await controller.cacheStats()).toMatchObject({ entries: 1 });
    const told: string[] = [];
    const off = controller.onCacheCleared(() => told.push(`cleared with ${image.calls.length} call(s) made`));

    await controller.clearCache();
    expect(told).toEqual(['cleared with 1 call(s) made']);
    expect(await controller.cacheStats()).toMatchObject({ entries: 0, bytes: 0 });
    expect((await controller.run(doc))?.apiCalls).toBe(1);
    expect(image.calls).toHaveLength(2);

    off();
    await controller.clearCache();
    expect(told).toHaveLength(1);

    const failing = createRunController({
      settings: () => settings,
      urls: countingUrls().urls,
      client: { ...inThreadClient().client, clearCache: () => Promise.reject(new Error('IndexedDB is gone')) },
    });
    let failedTold = 0;
    failing.onCacheCleared(() => failedTold++);
    await expect(failing.clearCache()).rejects.toThrow('IndexedDB is gone');
    expect(failedTold).toBe(0);
  });

  it('reads the settings at every run and reports a worker that failed instead of hanging', async () => {
    const counted = countingUrls();
    let calls = 0;
    const controller = createRunController({
      urls: counted.urls,
      settings: () => settings,
      client: {
        run: (_wf, s, _o, onEvent) => {
          calls++;
          expect(s).toBe(settings);
          onEvent({ type: 'run-started', runId: 'run-1', mode: 'all', nodeIds: ['a'] });
          onEvent({ type: 'node-queued', runId: 'run-1', nodeId: 'a' });
          return Promise.reject(new Error("the run's web worker failed: out of memory"));
        },
        cancel: () => undefined,
        estimate: () => Promise.reject(new Error('not asked here')),
        cachedResults: () => Promise.reject(new Error('not asked here')),
        cacheStats: () => Promise.reject(new Error('not asked here')),
        clearCache: () => Promise.resolve(),
        countPromptTokens: () => Promise.reject(new Error('not asked here')),
        planBatch: () => Promise.reject(new Error('not asked here')),
        pinSeeds: () => Promise.reject(new Error('not asked here')),
        listBackendNames: () => Promise.reject(new Error('not asked here')),
        dispose: () => undefined,
      },
    });

    await expect(controller.run(workflow([['a', 'source']]))).resolves.toBeUndefined();
    expect(calls).toBe(1);
    expect(controller.state.overview.get()).toMatchObject({ running: false, error: "the run's web worker failed: out of memory" });
    expect(controller.state.status.get('a')?.phase).toBe('cancelled');
  });
});
