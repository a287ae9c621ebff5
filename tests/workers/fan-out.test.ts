/** Fan-out in the executor: a list reaching an input that takes one value runs the node once per item. */
import { describe, expect, it } from 'vitest';
import type { ImageClient } from '../../api/client-types';
import { textValue, textsValue } from '../../nodes/values';
import { createMemoryCache } from '../../workers/cache';
import type { ExecutorEvent } from '../../workers/events';
import { createExecutor, type ExecutorDeps } from '../../workers/executor';
import { describeCount } from '../../nodes/list-flow';
import { fanOutOf, gatherOutputs } from '../../workers/fan-out';
import { eventLog, fakeChatClient, fakeImageB64, fakeImageClient, fakeRegistry, testSettings, workflow } from './fakes';

function setup(options: { latencyMs?: number; image?: ImageClient } & Partial<ExecutorDeps> = {}) {
  const image = fakeImageClient({ latencyMs: options.latencyMs });
  const cache = createMemoryCache();
  const executor = createExecutor({
    registry: fakeRegistry, api: { image: options.image ?? image.client, chat: fakeChatClient().client }, settings: testSettings, cache, ...options,
  });
  return { executor, image, cache };
}

const prompts = (wf: ReturnType<typeof workflow>, id = 'l') => wf.nodes.find((n) => n.id === id)!.params;
const itemsOf = (log: ReturnType<typeof eventLog>, type: ExecutorEvent['type'], nodeId: string) =>
  log.events.flatMap((e) => (e.type === type && 'nodeId' in e && e.nodeId === nodeId && 'item' in e && e.item !== undefined ? [e.item] : []));

describe('fanOutOf', () => {
  const text = (name: string, label = name) => ({ name, kind: 'text' as const, label });

  it('splits a list reaching an input that takes one value, leaves the rest as they are', () => {
    const fan = fanOutOf([text('a'), text('b')], { a: textsValue(['x', 'y', 'z']), b: textValue('same') })!;
    expect(fan).toMatchObject({ count: 3, mode: 'zip', lists: [{ port: 'a', label: 'a', length: 3 }] });
    expect(fan.itemInputs(1)).toEqual({ a: textValue('y'), b: textValue('same') });
  });

  it('runs once for a list of one, and for an input that takes the list whole', () => {
    expect(fanOutOf([text('a')], { a: textsValue(['only']) })).toBeUndefined();
    expect(fanOutOf([{ name: 'a', kind: 'texts', label: 'A' }], { a: textsValue(['x', 'y']) })).toBeUndefined();
    expect(fanOutOf([text('a')], { a: textValue('x') })).toBeUndefined();
  });

  it('zips lists item by item, and refuses lists of different lengths, naming them and the way out', () => {
    const zip = fanOutOf([text('a', 'Subject'), text('b', 'Style')], { a: textsValue(['1', '2']), b: textsValue(['p', 'q']) })!;
    expect([0, 1].map((i) => zip.itemInputs(i))).toEqual([{ a: textValue('1'), b: textValue('p') }, { a: textValue('2'), b: textValue('q') }]);
    expect(() => fanOutOf([text('a', 'Subject'), text('b', 'Style')], { a: textsValue(['1', '2', '3']), b: textsValue(['p', 'q']) }))
      .toThrow(`cannot pair its lists item by item: 'Subject' has 3, 'Style' has 2; give them the same length, or choose "every combination" on the node`);
  });

  it('crosses lists when asked: every combination, the first list varying slowest', () => {
    const cross = fanOutOf([text('a'), text('b')], { a: textsValue(['1', '2', '3']), b: textsValue(['p', 'q']) }, 'cross')!;
    expect(cross.count).toBe(6);
    expect(describeCount(cross)).toBe('3 × 2 = 6');
    expect(Array.from({ length: 6 }, (_, i) => `${cross.itemInputs(i).a!.value as string}${cross.itemInputs(i).b!.value as string}`))
      .toEqual(['1p', '1q', '2p', '2q', '3p', '3q']);
    expect(cross.position(3)).toEqual([1, 1]);
  });

  it('gathers the items’ outputs back into lists: single values listed, lists one after another', () => {
    const image = (n: number) => ({ b64: fakeImageB64(String(n)), mime: 'image/jpeg' });
    const gathered = gatherOutputs([
      { text: textValue('a'), image: { kind: 'image', value: image(1) }, images: { kind: 'images', value: [image(1), image(2)] } },
      { text: textValue('b'), image: { kind: 'image', value: image(3) }, images: { kind: 'images', value: [image(3)] } },
    ]);
    expect(gathered).toEqual({
      text: textsValue(['a', 'b']),
      image: { kind: 'images', value: [image(1), image(3)] },
      images: { kind: 'images', value: [image(1), image(2), image(3)] },
    });
    expect(() => gatherOutputs([{ n: { kind: 'number', value: 1 } }])).toThrow("output 'n' gives number, which has no list form");
  });
});

describe('executor: fan-out', () => {
  const fanWorkflow = (items: string[]) =>
    workflow([['l', 'list', { items }], ['g', 'gen', { seed: 5 }], ['r', 'restyle'], ['c', 'collect']], ['l.items -> g.prompt', 'g.image -> r.image', 'r.image -> c.images', 'l.items -> c.captions']);

  it('runs the node and what it feeds once per item, and gives the collector every item in order', async () => {
    const { executor, image } = setup();
    const log = eventLog();
    const summary = await executor.run(fanWorkflow(['a fox', 'a heron', 'an owl']), { mode: 'all', onEvent: log.onEvent });
    expect(summary).toMatchObject({ status: 'succeeded', apiCalls: 6, nodes: { planned: 4, done: 4 }, fanOut: { nodes: 2, items: 6, cachedItems: 0, failedItems: 0 } });
    // The items run in parallel, so they may reach the service in any order.
    expect(image.calls.filter((c) => c.request.init_image === undefined).map((c) => c.request.prompt).sort()).toEqual(['a fox', 'a heron', 'an owl']);
    // Each restyle got the image its own item made.
    expect(image.calls.filter((c) => c.request.init_image !== undefined).map((c) => c.request.init_image).sort())
      .toEqual(['a fox', 'a heron', 'an owl'].map((p) => fakeImageB64(`sdxl|${p}|5|`)).sort());
    expect(log.events.find((e) => e.type === 'node-fan-out' && e.nodeId === 'g')).toMatchObject({ count: 3, mode: 'zip', lists: [{ port: 'prompt', length: 3 }] });
    expect(itemsOf(log, 'node-item-done', 'g').sort()).toEqual([0, 1, 2]);
    expect(itemsOf(log, 'node-request', 'g').sort()).toEqual([0, 1, 2]);
    const collected = log.events.find((e) => e.type === 'node-done' && e.nodeId === 'c');
    expect(collected).toMatchObject({ outputs: { text: textValue('3 images; a fox|a heron|an owl') } });
    const done = log.events.find((e) => e.type === 'node-done' && e.nodeId === 'g');
    expect(done).toMatchObject({ items: 3, cached: false, apiCalls: 3 });
    expect((done as Extract<ExecutorEvent, { type: 'node-done' }>).outputs.image).toMatchObject({ kind: 'images', value: [{ seed: 5 }, { seed: 5 }, { seed: 5 }] });
    expect(log.of('g').slice(0, 3)).toEqual(['node-queued', 'node-fan-out', 'node-started']);
    expect(log.of('g').at(-1)).toBe('node-done');
  });

  it('runs the items in parallel under the run’s concurrency, shared with the other nodes', async () => {
    const { executor, image } = setup({ latencyMs: 20, concurrency: 3 });
    const wf = workflow([['l', 'list', { items: ['1', '2', '3', '4', '5', '6', '7'] }], ['g', 'gen', { seed: 1 }], ['h', 'gen', { prompt: 'beside', seed: 1 }]], ['l.items -> g.prompt']);
    await executor.run(wf, { mode: 'all' });
    expect(image.calls).toHaveLength(8);
    expect(image.maxInFlight).toBe(3);
  });

  it('keys each item by its own content: changing item 2 re-runs only item 2’s branch', async () => {
    const { executor, image } = setup();
    const wf = fanWorkflow(['a fox', 'a heron', 'an owl']);
    await executor.run(wf, { mode: 'all' });
    image.calls.length = 0;
    prompts(wf).items = ['a fox', 'a crane', 'an owl'];
    const log = eventLog();
    const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(image.calls.map((c) => c.request.prompt)).toEqual(['a crane', 'restyle']);
    expect(image.calls[1]!.request.init_image).toBe(fakeImageB64('sdxl|a crane|5|'));
    expect(summary).toMatchObject({ apiCalls: 2, apiCallsSaved: 4, fanOut: { items: 6, cachedItems: 4 } });
    const cached = log.events.flatMap((e) => (e.type === 'node-item-done' ? [[e.nodeId, e.item, e.cached]] : [])).sort();
    expect(cached).toEqual([['g', 0, true], ['g', 1, false], ['g', 2, true], ['r', 0, true], ['r', 1, false], ['r', 2, true]]);
    // The collector's input changed (one item), so it ran again.
    expect(log.events.find((e) => e.type === 'node-done' && e.nodeId === 'c')).toMatchObject({ cached: false });
    // Nothing changed: everything from the cache, the fanned nodes as cached nodes.
    const again = eventLog();
    await executor.run(wf, { mode: 'all', onEvent: again.onEvent });
    expect(again.of('g')).toEqual(['node-queued', 'node-fan-out', 'node-item-done', 'node-item-done', 'node-item-done', 'node-cached', 'node-done']);
  });

  it('lets the other items finish when one fails, then fails the node naming the item; a re-run runs only that item', async () => {
    const flaky: ImageClient = {
      generate: (engine, request, options) =>
        request.prompt === 'a heron' ? Promise.reject(Object.assign(new Error('the service is busy'), { status: 503, kind: 'http' })) : base.client.generate(engine, request, options),
    };
    const base = fakeImageClient();
    const { executor, cache } = setup({ image: flaky });
    const log = eventLog();
    const wf = fanWorkflow(['a fox', 'a heron', 'an owl']);
    const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(summary.status).toBe('failed');
    expect(summary.failures).toEqual([{ nodeId: 'g', error: { message: 'item 2 of 3 failed: the service is busy', status: 503, kind: 'http', item: 1 } }]);
    expect(log.events.find((e) => e.type === 'node-item-failed')).toMatchObject({ nodeId: 'g', item: 1, count: 3, error: { message: 'the service is busy' } });
    expect(itemsOf(log, 'node-item-done', 'g').sort()).toEqual([0, 2]);
    expect(base.calls.map((c) => c.request.prompt).sort()).toEqual(['a fox', 'an owl']);
    expect(log.events.filter((e) => e.type === 'node-skipped').map((e) => e.nodeId).sort()).toEqual(['c', 'r']);
    expect(summary.fanOut).toEqual({ nodes: 1, items: 3, cachedItems: 0, failedItems: 1 });
    // The items that ended were kept: with the service well again, only the failed one is asked.
    const again = createExecutor({ registry: fakeRegistry, api: { image: base.client, chat: fakeChatClient().client }, settings: testSettings, cache });
    base.calls.length = 0;
    await again.run(wf, { mode: 'all' });
    expect(base.calls.map((c) => c.request.prompt)).toEqual(['a heron', 'restyle', 'restyle', 'restyle']);
  });

  it('stops every pending item on cancel: running ones are aborted, waiting ones never sent', async () => {
    const { executor, image } = setup({ latencyMs: 40, concurrency: 2 });
    const controller = new AbortController();
    const log = eventLog();
    const wf = workflow([['l', 'list', { items: ['1', '2', '3', '4', '5', '6'] }], ['g', 'gen', { seed: 1 }]], ['l.items -> g.prompt']);
    const summary = await executor.run(wf, {
      mode: 'all',
      signal: controller.signal,
      onEvent(event) {
        log.onEvent(event);
        if (event.type === 'node-item-done') controller.abort();
      },
    });
    expect(summary.status).toBe('cancelled');
    // One item ended, its partner was in flight and saw the abort; the other four never left.
    expect(image.calls).toHaveLength(2);
    // Either of the two may be the one that ended first; the other saw the abort.
    const ended = String(Number((log.events.find((e) => e.type === 'node-item-done') as { item: number }).item) + 1);
    expect(image.calls.map((c) => c.request.prompt).sort()).toEqual(['1', '2']);
    expect(image.calls.map((c) => [c.request.prompt, c.sawAbort]).sort()).toEqual([['1', ended !== '1'], ['2', ended !== '2']]);
    expect(log.of('g').at(-1)).toBe('node-cancelled');
    expect(log.types().filter((t) => t === 'node-item-done')).toHaveLength(1);
  });

  it('crosses two lists when the node asks for it', async () => {
    const { executor } = setup();
    const log = eventLog();
    const wf = workflow(
      [['s', 'list', { items: ['fox', 'owl'] }], ['t', 'list', { items: ['ink', 'oil', 'clay'] }], ['j', 'join', { sep: ' in ' }]],
      ['s.items -> j.a', 't.items -> j.b'],
    );
    wf.nodes[2]!.fanOut = 'cross';
    await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(log.events.find((e) => e.type === 'node-fan-out')).toMatchObject({ count: 6, mode: 'cross', lists: [{ length: 2 }, { length: 3 }] });
    expect(log.events.find((e) => e.type === 'node-done' && e.nodeId === 'j')).toMatchObject({
      outputs: { text: textsValue(['fox in ink', 'fox in oil', 'fox in clay', 'owl in ink', 'owl in oil', 'owl in clay']) },
    });
    // Zipped, the same lists are refused before anything runs on them.
    delete wf.nodes[2]!.fanOut;
    const zipped = await executor.run(wf, { mode: 'all' });
    expect(zipped.failures[0]).toMatchObject({ nodeId: 'j', error: { port: 'a', message: expect.stringContaining("'A' has 2, 'B' has 3") as unknown } });
  });

  it('asks before a fan-out above the limit, sends nothing when refused, and runs when allowed', async () => {
    const { executor, image } = setup({ maxFanOut: 4 });
    const wf = workflow([['l', 'list', { items: ['1', '2', '3', '4', '5'] }], ['g', 'gen', { seed: 1 }]], ['l.items -> g.prompt']);
    const refused = await executor.run(wf, { mode: 'all' });
    expect(refused.failures).toEqual([{ nodeId: 'g', error: { message: 'would run 5 times, above the fan-out limit of 4: raise the limit (the editor\'s settings, or --max-fan-out) to run it' } }]);
    const asked: unknown[] = [];
    const declined = await executor.run(wf, { mode: 'all', confirmFanOut: (ask) => { asked.push(ask); return Promise.resolve(false); } });
    expect(asked).toEqual([{ nodeId: 'g', count: 5, description: '5', limit: 4 }]);
    expect(declined.failures[0]?.error.message).toContain('and running it was declined');
    expect(image.calls).toHaveLength(0);
    const allowed = await executor.run(wf, { mode: 'all', confirmFanOut: () => Promise.resolve(true) });
    expect(allowed.status).toBe('succeeded');
    expect(image.calls).toHaveLength(5);
    // A free node is not held to the limit: only requests are.
    const free = workflow([['l', 'list', { items: ['1', '2', '3', '4', '5'] }], ['t', 'template', { names: ['x'] }]], ['l.items -> t.x']);
    expect((await createExecutor({ registry: { get: (t) => (t === 'template' ? { ...fakeRegistry.get(t)!, type: 'text' } : fakeRegistry.get(t)) }, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings, maxFanOut: 4 }).run(free, { mode: 'all' })).status).toBe('succeeded');
  });

  it('skips a node whose list is empty, and what it feeds, saying why', async () => {
    const { executor, image } = setup();
    const log = eventLog();
    const summary = await executor.run(fanWorkflow([]), { mode: 'all', onEvent: log.onEvent });
    expect(summary).toMatchObject({ status: 'succeeded', nodes: { done: 1, skipped: 3 } });
    expect(log.events.find((e) => e.type === 'node-skipped' && e.nodeId === 'g')).toMatchObject({ because: 'l', reason: "input 'Prompt' got an empty list from 'l': nothing to run" });
    expect(image.calls).toHaveLength(0);
  });
});
