import { describe, expect, it } from 'vitest';
import { createMemoryCache, type CacheEntry, type CacheStore } from '../../workers/cache';
import { createExecutor } from '../../workers/executor';
import { canonicalJson, nodeCacheKey, sha256Hex, withDigests } from '../../workers/hash';
import { eventLog, fakeChatClient, fakeImageClient, fakeRegistry, testSettings, workflow } from './fakes';

function setup(cache?: CacheStore) {
  const image = fakeImageClient();
  const chat = fakeChatClient();
  const executor = createExecutor({ registry: fakeRegistry, api: { image: image.client, chat: chat.client }, settings: testSettings, ...(cache ? { cache } : {}) });
  return { executor, image, chat };
}

const chain = workflow(
  [['c', 'chat'], ['g', 'gen', { seed: 3 }], ['r', 'restyle'], ['s', 'source'], ['g2', 'gen', { prompt: 'dog', seed: 4 }]],
  ['c.text -> g.prompt', 'g.image -> r.image'],
);

describe('cache', () => {
  it('serves an unchanged graph entirely from the cache: zero API calls', async () => {
    const { executor, image, chat } = setup();
    const first = await executor.run(chain);
    expect(first).toMatchObject({ apiCalls: 4, apiCallsSaved: 0 });
    const callsBefore = image.calls.length;

    const log = eventLog();
    const second = await executor.run(structuredClone(chain), { mode: 'all', onEvent: log.onEvent });
    expect(image.calls.length).toBe(callsBefore);
    expect(chat.calls).toBe(1);
    expect(second).toMatchObject({ status: 'succeeded', apiCalls: 0, apiCallsSaved: 4, nodes: { cached: 5, done: 0 } });
    expect(log.of('g')).toEqual(['node-queued', 'node-cached', 'node-done']);
    expect(log.events.find((e) => e.type === 'node-cached' && e.nodeId === 'g')).toMatchObject({ apiCallsSaved: 1 });
    expect(log.events.find((e) => e.type === 'node-done' && e.nodeId === 'r')).toMatchObject({ cached: true, apiCalls: 0 });
  });

  it('re-runs only what a parameter change reaches', async () => {
    const { executor, image } = setup();
    await executor.run(chain);
    const changed = structuredClone(chain);
    changed.nodes.find((n) => n.id === 'g')!.params.seed = 9;
    const summary = await executor.run(changed);
    expect(summary).toMatchObject({ apiCalls: 2, nodes: { done: 2, cached: 3 } });
    expect(image.calls.slice(-2).map((c) => c.request.prompt)).toEqual(['a quiet cabin in the snowy woods', 'restyle']);
  });

  it('keys on content: a change that gives the same output leaves downstream cached', async () => {
    const { executor, image } = setup();
    await executor.run(chain);
    const changed = structuredClone(chain);
    // The fake engine's image does not depend on steps, so 'r' sees the same input again.
    changed.nodes.find((n) => n.id === 'g')!.params.steps = 20;
    const log = eventLog();
    const summary = await executor.run(changed, { mode: 'all', onEvent: log.onEvent });
    expect(summary).toMatchObject({ apiCalls: 1, nodes: { done: 1, cached: 4 } });
    expect(image.calls.at(-1)!.request.steps).toBe(20);
    expect(log.of('r')).toEqual(['node-queued', 'node-cached', 'node-done']);
  });

  it('treats a default written out and a default left out as the same parameters', async () => {
    const { executor, image } = setup();
    await executor.run(workflow([['g', 'gen', { prompt: 'p', seed: 1 }]]));
    await executor.run(workflow([['g', 'gen', { seed: 1, steps: 10, prompt: 'p' }]]));
    expect(image.calls).toHaveLength(1);
  });

  it('never serves a random-seed node from the cache, and reports the seed it used', async () => {
    const { executor, image } = setup();
    const wf = workflow([['g', 'gen', { prompt: 'p' }], ['r', 'restyle']], ['g.image -> r.image']);
    const seeds: number[] = [];
    for (let i = 0; i < 2; i++) {
      await executor.run(wf, {
        mode: 'all',
        onEvent: (e) => {
          if (e.type === 'node-done' && e.nodeId === 'g' && e.outputs.image?.kind === 'image') seeds.push(e.outputs.image.value.seed!);
        },
      });
    }
    // Downstream re-ran too: its input changed.
    expect(image.calls).toHaveLength(4);
    expect(seeds).toHaveLength(2);
    expect(seeds[0]).not.toBe(seeds[1]);
  });

  it("'to' reuses the cache and leaves the rest alone", async () => {
    const { executor, image } = setup();
    await executor.run(chain, { mode: 'to', nodeId: 'g' });
    expect(image.calls.map((c) => c.request.prompt)).toEqual(['a quiet cabin in the snowy woods']);
    const summary = await executor.run(chain, { mode: 'to', nodeId: 'r' });
    expect(summary).toMatchObject({ apiCalls: 1, nodes: { planned: 3, cached: 2, done: 1 } });
  });

  it("'from' re-runs the node and what follows it, serving what it needs from the cache", async () => {
    const { executor, image, chat } = setup();
    await executor.run(chain);
    const log = eventLog();
    const summary = await executor.run(chain, { mode: 'from', nodeId: 'g', onEvent: log.onEvent });
    expect(summary).toMatchObject({ nodes: { planned: 3, cached: 1, done: 2 }, apiCalls: 2 });
    expect(log.of('c')).toEqual(['node-queued', 'node-cached', 'node-done']);
    expect(log.of('s')).toEqual([]);
    expect(chat.calls).toBe(1);
    expect(image.calls).toHaveLength(5);
  });

  it("'from' runs an ancestor the cache does not have", async () => {
    const { executor, chat } = setup();
    const summary = await executor.run(chain, { mode: 'from', nodeId: 'r' });
    expect(summary).toMatchObject({ status: 'succeeded', nodes: { planned: 3, done: 3 } });
    expect(chat.calls).toBe(1);
  });

  it('keeps results of one service and chat model apart from another', async () => {
    const cache = createMemoryCache();
    const image = fakeImageClient();
    const chat = fakeChatClient();
    const make = (scope: string, chatModel: string) => createExecutor({
      registry: fakeRegistry, api: { image: image.client, chat: chat.client }, settings: { chatModel }, cache, cacheScope: scope,
    });
    const wf = workflow([['c', 'chat'], ['g', 'gen', { prompt: 'p', seed: 1 }]]);
    await make('local', 'm1').run(wf);
    expect(await make('local', 'm1').run(wf)).toMatchObject({ apiCalls: 0 });
    expect(await make('hosted', 'm1').run(wf)).toMatchObject({ apiCalls: 2 });
    expect(await make('local', 'm2').run(wf)).toMatchObject({ apiCalls: 2 });
  });

  it('keeps running when the cache store fails, with a warning', async () => {
    const broken: CacheStore = { get: () => Promise.reject(new Error('quota')), set: () => Promise.reject(new Error('quota')) };
    const { executor } = setup(broken);
    const summary = await executor.run(workflow([['g', 'gen', { prompt: 'p', seed: 1 }]]));
    expect(summary.status).toBe('succeeded');
    expect(summary.warnings).toEqual([
      "node 'g': reading the cache failed (quota); running it instead",
      "node 'g': storing its result in the cache failed (quota)",
    ]);
  });
});

describe('memory cache', () => {
  const entry = (chars: number): CacheEntry => ({ outputs: { image: { kind: 'image', value: { b64: 'A'.repeat(chars), mime: 'image/jpeg' } } }, apiCalls: 1 });

  it('evicts the least recently used entries to stay under its size', async () => {
    const cache = createMemoryCache({ maxBytes: 3500 });
    await cache.set('a', entry(1000));
    await cache.set('b', entry(1000));
    await cache.set('c', entry(1000));
    await cache.get('a'); // a is now the most recently used
    await cache.set('d', entry(1000));
    expect(await cache.get('b')).toBeUndefined();
    expect(await cache.get('a')).toBeDefined();
    expect(await cache.get('d')).toBeDefined();
    expect(cache.bytes).toBeLessThanOrEqual(3500);
    await cache.set('huge', entry(10_000));
    expect(await cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(3);
  });
});

describe('hashing', () => {
  it('serialises with sorted keys and without undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: undefined, c: 'x' }] })).toBe('{"a":[{"c":"x"}],"b":1}');
    expect(canonicalJson({ z: { y: [undefined, null, 'q"'], x: {} }, é: 1, Z: -0, a: undefined })).toBe('{"Z":0,"z":{"x":{},"y":[null,null,"q\\""]},"é":1}');
    expect(canonicalJson({})).toBe('{}');
  });

  it('keys the SHA-256 of the canonical text, remembered by content: a changed parameter gives a new key', async () => {
    const def = { type: 'gen', version: 3 };
    const image = { kind: 'image' as const, value: { b64: 'short', mime: 'image/jpeg' } };
    const expected = (steps: number) =>
      sha256Hex(canonicalJson({ f: 'atelier-cache-1', t: 'gen', v: 3, p: { steps, prompt: 'a fox' }, i: { image }, c: { scope: 's' } }));
    const k1 = await nodeCacheKey(def, { prompt: 'a fox', steps: 1 }, { image }, { scope: 's' });
    expect(k1).toBe(await expected(1));
    // Asked again with copies, as every estimate and run does: the same key.
    expect(await nodeCacheKey({ ...def }, { steps: 1, prompt: 'a fox' }, structuredClone({ image }), { scope: 's' })).toBe(k1);
    const k2 = await nodeCacheKey(def, { prompt: 'a fox', steps: 2 }, { image }, { scope: 's' });
    expect(k2).toBe(await expected(2));
    expect(k2).not.toBe(k1);
    expect(await nodeCacheKey(def, { prompt: 'a fox', steps: 1 }, { image }, { scope: 't' })).not.toBe(k1);
    expect(await nodeCacheKey(def, { prompt: 'a fox', steps: 1 }, { image }, { scope: 's' })).toBe(k1);
  });

  it('digests as the plain recursive walk does: image objects, loose strings, holes and odd keys alike', async () => {
    // The straightforward version, one await per member, as a reference.
    const reference = async (value: unknown): Promise<unknown> => {
      if (typeof value === 'string') return value.length > 1024 ? { sha256: await sha256Hex(value) } : value;
      if (typeof value !== 'object' || value === null) return value;
      if (Array.isArray(value)) return Promise.all(value.map(reference));
      const record = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(record)) out[key] = await reference(record[key]);
      return out;
    };
    const long = (c: string) => c.repeat(3000);
    // eslint-disable-next-line no-sparse-arrays -- a hole is what is being tested
    const holey = [1, , long('h')];
    const value = JSON.parse(JSON.stringify({
      image: { kind: 'image', value: { b64: long('a'), mime: 'image/png' } },
      images: { kind: 'images', value: [{ b64: long('b'), mime: 'image/png' }, { b64: 'short', mime: 'image/png' }] },
      loose: [long('c'), 'x', { deep: long('d'), b64: 'tiny' }],
    })) as Record<string, unknown>;
    value.holey = holey;
    value.maybe = undefined;
    expect(canonicalJson(await withDigests(value))).toBe(canonicalJson(await reference(value)));
    // eslint-disable-next-line no-sparse-arrays -- a hole is what is being tested
    expect(canonicalJson(await withDigests({ list: [1, , 2] }))).toBe('{"list":[1,null,2]}');
    const def = { type: 'gen', version: 1 };
    // eslint-disable-next-line no-sparse-arrays -- a hole is what is being tested
    expect(await nodeCacheKey(def, { list: [1, , 2] }, {})).toBe(await nodeCacheKey(def, { list: [1, null, 2] }, {}));
  });

  it('replaces only long strings with their digest, and leaves a value without any as it is', async () => {
    const small = { prompt: 'x', list: [1, { b64: 'short' }] };
    expect(await withDigests(small)).toBe(small);
    const long = 'L'.repeat(2000);
    expect(await withDigests({ a: [long, 'x'], image: { b64: long, mime: 'image/png' } })).toEqual({
      a: [{ sha256: await sha256Hex(long) }, 'x'],
      image: { b64: { sha256: await sha256Hex(long) }, mime: 'image/png' },
    });
  });

  it('keys by image content, not by the object, and by every parameter and the version', async () => {
    const def = { type: 'gen', version: 1 };
    const big = 'Q'.repeat(4 * 1024 * 1024);
    const img = (b64: string) => ({ kind: 'image' as const, value: { b64, mime: 'image/jpeg' } });
    const k1 = await nodeCacheKey(def, { steps: 1 }, { image: img(big) });
    const k2 = await nodeCacheKey(def, { steps: 1 }, { image: img(`${'Q'.repeat(4 * 1024 * 1024)}`) });
    const k3 = await nodeCacheKey(def, { steps: 1 }, { image: img(`${'Q'.repeat(4 * 1024 * 1024 - 1)}R`) });
    expect(k2).toBe(k1);
    expect(k3).not.toBe(k1);
    expect(await nodeCacheKey(def, { steps: 2 }, { image: img(big) })).not.toBe(k1);
    expect(await nodeCacheKey({ ...def, version: 2 }, { steps: 1 }, { image: img(big) })).not.toBe(k1);
    expect(await nodeCacheKey({ ...def, type: 'other' }, { steps: 1 }, { image: img(big) })).not.toBe(k1);
  });
});
