/**
 * The run panel's servers: each `pool-status` report replaces its pool's row in place, a pool a
 * run never used is left out, and a server's state reads as busy, idle, or down since when and
 * when it is tried again. The CLI says only when a server goes down or comes back.
 */
import { describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../api/client-types';
import { createProgress } from '../../cli/progress';
import { applyEvent, beginRun, createRunState } from '../../src/run/run-state';
import { poolInUse, serverState } from '../../src/run/ServersView';
import type { UiEvent } from '../../workers/transfer';

const idle = (label: string): ServerStatus => ({ label, inFlight: 0, queued: 0, down: false, made: 0 });
const report = (engines: string[], servers: ServerStatus[], runId = 'run-1'): UiEvent => ({ type: 'pool-status', runId, pool: 'ComfyUI', engines, servers });

describe('servers in the run panel', () => {
  it('keeps the last report of each pool, in place, and only for the current run', () => {
    const state = createRunState();
    const deps = { urls: { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }, now: () => 0 };
    beginRun(state, 'run-1', 0);
    applyEvent(state, report(['sdxl'], [idle('desk'), idle('box')]), deps);
    applyEvent(state, report(['sd'], [idle('desk')]), deps);
    applyEvent(state, report(['sdxl'], [{ ...idle('desk'), inFlight: 2 }, idle('box')]), deps);
    applyEvent(state, report(['sdxl'], [idle('desk'), idle('box')], 'run-0'), deps);
    const pools = state.pools.get();
    expect(pools.map((p) => p.key)).toEqual(['sdxl', 'sd']);
    expect(pools[0]!.servers[0]!.inFlight).toBe(2);
    expect(pools.filter(poolInUse).map((p) => p.key)).toEqual(['sdxl']);
  });

  it('says busy, idle, or down since when and when it is retried', () => {
    expect(serverState({ ...idle('a'), inFlight: 1 })).toBe('busy');
    expect(serverState({ ...idle('a'), queued: 3 })).toBe('busy');
    expect(serverState(idle('a'))).toBe('idle');
    const since = new Date(2026, 0, 1, 10, 0, 0).getTime();
    const down = serverState({ ...idle('a'), down: true, downSince: since, retryAt: since + 4000 });
    expect(down).toBe(`down since ${new Date(since).toLocaleTimeString()}, retrying at ${new Date(since + 4000).toLocaleTimeString()}`);
  });
});

describe('servers on the command line', () => {
  it('prints a line when a server goes down and when it answers again, not at every report', () => {
    let text = '';
    const progress = createProgress({ write: (s: string) => { text += s; return true; } } as never);
    const event = (servers: ServerStatus[]) => ({ type: 'pool-status' as const, runId: 'r', pool: 'ComfyUI', engines: ['sdxl'], servers });
    progress.onEvent(event([{ ...idle('gpu1'), inFlight: 1 }, idle('gpu2')]));
    progress.onEvent(event([idle('gpu1'), { ...idle('gpu2'), down: true, downSince: Date.now(), retryAt: Date.now() + 1000 }]));
    progress.onEvent(event([{ ...idle('gpu1'), inFlight: 2 }, { ...idle('gpu2'), down: true }]));
    progress.onEvent(event([idle('gpu1'), idle('gpu2')]));
    const lines = text.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ {2}down +gpu2 {2}\(ComfyUI\): not answering, its requests go to the other servers; tried again in [\d.]+ m?s$/);
    expect(lines[1]).toMatch(/^ {2}up +gpu2 {2}\(ComfyUI\): answering again$/);
  });
});
