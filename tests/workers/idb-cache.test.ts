import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { createMemoryCache, entryBytes, type CacheEntry } from '../../workers/cache';
import { createExecutor } from '../../workers/executor';
import { createIdbCache, type IdbCache, type IdbCacheOptions } from '../../workers/idb-cache';
import { emptyUsage } from '../../api/usage';
import { eventLog, fakeChatClient, fakeImageB64, fakeImageClient, testSettings, workflow } from './fakes';

let dbCount = 0;
const opened: IdbCache[] = [];
afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
});

/** A store on a database of its own (or on `name`, to open the same one again), with a clock that ticks per call. */
function store(options: IdbCacheOptions = {}) {
  let t = 1_000;
  const cache = createIdbCache({ name: `test-${++dbCount}`, now: () => ++t, ...options });
  opened.push(cache);
  return cache;
}

const image = (text: string): CacheEntry => ({
  outputs: { image: { kind: 'image', value: { b64: fakeImageB64(text), mime: 'image/jpeg', seed: 3 } }, note: { kind: 'text', value: text } },
  apiCalls: 1,
  usage: { ...emptyUsage(), imageCalls: 1, images: 1, priceUnits: 2 },
});

describe('IndexedDB cache store', () => {
  it('gives back what it was given, and counts it', async () => {
    const cache = store();
    await cache.set('k1', image('a fox'));
    expect(await cache.get('k1')).toEqual(image('a fox'));
    expect(await cache.get('missing')).toBeUndefined();
    expect(await cache.stats()).toEqual({ entries: 1, bytes: entryBytes(image('a fox')), maxBytes: 512 * 1024 * 1024, persistent: true });
  });

  it('survives a new store on the same database, as after a reload', async () => {
    const first = store();
    await first.set('k1', image('kept'));
    first.close();
    const second = store({ name: `test-${dbCount}` });
    expect(await second.get('k1')).toEqual(image('kept'));
    expect((await second.stats()).entries).toBe(1);
  });

  it('evicts the entries used longest ago once the bound is passed, also across reopenings', async () => {
    const size = entryBytes(image('a'));
    const cache = store({ maxBytes: size * 3 });
    for (const key of ['a', 'b', 'c']) await cache.set(key, image(key));
    await cache.get('a');
    await cache.set('d', image('d'));
    expect(await cache.get('b')).toBeUndefined();
    cache.close();

    let t = 10_000;
    const again = store({ name: `test-${dbCount}`, maxBytes: size * 3, now: () => ++t });
    await again.set('e', image('e'));
    // Used order before 'e': c (written), a (read), d (written): c goes first.
    expect(await again.get('c')).toBeUndefined();
    expect((await Promise.all(['a', 'd', 'e'].map((k) => again.get(k)))).every((e) => e !== undefined)).toBe(true);
    expect(await again.stats()).toMatchObject({ entries: 3, bytes: size * 3 });
  });

  it('does not keep an entry larger than the whole bound, and forgets the one it replaced', async () => {
    const cache = store({ maxBytes: entryBytes(image('small')) + 10 });
    await cache.set('k', image('small'));
    const big: CacheEntry = { outputs: { text: { kind: 'text', value: 'x'.repeat(10_000) } }, apiCalls: 0 };
    await cache.set('k', big);
    expect(await cache.get('k')).toBeUndefined();
    expect(await cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('ignores damaged entries safely: not served, removed, the rest untouched', async () => {
    const cache = store();
    await cache.set('good', image('good'));
    const db = await openDB(`test-${dbCount}`);
    const damaged: [string, unknown][] = [
      ['not-an-object', 'garbage'],
      ['bad-kind', { outputs: { image: { kind: 'picture', value: {} } }, apiCalls: 1 }],
      ['bad-image', { outputs: { image: { kind: 'image', value: { b64: 42, mime: 'image/jpeg' } } }, apiCalls: 1 }],
      ['bad-calls', { outputs: {}, apiCalls: -1 }],
      ['bad-usage', { outputs: {}, apiCalls: 0, usage: { images: 'many' } }],
    ];
    for (const [key, value] of damaged) {
      await db.put('entries', value, key);
      await db.put('meta', { bytes: 100, used: 1 }, key);
    }
    // An entry whose meta record is missing (written by something else) is not trusted either.
    await db.put('entries', image('orphan'), 'orphan');
    db.close();

    for (const [key] of damaged) expect(await cache.get(key)).toBeUndefined();
    expect(await cache.get('orphan')).toBeUndefined();
    expect(await cache.get('good')).toEqual(image('good'));
    const check = await openDB(`test-${dbCount}`);
    expect((await check.getAllKeys('entries')).sort()).toEqual(['good']);
    check.close();
  });

  it('recounts its totals when opened, whatever was stored', async () => {
    const cache = store();
    await cache.set('a', image('a'));
    cache.close();
    const db = await openDB(`test-${dbCount}`);
    await db.put('totals', { bytes: 999_999, entries: 40 }, 'all');
    db.close();
    const again = store({ name: `test-${dbCount}` });
    expect(await again.stats()).toMatchObject({ entries: 1, bytes: entryBytes(image('a')) });
  });

  it('when the browser quota is full, makes room down to half of what it holds and stores the entry', async () => {
    const cache = store();
    for (const key of ['a', 'b', 'c', 'd']) await cache.set(key, image(key));
    const put = IDBObjectStore.prototype.put;
    let refused = 0;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'entries' && refused === 0) {
        refused++;
        throw new DOMException('the origin is over its quota', 'QuotaExceededError');
      }
      return put.apply(this, args);
    };
    try {
      await cache.set('e', image('e'));
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    expect(refused).toBe(1);
    // Held 4, room down to 2: the newest old entry and the new one remain.
    const kept = await Promise.all(['a', 'b', 'c', 'd', 'e'].map(async (k) => ((await cache.get(k)) ? k : undefined)));
    expect(kept.filter(Boolean)).toEqual(['d', 'e']);
    expect(await cache.stats()).toMatchObject({ entries: 2, bytes: 2 * entryBytes(image('a')) });
  });

  it('clears everything', async () => {
    const cache = store();
    await cache.set('a', image('a'));
    await cache.clear();
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('falls back to its fallback when IndexedDB will not open, and says so', async () => {
    const real = globalThis.indexedDB;
    const refusing = { open: () => { throw new DOMException('denied in this window', 'SecurityError'); } };
    Object.defineProperty(globalThis, 'indexedDB', { value: refusing, configurable: true, writable: true });
    try {
      const withFallback = store({ fallback: createMemoryCache() });
      await withFallback.set('a', image('a'));
      expect(await withFallback.get('a')).toEqual(image('a'));
      expect(await withFallback.stats()).toMatchObject({ entries: 1, persistent: false, notPersistentBecause: expect.stringMatching(/IndexedDB would not open \(denied in this window\)/) as unknown });
      await expect(store().get('a')).rejects.toThrow(/the result cache is unavailable: IndexedDB would not open/);
    } finally {
      Object.defineProperty(globalThis, 'indexedDB', { value: real, configurable: true, writable: true });
    }
  });

  it('serves a run from results an earlier executor stored, as after reloading the editor', async () => {
    const wf = workflow([['t', 'text-to-image', { prompt: 'a kite', seed: 8 }], ['p', 'preview']], ['t.image -> p.value']);
    const first = fakeImageClient();
    const cache = store();
    await createExecutor({ registry, api: { image: first.client, chat: fakeChatClient().client }, settings: testSettings, cache }).run(wf);
    cache.close();

    const second = fakeImageClient();
    const reopened = store({ name: `test-${dbCount}` });
    const log = eventLog();
    const summary = await createExecutor({ registry, api: { image: second.client, chat: fakeChatClient().client }, settings: testSettings, cache: reopened })
      .run(structuredClone(wf), { mode: 'all', onEvent: log.onEvent });
    expect(second.calls).toHaveLength(0);
    expect(summary).toMatchObject({ status: 'succeeded', apiCalls: 0, apiCallsSaved: 1, nodes: { cached: 2 }, usageSaved: { images: 1, priceUnits: 1 } });
    expect(log.of('t')).toEqual(['node-queued', 'node-cached', 'node-done']);
    expect(log.events.find((e) => e.type === 'node-done' && e.nodeId === 'p')).toMatchObject({ outputs: { shown: { kind: 'image', value: { b64: fakeImageB64('sdxl|a kite|8|') } } } });
  });
});
