import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import type { RunSummary } from '../../workers/events';
import { createExecutor } from '../../workers/executor';
import { seedUsed } from '../../nodes/seed-used';
import { nextSeeds, pinSeedsUsed, planBatch, runBatch } from '../../workers/seeds';
import { eventLog, fakeChatClient, fakeImageClient, fakeImageB64, testSettings, workflow } from './fakes';

const t2i = (seed: number | null, seed_mode?: string) => ({ prompt: 'a fox', seed, ...(seed_mode ? { seed_mode } : {}) });
const seedOf = (wf: ReturnType<typeof workflow>, id: string) => wf.nodes.find((n) => n.id === id)?.params.seed;

describe('nextSeeds', () => {
  it('adds one for increment (wrapping at 2^32), picks anew for random, keeps fixed', () => {
    const wf = workflow([
      ['inc', 'text-to-image', t2i(5, 'increment')],
      ['top', 'image-to-image', t2i(2 ** 32 - 1, 'increment')],
      ['rnd', 'text-to-image', t2i(5, 'random')],
      ['fix', 'text-to-image', t2i(5, 'fixed')],
      ['dflt', 'text-to-image', t2i(5)],
    ]);
    const { workflow: next, changes } = nextSeeds(wf, registry, { random: () => 0.25 });
    expect(changes).toEqual([
      { nodeId: 'inc', slot: 'seed', mode: 'increment', from: 5, to: 6 },
      { nodeId: 'top', slot: 'seed', mode: 'increment', from: 2 ** 32 - 1, to: 0 },
      { nodeId: 'rnd', slot: 'seed', mode: 'random', from: 5, to: 2 ** 30 },
    ]);
    expect(['inc', 'top', 'rnd', 'fix', 'dflt'].map((id) => seedOf(next, id))).toEqual([6, 0, 2 ** 30, 5, 5]);
    // Pure: the workflow it was given is unchanged, untouched nodes are shared.
    expect(seedOf(wf, 'inc')).toBe(5);
    expect(next.nodes[3]).toBe(wf.nodes[3]);
  });

  it('leaves an empty seed, a wired seed, a bypassed node and nodes that did not run alone', () => {
    const wf = workflow(
      [
        ['empty', 'text-to-image', t2i(null, 'increment')],
        ['n', 'text', { text: '7' }],
        ['wired', 'text-to-image', t2i(1, 'increment')],
        ['off', 'text-to-image', t2i(1, 'increment')],
        ['elsewhere', 'text-to-image', t2i(1, 'increment')],
        ['unknown', 'someone-elses-node', { seed: 1, seed_mode: 'increment' }],
      ],
      ['n.text -> wired.seed'],
    );
    wf.nodes[3]!.bypass = true;
    const result = nextSeeds(wf, registry, { ran: ['empty', 'n', 'wired', 'off', 'unknown'] });
    expect(result.changes).toEqual([]);
    expect(result.workflow).toBe(wf);
  });
});

describe('seed_mode', () => {
  it('is never sent, and changing it does not make a cached result run again', async () => {
    const image = fakeImageClient();
    const executor = createExecutor({ registry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings });
    await executor.run(workflow([['g', 'text-to-image', t2i(9, 'fixed')]]));
    expect(Object.keys(image.calls[0]!.request)).not.toContain('seed_mode');
    const again = await executor.run(workflow([['g', 'text-to-image', t2i(9, 'increment')]]));
    expect(again).toMatchObject({ apiCalls: 0, nodes: { cached: 1 } });
  });

  it('refuses a mode it does not know, naming the field', async () => {
    const executor = createExecutor({ registry, api: { image: fakeImageClient().client, chat: fakeChatClient().client }, settings: testSettings });
    const summary = await executor.run(workflow([['g', 'text-to-image', t2i(9, 'sometimes')]]));
    expect(summary.problems).toEqual([expect.objectContaining({ nodeId: 'g', field: 'seed_mode', message: expect.stringMatching(/fixed, increment, random/) as unknown })]);
  });
});

describe('batches', () => {
  it('plans N snapshots, each with the seeds the run before it leaves, and the seeds after the last', () => {
    const wf = workflow([['g', 'text-to-image', t2i(5, 'increment')], ['r', 'text-to-image', t2i(1, 'random')]]);
    let draw = 0;
    const batch = planBatch(wf, registry, 3, { random: () => (++draw) / 10 });
    expect(batch.runs.map((run) => seedOf(run, 'g'))).toEqual([5, 6, 7]);
    expect(seedOf(batch.after, 'g')).toBe(8);
    expect(batch.runs.map((run) => seedOf(run, 'r'))).toEqual([1, Math.floor(0.1 * 2 ** 32), Math.floor(0.2 * 2 ** 32)]);
    expect(batch.runs[0]).toBe(wf);
  });

  it("moves on only the seeds of nodes the batch's plan runs", () => {
    const wf = workflow([['a', 'text-to-image', t2i(1, 'increment')], ['b', 'text-to-image', t2i(1, 'increment')]]);
    const batch = planBatch(wf, registry, 2, { plan: { mode: 'to', nodeId: 'a' } });
    expect([seedOf(batch.after, 'a'), seedOf(batch.after, 'b')]).toEqual([3, 1]);
  });

  it('with "run from here", re-rolls the node and what follows, not the nodes it takes from the cache', () => {
    const wf = workflow(
      [['first', 'text-to-image', t2i(1, 'increment')], ['then', 'image-to-image', t2i(1, 'increment')]],
      ['first.image -> then.image'],
    );
    const batch = planBatch(wf, registry, 3, { plan: { mode: 'from', nodeId: 'then' } });
    expect([seedOf(batch.after, 'first'), seedOf(batch.after, 'then')]).toEqual([1, 4]);
  });

  it('refuses a count below one', () => {
    expect(() => planBatch(workflow([]), registry, 0)).toThrow(/1 or more times, not 0/);
  });

  it('runs the snapshots in order through the given run, on past a failure, stopping after a cancel', async () => {
    const summary = (status: RunSummary['status']) => ({ status }) as RunSummary;
    const seen: number[] = [];
    const statuses: RunSummary['status'][] = ['succeeded', 'failed', 'cancelled', 'succeeded'];
    const runs = Array.from({ length: 4 }, () => workflow([]));
    const summaries = await runBatch(runs, (_wf, i) => {
      seen.push(i);
      return Promise.resolve(summary(statuses[i]!));
    });
    expect(seen).toEqual([0, 1, 2]);
    expect(summaries.map((s) => s.status)).toEqual(['succeeded', 'failed', 'cancelled']);
  });

  it('runs every snapshot of a real batch: increment makes each one new, fixed serves the rest from the cache', async () => {
    const image = fakeImageClient();
    const executor = createExecutor({ registry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings });
    const moving = planBatch(workflow([['g', 'text-to-image', t2i(5, 'increment')]]), registry, 3);
    await runBatch(moving.runs, (wf) => executor.run(wf));
    expect(image.calls.map((c) => c.request.seed)).toEqual([5, 6, 7]);

    const still = planBatch(workflow([['g', 'text-to-image', t2i(40, 'fixed')]]), registry, 3);
    const summaries = await runBatch(still.runs, (wf) => executor.run(wf));
    expect(summaries.map((s) => s.apiCalls)).toEqual([1, 0, 0]);
  });
});

describe('pinning the seeds a run used', () => {
  const paramsOf = (wf: ReturnType<typeof workflow>, id: string) => wf.nodes.find((n) => n.id === id)?.params;

  it('fixes every node whose next run would draw another seed to the seed it used; fixed ones stay as they are', () => {
    const wf = workflow([
      ['empty', 'text-to-image', t2i(null)],
      ['emptyInc', 'image-to-image', t2i(null, 'increment')],
      ['inc', 'text-to-image', t2i(5, 'increment')],
      ['rnd', 'text-to-image', t2i(6, 'random')],
      ['fix', 'text-to-image', t2i(7, 'fixed')],
      ['dflt', 'text-to-image', t2i(8)],
    ]);
    const used = new Map([['empty', 123], ['emptyInc', 456], ['inc', 5], ['rnd', 6], ['fix', 7], ['dflt', 8]]);
    const pinned = pinSeedsUsed(wf, registry, used);
    expect(['empty', 'emptyInc', 'inc', 'rnd'].map((id) => paramsOf(pinned, id))).toEqual([
      { prompt: 'a fox', seed: 123, seed_mode: 'fixed' },
      { prompt: 'a fox', seed: 456, seed_mode: 'fixed' },
      { prompt: 'a fox', seed: 5, seed_mode: 'fixed' },
      { prompt: 'a fox', seed: 6, seed_mode: 'fixed' },
    ]);
    expect(pinned.nodes[4]).toBe(wf.nodes[4]);
    expect(pinned.nodes[5]).toBe(wf.nodes[5]);
    // The workflow it was given (the one being edited) is unchanged.
    expect(paramsOf(wf, 'empty')).toEqual({ prompt: 'a fox', seed: null });
    expect(paramsOf(wf, 'inc')).toEqual({ prompt: 'a fox', seed: 5, seed_mode: 'increment' });
  });

  it('keeps a numeric seed, the one sent, over a different seed the service reported', () => {
    const wf = workflow([['inc', 'text-to-image', t2i(5, 'increment')]]);
    expect(paramsOf(pinSeedsUsed(wf, registry, new Map([['inc', 99]])), 'inc')).toMatchObject({ seed: 5, seed_mode: 'fixed' });
  });

  it('leaves a wired seed, a bypassed node, a node that did not run and a node without seed control alone', () => {
    const wf = workflow(
      [
        ['n', 'text', { text: '7' }],
        ['wired', 'text-to-image', t2i(null)],
        ['off', 'image-to-image', t2i(null)],
        ['idle', 'text-to-image', t2i(null)],
        ['show', 'preview', {}],
        ['unknown', 'someone-elses-node', { seed: null, seed_mode: 'random' }],
      ],
      ['n.text -> wired.seed'],
    );
    wf.nodes[2]!.bypass = true;
    const used = new Map([['n', 1], ['wired', 2], ['off', 3], ['show', 4], ['unknown', 5]]);
    expect(pinSeedsUsed(wf, registry, used)).toBe(wf);
    expect(pinSeedsUsed(wf, registry, new Map())).toBe(wf);
  });

  it('reads the seed a node sent from its outputs: the first image, with several', () => {
    const image = (seed?: number) => ({ b64: fakeImageB64('x'), mime: 'image/jpeg', ...(seed === undefined ? {} : { seed }) });
    expect(seedUsed({ image: { kind: 'image', value: image(3) }, images: { kind: 'images', value: [image(3), image(4)] } })).toBe(3);
    expect(seedUsed({ images: { kind: 'images', value: [image(8), image(9)] } })).toBe(8);
    expect(seedUsed({ image: { kind: 'image', value: image() } })).toBeUndefined();
    expect(seedUsed({ text: { kind: 'text', value: 'a fox' } })).toBeUndefined();
  });

  it('a random chain pinned from its outputs runs again to the same images', async () => {
    const image = fakeImageClient();
    let draws = 0;
    const executor = createExecutor({
      registry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings, randomSeed: () => 1000 * ++draws,
    });
    const wf = workflow(
      [['draw', 'text-to-image', t2i(null)], ['restyle', 'image-to-image', { prompt: 'in ink', seed: null, seed_mode: 'random' }]],
      ['draw.image -> restyle.image'],
    );
    const run = async (w: typeof wf) => {
      const log = eventLog();
      await executor.run(w, { mode: 'all', onEvent: log.onEvent });
      const seeds = new Map<string, number>();
      const images = new Map<string, string>();
      for (const e of log.events) {
        if (e.type !== 'node-done') continue;
        const seed = seedUsed(e.outputs);
        if (seed !== undefined) seeds.set(e.nodeId, seed);
        if (e.outputs.image?.kind === 'image') images.set(e.nodeId, e.outputs.image.value.b64);
      }
      return { seeds, images };
    };
    const first = await run(wf);
    expect(first.seeds).toEqual(new Map([['draw', 1000], ['restyle', 2000]]));
    const again = await run(pinSeedsUsed(wf, registry, first.seeds));
    expect(again.images).toEqual(first.images);
    expect(draws).toBe(2);
    expect(image.calls.map((c) => c.request.seed)).toEqual([1000, 2000, 1000, 2000]);
  });
});
