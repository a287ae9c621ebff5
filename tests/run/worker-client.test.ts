import { expose, transfer } from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerClient, type SpawnWorker } from '../../src/run/worker-client';
import type { UiEvent } from '../../workers/transfer';
import { createWorkerApi, type WorkerApi } from '../../workers/worker-api';
import { fakeChatClient, fakeImageClient, fakeRegistry, workflow } from '../workers/fakes';
import { settings } from './helpers';

/** A "worker": comlink's other end on a MessagePort, with terminate() and error events. */
function portWorker(api: WorkerApi) {
  const { port1, port2 } = new MessageChannel();
  expose(api, port2);
  let terminated = false;
  const worker = Object.assign(port1, {
    terminate() {
      terminated = true;
      port1.close();
      port2.close();
    },
  });
  return { worker: worker as unknown as Worker, port: port1, get terminated() { return terminated; } };
}

const open: { terminate(): void }[] = [];
afterEach(() => {
  for (const w of open.splice(0)) w.terminate();
});

function realApi(configured: unknown[] = []) {
  const api = createWorkerApi({
    registry: fakeRegistry,
    createImageClient: (config) => (configured.push(config), fakeImageClient({ latencyMs: 1 }).client),
    createChatClient: () => fakeChatClient().client,
    transfer,
  });
  return api;
}

describe('worker client', () => {
  it('starts the worker at the first run, configures it and delivers events before the summary', async () => {
    const configured: unknown[] = [];
    const spawned: ReturnType<typeof portWorker>[] = [];
    const spawn: SpawnWorker = () => {
      const w = portWorker(realApi(configured));
      spawned.push(w);
      open.push(w.worker);
      return w.worker;
    };
    const client = createWorkerClient(spawn);
    expect(spawned).toHaveLength(0);

    const events: UiEvent[] = [];
    const summary = await client.run(workflow([['g', 'gen', { prompt: 'a lake', seed: 4 }]]), settings, { mode: 'all', runId: 'r1' }, (e) => events.push(e));

    expect(spawned).toHaveLength(1);
    expect(configured).toEqual([{ baseUrl: settings.imageBaseUrl, token: settings.token }]);
    expect(summary).toMatchObject({ runId: 'r1', status: 'succeeded' });
    expect(events.at(-1)?.type).toBe('run-finished');
    const done = events.find((e) => e.type === 'node-done');
    const image = done?.type === 'node-done' ? done.outputs.image : undefined;
    expect(image?.kind === 'image' && image.value.bytes).toBeInstanceOf(ArrayBuffer);
    expect(JSON.stringify(events)).not.toContain(settings.token);

    await client.run(workflow([['s', 'source']]), settings, { mode: 'all' }, () => undefined);
    expect(spawned).toHaveLength(1);
    client.dispose();
    expect(spawned[0]!.terminated).toBe(true);
  });

  it('rejects the run when the worker fails, and starts a fresh worker for the next one', async () => {
    const spawned: ReturnType<typeof portWorker>[] = [];
    const client = createWorkerClient(() => {
      const w = portWorker(realApi());
      spawned.push(w);
      open.push(w.worker);
      return w.worker;
    });
    const run = client.run(workflow([['slow', 'slow', { ms: 10_000 }]]), settings, { mode: 'all' }, () => undefined);
    await new Promise((r) => setTimeout(r, 20));
    spawned[0]!.port.dispatchEvent(Object.assign(new Event('error'), { message: 'Uncaught RangeError: out of memory' }));

    await expect(run).rejects.toThrow("the run's web worker failed: Uncaught RangeError: out of memory");
    expect(spawned[0]!.terminated).toBe(true);

    await expect(client.run(workflow([['s', 'source']]), settings, { mode: 'all' }, () => undefined)).resolves.toMatchObject({ status: 'succeeded' });
    expect(spawned).toHaveLength(2);
  });

  it('replaces a worker that does not stop after Cancel', async () => {
    const stuck: WorkerApi = {
      configure: () => Promise.resolve(),
      run: () => new Promise(() => undefined),
      cancel: () => undefined,
      estimate: () => new Promise(() => undefined),
      cachedResults: () => Promise.resolve([]),
      clearCache: () => Promise.resolve(),
      cacheStats: () => new Promise(() => undefined),
      countPromptTokens: () => [],
      planBatch: (w) => ({ runs: [w], after: w }),
      pinSeeds: (w) => w,
      listBackendNames: () => new Promise(() => undefined),
    };
    const w = portWorker(stuck);
    open.push(w.worker);
    const client = createWorkerClient(() => w.worker);
    const run = client.run(workflow([['s', 'source']]), settings, { mode: 'all' }, () => undefined);
    await new Promise((r) => setTimeout(r, 10));

    client.cancel(30);

    await expect(run).rejects.toThrow('the run did not stop within 0.03 s of Cancel');
    expect(w.terminated).toBe(true);
  });

  it('refuses a second run while one is in progress', async () => {
    const w = portWorker(realApi());
    open.push(w.worker);
    const client = createWorkerClient(() => w.worker);
    const first = client.run(workflow([['slow', 'slow', { ms: 50 }]]), settings, { mode: 'all' }, () => undefined);
    await expect(client.run(workflow([['s', 'source']]), settings, { mode: 'all' }, () => undefined)).rejects.toThrow('a run is already in progress');
    await expect(first).resolves.toMatchObject({ status: 'succeeded' });
  });

  it('estimates with the settings given, reading the cache the runs filled, and reports a dead worker instead of hanging', async () => {
    const spawned: ReturnType<typeof portWorker>[] = [];
    const client = createWorkerClient(() => {
      const w = portWorker(realApi());
      spawned.push(w);
      open.push(w.worker);
      return w.worker;
    });
    const doc = workflow([['g', 'gen', { prompt: 'a lake', seed: 4 }]]);
    const before = await client.estimate(doc, settings, { mode: 'all' });
    expect(spawned).toHaveLength(1);
    // (The fake node types have no cost table entry: the status is what is checked here.)
    expect(before).toMatchObject({ ok: true, nodes: [{ nodeId: 'g', status: 'runs' }], totals: { cachedNodes: 0 } });

    await client.run(doc, settings, { mode: 'all' }, () => undefined);
    expect(await client.estimate(doc, settings, { mode: 'all' })).toMatchObject({ ok: true, nodes: [{ status: 'cached' }], totals: { cachedNodes: 1, callsSavedByCache: 1 } });
    expect(await client.cacheStats()).toMatchObject({ entries: 1 });
    await client.clearCache();
    expect(await client.estimate(doc, settings, { mode: 'all' })).toMatchObject({ ok: true, totals: { cachedNodes: 0 } });

    const asked = client.estimate(doc, settings, { mode: 'all' });
    spawned[0]!.port.dispatchEvent(Object.assign(new Event('error'), { message: 'Uncaught Error: gone' }));
    await expect(asked).rejects.toThrow("the run's web worker failed: Uncaught Error: gone");
    await expect(client.estimate(doc, settings, { mode: 'all' })).resolves.toMatchObject({ ok: true });
    expect(spawned).toHaveLength(2);
  });
});
