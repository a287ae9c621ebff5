/**
 * What a person running several GPUs sees of them: the pool's servers reach the run as
 * `pool-status` events (labels and counts, never an address), each image says which server made
 * it, and that never changes a cache key.
 */
import { describe, expect, it } from 'vitest';
import type { ImageBackend } from '../../../api/backends/types';
import type { ServersReport } from '../../../api/client-types';
import { ApiError } from '../../../api/errors';
import { createImageRouter, type EngineRoutes } from '../../../api/backends/router';
import { createWatchedPool } from '../../../api/backends/watched-pool';
import { registry } from '../../../nodes/index';
import type { Value } from '../../../nodes/types';
import { createExecutor } from '../../../workers/executor';
import { nodeCacheKey } from '../../../workers/hash';
import { eventLog, fakeChatClient, fakeImageB64, workflow } from '../../workers/fakes';

/**
 * A server that answers with one image once `gate` opens, or refuses the connection once `dead`
 * says so.
 */
function server(name: string, state = { dead: false }, gate: () => Promise<void> = () => Promise.resolve()): ImageBackend {
  return {
    kind: 'comfyui',
    label: 'ComfyUI',
    review: () => ({ backend: 'comfyui', label: 'ComfyUI', refusals: [], notes: [], translated: undefined }),
    async generate(_engine, request) {
      await gate();
      if (state.dead) throw new ApiError({ kind: 'network', detail: 'network error: connect ECONNREFUSED 127.0.0.1:9', endpoint: `POST http://127.0.0.1:9/${name}`, attempts: 1, retryable: true });
      return { images: [{ image_b64: fakeImageB64(`${name}|${request.prompt}`), seed: request.seed ?? 1 }] };
    },
    listNames: () => (state.dead ? Promise.reject(new Error('down')) : Promise.resolve({})),
  };
}

const never = () => () => undefined;

describe('a watched pool', () => {
  it('tells a watcher at once and at every change, by label, and says when a server went down and when it is tried again', async () => {
    let clock = 1_000_000;
    const dead = { dead: true };
    const pool = createWatchedPool([{ label: 'desk', backend: server('desk', dead) }, { label: 'box', backend: server('box') }], { now: () => clock, schedule: never });
    const reports: ServersReport[] = [];
    const stop = pool.watchServers((r) => reports.push(r));
    expect(reports[0]).toEqual({ pool: 'ComfyUI', engines: [], servers: [
      { label: 'desk', inFlight: 0, queued: 0, down: false, made: 0 },
      { label: 'box', inFlight: 0, queued: 0, down: false, made: 0 },
    ] });
    clock += 500;
    const answer = await pool.generate('sdxl', { prompt: 'a fox' } as never);
    expect(answer.server).toBe('box');
    const last = reports.at(-1)!.servers;
    expect(last[0]).toEqual({ label: 'desk', inFlight: 0, queued: 0, down: true, made: 0, downSince: 1_000_500, retryAt: 1_001_500 });
    expect(last[1]).toMatchObject({ label: 'box', inFlight: 0, down: false, made: 1 });
    // A server was seen busy on the way.
    expect(reports.some((r) => r.servers[1]!.inFlight === 1)).toBe(true);
    expect(JSON.stringify(reports)).not.toContain('127.0.0.1');
    const seen = reports.length;
    stop();
    await pool.generate('sdxl', { prompt: 'another' } as never);
    expect(reports).toHaveLength(seen);
    expect(pool.review('sdxl', { prompt: 'x' } as never).servers).toBe(2);
    pool.close();
  });

  it('is watched once through a router however many engines share it, naming them', () => {
    const pool = createWatchedPool([{ label: 'a', backend: server('a') }, { label: 'b', backend: server('b') }], { schedule: never });
    const service = { generate: () => Promise.reject(new Error('not used')) };
    const routes = { sdxl: pool, sd: pool, 'controlnet-sdxl': service } as unknown as EngineRoutes;
    const reports: ServersReport[] = [];
    createImageRouter(routes).watchServers!((r) => reports.push(r))();
    expect(reports.map((r) => r.engines)).toEqual([['sdxl', 'sd']]);
    pool.close();
  });
});

describe('a run on a pool', () => {
  it('reports the servers during the run only, and each image names the server that made it', async () => {
    // Each answer waits until both requests are in: the second is placed while the first runs.
    let arrived = 0;
    let open = () => undefined as void;
    const both = new Promise<void>((resolve) => { open = resolve; });
    const gate = () => (++arrived === 2 ? (open(), both) : both);
    const pool = createWatchedPool([{ label: 'desk', backend: server('desk', undefined, gate) }, { label: 'box', backend: server('box', undefined, gate) }], { schedule: never });
    const executor = createExecutor({ registry, api: { image: createImageRouter({ sdxl: pool, sd: pool, 'controlnet-sdxl': pool } as unknown as EngineRoutes), chat: fakeChatClient().client }, settings: { chatModel: 'm' } });
    const log = eventLog();
    const wf = workflow([['t', 'text-to-image', { prompt: 'a lighthouse', seed: 3 }], ['u', 'text-to-image', { prompt: 'a harbour', seed: 4 }]]);
    const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(summary.status).toBe('succeeded');
    const types = log.types();
    const first = types.indexOf('pool-status');
    expect(first).toBeGreaterThan(types.indexOf('run-started'));
    expect(types.lastIndexOf('pool-status')).toBeLessThan(types.indexOf('run-finished'));
    const statuses = log.events.filter((e) => e.type === 'pool-status');
    expect(statuses.at(-1)).toMatchObject({ pool: 'ComfyUI', engines: ['sdxl', 'sd', 'controlnet-sdxl'] });
    expect(statuses.at(-1)!.servers.map((s) => s.made)).toEqual([1, 1]);
    const madeOn = log.events.flatMap((e) => (e.type === 'node-done' && e.outputs.image?.kind === 'image' ? [e.outputs.image.value.madeOn] : []));
    expect(madeOn.sort()).toEqual(['box', 'desk']);
    // No event after the run's end.
    await Promise.all([pool.generate('sdxl', { prompt: 'later' } as never), pool.generate('sdxl', { prompt: 'and later' } as never)]);
    expect(log.types().at(-1)).toBe('run-finished');
    pool.close();
  });

  it('keys a node the same whichever server made its input image, and with none named', async () => {
    const b64 = fakeImageB64('same bytes'.repeat(200));
    const input = (madeOn?: string): Record<string, Value> => ({ image: { kind: 'image', value: { b64, mime: 'image/jpeg', seed: 1, ...(madeOn === undefined ? {} : { madeOn }) } } });
    const def = { type: 'image-to-image', version: 1 };
    const keys = await Promise.all([undefined, 'desk', 'box'].map((s) => nodeCacheKey(def, { prompt: 'p' }, input(s))));
    expect(new Set(keys).size).toBe(1);
    const list = (a?: string, b?: string): Record<string, Value> => ({ images: { kind: 'images', value: [{ b64, mime: 'image/jpeg', ...(a ? { madeOn: a } : {}) }, { b64: 'c2hvcnQ=', mime: 'image/png', ...(b ? { madeOn: b } : {}) }] } });
    expect(await nodeCacheKey(def, {}, list('desk', 'box'))).toBe(await nodeCacheKey(def, {}, list()));
    // The bytes still count.
    expect(await nodeCacheKey(def, { prompt: 'p' }, { image: { kind: 'image', value: { b64: fakeImageB64('other'), mime: 'image/jpeg', seed: 1, madeOn: 'desk' } } })).not.toBe(keys[0]);
  });
});
