import { randomBytes } from 'node:crypto';
import { proxy, expose, transfer, wrap, type Remote } from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientConfig } from '../../api/http';
import { base64ToBytes, toUiEvent, type UiEvent } from '../../workers/transfer';
import { createWorkerApi, type WorkerApi, type WorkerApiDeps } from '../../workers/worker-api';
import { countPromptTokens } from '../../api/prompt';
import { registry } from '../../nodes/index';
import { fakeChatClient, fakeImageB64, fakeImageClient, fakeRegistry, workflow } from './fakes';

describe('base64ToBytes', () => {
  it('decodes what Buffer encodes, at every length, standard and URL-safe, padded or not', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = randomBytes(n);
      const b64 = bytes.toString('base64');
      expect(Buffer.from(base64ToBytes(b64))).toEqual(bytes);
      expect(Buffer.from(base64ToBytes(bytes.toString('base64url')))).toEqual(bytes);
    }
  });

  it('refuses text that is not base64, saying where', () => {
    expect(() => base64ToBytes('abc$')).toThrow(/unexpected character at position 3/);
    expect(() => base64ToBytes('abcde')).toThrow(/cannot encode whole bytes/);
  });
});

describe('toUiEvent', () => {
  it('turns images into bytes once per image, listing each buffer once for transfer', () => {
    const image = { b64: Buffer.from('jpeg bytes').toString('base64'), mime: 'image/jpeg', seed: 9 };
    const { event, transfer: buffers } = toUiEvent({
      type: 'node-done', runId: 'r', nodeId: 'g', durationMs: 1, cached: false, apiCalls: 1,
      outputs: { image: { kind: 'image', value: image }, images: { kind: 'images', value: [image] }, note: { kind: 'text', value: 'hi' } },
    });
    expect(buffers).toHaveLength(1);
    if (event.type !== 'node-done') throw new Error('expected node-done');
    const out = event.outputs.image;
    expect(out?.kind === 'image' && Buffer.from(out.value.bytes).toString()).toBe('jpeg bytes');
    expect(out).toMatchObject({ value: { mime: 'image/jpeg', seed: 9 } });
    expect(out?.kind === 'image' && 'b64' in out.value).toBe(false);
    expect(event.outputs.note).toEqual({ kind: 'text', value: 'hi' });
  });

  it('passes other events through untouched', () => {
    const e = { type: 'node-started' as const, runId: 'r', nodeId: 'n' };
    expect(toUiEvent(e)).toEqual({ event: e, transfer: [] });
  });
});

describe('worker api over comlink', () => {
  const channels: MessageChannel[] = [];
  afterEach(() => {
    for (const c of channels.splice(0)) {
      c.port1.close();
      c.port2.close();
    }
  });

  function connect(extra: Partial<WorkerApiDeps> = {}) {
    const image = fakeImageClient({ latencyMs: 5 });
    const configs: { image?: ClientConfig; chat?: ClientConfig } = {};
    const transferred: ArrayBuffer[] = [];
    const api = createWorkerApi({
      registry: fakeRegistry,
      createImageClient: (config) => ((configs.image = config), image.client),
      createChatClient: (config) => ((configs.chat = config), fakeChatClient().client),
      transfer: (value, list) => {
        transferred.push(...(list as ArrayBuffer[]));
        return transfer(value, list);
      },
      ...extra,
    });
    const channel = new MessageChannel();
    channels.push(channel);
    expose(api, channel.port1 as unknown as Parameters<typeof expose>[1]);
    const remote: Remote<WorkerApi> = wrap<WorkerApi>(channel.port2 as unknown as Parameters<typeof wrap>[0]);
    return { remote, image, configs, transferred };
  }

  const settings = { imageBaseUrl: 'http://127.0.0.1:1/local/image', textBaseUrl: 'http://127.0.0.1:1/local/text', token: 'tok-secret', chatModel: 'm' };

  it('builds the clients from the settings and delivers image bytes by transfer, never the token', async () => {
    const { remote, configs, transferred } = connect();
    await remote.configure(settings);
    expect(configs.image).toEqual({ baseUrl: settings.imageBaseUrl, token: 'tok-secret' });
    expect(configs.chat).toEqual({ baseUrl: settings.textBaseUrl, token: 'tok-secret' });

    const events: UiEvent[] = [];
    const summary = await remote.run(workflow([['g', 'gen', { prompt: 'p', seed: 3 }]]), { mode: 'all' }, proxy((e: UiEvent) => void events.push(e)));
    expect(summary.status).toBe('succeeded');
    // The summary comes after every event, on the same ordered channel.
    const done = events.find((e) => e.type === 'node-done');
    if (done?.type !== 'node-done') throw new Error('no node-done');
    const image = done.outputs.image;
    expect(image?.kind).toBe('image');
    if (image?.kind !== 'image') return;
    expect(image.value.bytes).toBeInstanceOf(ArrayBuffer);
    expect(Buffer.from(image.value.bytes)).toEqual(Buffer.from(fakeImageB64('sdxl|p|3|'), 'base64'));
    // Transferred, not copied: the worker's buffer is detached once sent.
    expect(transferred).toHaveLength(1);
    expect(transferred[0]!.byteLength).toBe(0);
    expect(JSON.stringify(events)).not.toContain('tok-secret');
    expect(events.at(-1)?.type).toBe('run-finished');
  });

  it("hands the clients the page's origin, so a cross-origin failure can be told for what it likely is", async () => {
    const { remote, configs } = connect({ pageOrigin: 'http://127.0.0.1:8787' });
    await remote.configure({ ...settings, token: '' });
    expect(configs.image).toEqual({ baseUrl: settings.imageBaseUrl, pageOrigin: 'http://127.0.0.1:8787' });
    expect(configs.chat).toEqual({ baseUrl: settings.textBaseUrl, pageOrigin: 'http://127.0.0.1:8787' });
  });

  it('cancels a run from the page', async () => {
    const { remote, image } = connect();
    await remote.configure({ ...settings, token: '' });
    const slow = workflow([['s', 'slow', { ms: 10_000 }]]);
    const running = remote.run(slow, { mode: 'all' }, proxy(async (e: UiEvent) => {
      if (e.type === 'node-started') await remote.cancel();
    }));
    await expect(running).resolves.toMatchObject({ status: 'cancelled', nodes: { cancelled: 1 } });
    expect(image.calls).toHaveLength(0);
  });

  it('parses the workflow it is handed and refuses one that lost its shape, sending nothing', async () => {
    const { remote, image } = connect();
    await remote.configure(settings);
    const broken = { ...workflow([['g', 'gen', { prompt: 'p', seed: 3 }]]), edges: 'none' } as unknown as Parameters<WorkerApi['run']>[0];
    await expect(remote.run(broken, { mode: 'all' }, proxy(() => undefined))).rejects.toThrow(/not a valid workflow: edges:/);
    expect(image.calls).toHaveLength(0);
  });

  it('asks for settings before the first run or estimate', async () => {
    const { remote } = connect();
    await expect(remote.run(workflow([['s', 'source']]), { mode: 'all' }, proxy(() => undefined))).rejects.toThrow(/configure\(\) before run\(\)/);
    await expect(remote.estimate(workflow([['s', 'source']]), { mode: 'all' })).rejects.toThrow(/configure\(\) before estimate\(\)/);
  });

  it('estimates with the cache the runs fill, per service: cached after a run, not for other endpoints', async () => {
    const { remote, image } = connect();
    await remote.configure(settings);
    const wf = workflow([['g', 'gen', { prompt: 'p', seed: 3 }], ['s', 'source']]);
    const before = await remote.estimate(wf, { mode: 'all' });
    expect(before).toMatchObject({ ok: true, totals: { cachedNodes: 0 } });
    // With the seed fixed, a batch's later runs come from the cache the first one fills.
    expect(before).toMatchObject({ laterRuns: { rerun: [], perLaterRun: { apiCalls: 0, images: 0 } } });
    await remote.run(wf, { mode: 'all' }, proxy(() => undefined));
    const after = await remote.estimate(wf, { mode: 'all' });
    expect(after).toMatchObject({ ok: true, totals: { cachedNodes: 2, callsSavedByCache: 1 } });
    expect(await remote.estimate(wf, { mode: 'to', nodeId: 'g' })).toMatchObject({ ok: true, nodes: [{ nodeId: 'g', status: 'cached' }] });

    await remote.configure({ ...settings, imageBaseUrl: 'https://images.example.com' });
    expect(await remote.estimate(wf, { mode: 'all' })).toMatchObject({ ok: true, totals: { cachedNodes: 0 } });
    expect(image.calls).toHaveLength(1);
  });

  it('reports the cache size and clears it', async () => {
    const { remote } = connect();
    await remote.configure(settings);
    await remote.run(workflow([['g', 'gen', { prompt: 'p', seed: 3 }]]), { mode: 'all' }, proxy(() => undefined));
    expect(await remote.cacheStats()).toMatchObject({ entries: 1, persistent: false });
    await remote.clearCache();
    expect(await remote.cacheStats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('refuses to clear a cache store that cannot be cleared, saying so', async () => {
    const bare = { get: () => Promise.resolve(undefined), set: () => Promise.resolve() };
    const { remote } = connect({ cache: bare });
    await expect(remote.clearCache()).rejects.toThrow('this result cache cannot be cleared');
    await expect(remote.cacheStats()).rejects.toThrow('does not report its size');
  });

  it("counts the prompt fields' tokens without settings", async () => {
    const { remote } = connect({ registry });
    const prompts = ['', 'a lighthouse on a cliff at dusk', '(castle:1.3), watercolour'];
    expect(await remote.countPromptTokens(prompts)).toEqual(prompts.map(countPromptTokens));
  });
});
