import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createIdbHistory } from '../../src/history/idb-store';
import { createMemoryHistory } from '../../src/history/memory-store';
import { entryBytes, runBytes, type HistoryEntry, type HistoryRun, type HistoryStore, type ImageEntry } from '../../src/history/types';

let dbs = 0;
const stores: [string, (maxBytes?: number) => HistoryStore][] = [
  ['IndexedDB', (maxBytes) => createIdbHistory({ name: `history-test-${++dbs}`, ...(maxBytes ? { maxBytes } : {}), fallback: createMemoryHistory() })],
  ['memory', (maxBytes) => createMemoryHistory(maxBytes ? { maxBytes } : {})],
];

const run = (key: string, workflow = '{"format":"atelier.workflow"}'): HistoryRun => ({ key, at: 1, title: key, workflow });

function image(runKey: string, seed: number, size = 1000): ImageEntry {
  const blob = new Blob([new Uint8Array(size).fill(seed % 256)], { type: 'image/jpeg' });
  return {
    kind: 'image', runKey, at: seed, nodeId: 'draw', nodeType: 'text-to-image', nodeLabel: 'Draw', params: { seed },
    calls: [{ api: 'image', operation: 'generate', engine: 'sdxl', request: { prompt: 'a kite', seed } }],
    image: blob, thumb: blob, mime: 'image/jpeg', seed, sha256: `sha-${seed}`, index: 0, count: 1,
  };
}

const text = (runKey: string, value: string): HistoryEntry => ({
  kind: 'text', runKey, at: 0, nodeId: 'chat', nodeType: 'chat-prompt-writer', nodeLabel: 'Chat', params: {}, calls: [], port: 'text', text: value,
});

describe.each(stores)('run history in %s', (_name, make) => {
  it('lists entries newest first, page by page, with their blobs, and finds an image by its bytes', async () => {
    const store = make();
    let changes = 0;
    store.subscribe(() => changes++);
    await store.add(run('r1'), [text('r1', 'a prompt'), image('r1', 1)]);
    await store.add(run('r2'), [image('r2', 2), image('r2', 3)]);

    const all = await store.list(10);
    expect(all.map((e) => (e.kind === 'image' ? e.seed : e.text))).toEqual([3, 2, 1, 'a prompt']);
    const first = all[0] as ImageEntry;
    expect(first.image).toBeInstanceOf(Blob);
    expect(new Uint8Array(await first.image.arrayBuffer())[0]).toBe(3);
    const page = await store.list(2, all[1]!.id);
    expect(page.map((e) => e.kind === 'image' && e.seed)).toEqual([1, false]);

    expect((await store.findImage('sha-2'))?.seed).toBe(2);
    expect(await store.findImage('sha-9')).toBeUndefined();
    expect((await store.workflow('r1'))?.workflow).toBe('{"format":"atelier.workflow"}');
    expect(await store.stats()).toMatchObject({ entries: 4 });
    expect(changes).toBe(2);
  });

  it('evicts the oldest entries past its cap, and a run goes with its last entry', async () => {
    const one = entryBytes(image('r', 0, 4000));
    const cap = runBytes(run('r1')) + runBytes(run('r2')) + one * 2 + 100;
    const store = make(cap);
    await store.add(run('r1'), [image('r1', 1, 4000)]);
    await store.add(run('r2'), [image('r2', 2, 4000), image('r2', 3, 4000)]);

    expect((await store.list(10)).map((e) => e.kind === 'image' && e.seed)).toEqual([3, 2]);
    expect(await store.workflow('r1')).toBeUndefined();
    expect(await store.workflow('r2')).toBeDefined();
    const stats = await store.stats();
    expect(stats.entries).toBe(2);
    expect(stats.bytes).toBeLessThanOrEqual(cap);
  });

  it("keeps a run's latest record, its size counted once", async () => {
    const store = make();
    await store.add(run('r1', '{"seed":null}'), [image('r1', 1)]);
    await store.add(run('r1', '{"seed":123456}'), [image('r1', 2)]);
    expect((await store.workflow('r1'))?.workflow).toBe('{"seed":123456}');
    const bytes = runBytes(run('r1', '{"seed":123456}')) + entryBytes(image('r1', 1)) + entryBytes(image('r1', 2));
    expect(await store.stats()).toMatchObject({ entries: 2, bytes });
  });

  it('clears everything', async () => {
    const store = make();
    await store.add(run('r1'), [image('r1', 1)]);
    await store.clear();
    expect(await store.list(10)).toEqual([]);
    expect(await store.workflow('r1')).toBeUndefined();
    expect(await store.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});

describe('run history without IndexedDB', () => {
  it('keeps the outputs in memory and says it does not persist', async () => {
    const refusing = { open: () => { throw new DOMException('refused', 'SecurityError'); } };
    const real = globalThis.indexedDB;
    Object.defineProperty(globalThis, 'indexedDB', { value: refusing, configurable: true });
    try {
      const store = createIdbHistory({ name: 'refused', fallback: createMemoryHistory() });
      await store.add(run('r1'), [image('r1', 7)]);
      expect((await store.list(5)).map((e) => e.kind === 'image' && e.seed)).toEqual([7]);
      expect(await store.stats()).toMatchObject({ entries: 1, persistent: false });
    } finally {
      Object.defineProperty(globalThis, 'indexedDB', { value: real, configurable: true });
    }
  });
});
