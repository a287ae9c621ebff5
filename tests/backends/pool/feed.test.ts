/**
 * A pool fed by its servers: what each ComfyUI double lists decides where a request may go, a
 * request no server can take is refused before anything is sent (naming what is missing where),
 * and a server busy with others' work (its GET /queue) is passed over for an idle one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createBackend } from '../../../api/backends/index';
import type { PoolBackend } from '../../../api/backends/pool/index';
import { holdingsOf } from '../../../api/backends/pool/feed';
import { startComfyDouble, type ComfyDouble } from '../../helpers/doubles/comfyui';
import { NAMES, NodeWebSocket, comfyOn } from '../comfyui/helpers';
import { startA1111Double } from '../../helpers/doubles/a1111';
import { backendFor } from '../a1111/fixtures';

const doubles: ComfyDouble[] = [];
let pool: PoolBackend | undefined;
afterEach(async () => {
  pool?.close();
  await Promise.all(doubles.splice(0).map((d) => d.close()));
});

async function comfyPool(...lists: (string[] | undefined)[]): Promise<PoolBackend> {
  for (const checkpoints of lists) doubles.push(await startComfyDouble(checkpoints === undefined ? {} : { checkpoints }));
  pool = await createBackend({
    config: { kind: 'comfyui', baseUrl: doubles[0]!.url, baseUrls: doubles.map((d, i) => ({ label: `gpu${i + 1}`, url: d.url })), names: NAMES },
  }, { WebSocket: NodeWebSocket, retry: { maxAttempts: 1 } }) as PoolBackend;
  return pool;
}

const prompts = (d: ComfyDouble) => d.received.prompts.length;

describe('a pool that asks its servers', () => {
  it('sends a request only to servers that list its checkpoint', async () => {
    const p = await comfyPool(['v1-5-pruned-emaonly.safetensors'], undefined);
    const made = await Promise.all([1, 2, 3, 4].map((seed) => p.generate('sdxl', { prompt: 'x', steps: 2, seed })));
    expect(made.map((r) => r.server)).toEqual(['gpu2', 'gpu2', 'gpu2', 'gpu2']);
    expect(prompts(doubles[0]!)).toBe(0);
    expect(prompts(doubles[1]!)).toBe(4);
  });

  it('refuses before sending a request no server can take, naming what each lacks', async () => {
    const p = await comfyPool(['a.safetensors'], ['b.safetensors']);
    await expect(p.generate('sdxl', { prompt: 'x', steps: 2, seed: 1 })).rejects.toThrow(
      "not sent: no server can take this request: gpu1 lacks checkpoint 'sd_xl_base_1.0.safetensors'; gpu2 lacks checkpoint 'sd_xl_base_1.0.safetensors'",
    );
    expect(doubles.map(prompts)).toEqual([0, 0]);
    expect(doubles.flatMap((d) => d.received.requests).filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('passes over a server busy with someone else’s work, read from its GET /queue', async () => {
    const p = await comfyPool(undefined, undefined);
    const busy = doubles[0]!;
    busy.hold();
    const other = comfyOn(busy, { WebSocket: undefined });
    const theirs = other.generate('sd', { prompt: 'someone else', steps: 2, seed: 1 }).catch(() => undefined);
    await busy.until(() => busy.waiting() !== undefined);
    const made = await p.generate('sdxl', { prompt: 'mine', steps: 2, seed: 2 });
    expect(made.server).toBe('gpu2');
    expect(p.status()[0]).toMatchObject({ label: 'gpu1', queued: 1, inFlight: 0 });
    busy.release();
    await theirs;
  });
});

describe('what a server holds, from what it listed', () => {
  it('takes AUTOMATIC1111 checkpoints by title, file name or stem; ComfyUI names exactly', () => {
    const a1111 = holdingsOf({ checkpoints: ['sdxl/base.safetensors [31e35c80fc]'] }, 'a1111');
    for (const name of ['sdxl/base.safetensors [31e35c80fc]', 'sdxl/base.safetensors', 'base.safetensors', 'base']) expect(a1111.checkpoints?.has(name)).toBe(true);
    expect(holdingsOf({ checkpoints: ['sdxl/base.safetensors'] }, 'comfyui').checkpoints).toEqual(new Set(['sdxl/base.safetensors']));
    expect(holdingsOf({}, 'comfyui')).toEqual({});
  });
});

describe('AUTOMATIC1111’s queue, as a pool reads it', () => {
  it('is 1 while it runs a job and 0 when idle (it shows no queue beyond that)', async () => {
    const double = await startA1111Double({ manual: true });
    try {
      const backend = backendFor(double);
      expect(await backend.serverQueue!()).toBe(0);
      const running = backend.generate('sd', { prompt: 'x', steps: 2 });
      await double.waitFor('started');
      expect(await backend.serverQueue!()).toBe(1);
      double.step(2);
      await running;
      expect(await backend.serverQueue!()).toBe(0);
    } finally {
      await double.close();
    }
  });
});
