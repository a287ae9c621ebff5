/** A node that runs once per item, as the page sees it: items streaming in, put together, each image sent once. */
import { describe, expect, it } from 'vitest';
import { createRunController } from '../../src/run/controller';
import { createFanOutAsks } from '../../src/run/fan-out-ask';
import { describeItems } from '../../src/run/format';
import { imagesOf } from '../../src/results/object-urls';
import { toUiEvent } from '../../workers/transfer';
import { workflow } from '../workers/fakes';
import { countingUrls, inThreadClient, settings } from './helpers';

function setup(extra: Partial<Parameters<typeof createRunController>[0]> = {}) {
  const fake = inThreadClient();
  const counted = countingUrls();
  const controller = createRunController({ client: fake.client, settings: () => settings, urls: counted.urls, ...extra });
  return { ...fake, ...counted, controller, state: controller.state };
}

const lists = (items: string[]) =>
  workflow([['l', 'list', { items }], ['g', 'gen', { seed: 5 }], ['c', 'collect']], ['l.items -> g.prompt', 'g.image -> c.images', 'l.items -> c.captions']);

describe('the page and a fan-out', () => {
  it('shows each item as it ends, puts them together in order, and makes one URL per image', async () => {
    const { controller, state, live } = setup();
    const seen: number[] = [];
    state.results.subscribe('g', () => seen.push(state.results.get('g')?.items?.filter((i) => i !== undefined).length ?? 0));
    const summary = await controller.run(lists(['a fox', 'a heron', 'an owl']));
    expect(summary?.status).toBe('succeeded');
    // Items arrived one by one before the node was done.
    expect(seen.slice(0, 3)).toEqual([1, 2, 3]);
    expect(state.status.get('g')).toMatchObject({ phase: 'done', fanOut: { count: 3, done: 3, cached: 0, failed: {} } });
    expect(describeItems(state.status.get('g')!.fanOut!)).toBe('3 of 3 done');
    const result = state.results.get('g')!;
    expect(result.items).toHaveLength(3);
    const images = imagesOf(result.outputs);
    expect(images.map((i) => i.seed)).toEqual([5, 5, 5]);
    // The node-done of a fan-out carries no images: each crossed once, with its item.
    expect(live.size).toBe(3);
    expect(state.results.get('c')!.outputs.text).toEqual({ kind: 'text', value: '3 images; a fox|a heron|an owl' });
  });

  it('replaces the whole strip on the next run, letting go of every earlier image', async () => {
    const { controller, state, live } = setup();
    await controller.run(lists(['a fox', 'a heron', 'an owl']));
    const before = [...live];
    await controller.run(lists(['a fox', 'a crane', 'an owl']));
    expect(state.status.get('g')).toMatchObject({ phase: 'done', fanOut: { done: 3, cached: 2 } });
    expect(describeItems(state.status.get('g')!.fanOut!)).toBe('3 of 3 done, 2 cached');
    expect(live.size).toBe(3);
    for (const url of before) expect(live.has(url)).toBe(false);
  });

  it('pins a failed item with its index, and keeps the items that ended', async () => {
    const { controller, state } = setup();
    const summary = await controller.run(lists(['a fox', 'forbidden words', 'an owl']));
    expect(summary?.status).toBe('failed');
    const status = state.status.get('g')!;
    expect(status).toMatchObject({ phase: 'failed', error: { item: 1, message: expect.stringMatching(/^item 2 of 3 failed: invalid parameters: Prompt: may not say forbidden/) as unknown } });
    expect(describeItems(status.fanOut!)).toBe('2 of 3 done; 1 failed (item 2)');
    const items = state.results.get('g')!.items!;
    expect(items[1]).toMatchObject({ error: { message: expect.stringContaining('may not say forbidden') as unknown } });
    expect(items.filter((i) => i !== undefined && 'outputs' in i)).toHaveLength(2);
  });

  it('asks before a fan-out above the limit, and a question left open when the run ends is answered no', async () => {
    const asks = createFanOutAsks();
    const { controller, image } = setup({ settings: () => ({ ...settings, maxFanOut: 2 }), confirmFanOut: (q) => asks.ask(q) });
    const run = controller.run(lists(['a', 'b', 'c']));
    await expect.poll(() => asks.current.get()).toMatchObject({ nodeId: 'g', count: 3, limit: 2, description: '3' });
    asks.current.get()!.answer(true);
    expect((await run)?.status).toBe('succeeded');
    expect(image.calls).toHaveLength(3);

    const refused = controller.run(lists(['d', 'e', 'f']));
    await expect.poll(() => asks.current.get()).toBeDefined();
    asks.dropAll();
    const summary = await refused;
    expect(summary?.failures[0]?.error.message).toContain('and running it was declined');
    expect(asks.current.get()).toBeUndefined();
    expect(image.calls).toHaveLength(3);
  });

  it('sends an item’s images with its event, and none with the node-done of a fan-out', () => {
    const image = { b64: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1]).toString('base64'), mime: 'image/jpeg' };
    const item = toUiEvent({ type: 'node-item-done', runId: 'r', nodeId: 'g', item: 0, count: 2, outputs: { image: { kind: 'image', value: image } }, durationMs: 1, cached: false, apiCalls: 1 });
    expect(item.transfer).toHaveLength(1);
    const done = toUiEvent({ type: 'node-done', runId: 'r', nodeId: 'g', items: 2, outputs: { image: { kind: 'images', value: [image, image] } }, durationMs: 1, cached: false, apiCalls: 2 });
    expect(done).toEqual({ event: expect.objectContaining({ outputs: {}, items: 2 }) as unknown, transfer: [] });
  });
});
