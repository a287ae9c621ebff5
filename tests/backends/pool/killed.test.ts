/**
 * Four ComfyUI doubles, each its own process as each GPU server is, under a 32-item fan-out; one
 * is killed (SIGKILL) mid-run with work accepted. What it had accepted fails naming it by label;
 * everything else finishes on the other three; the prompts the doubles received add up to the
 * items exactly, so nothing ran twice. Counts only, no timing (a loaded machine).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createBackend } from '../../../api/backends/index';
import type { PoolBackend, PoolResponse } from '../../../api/backends/pool/index';
import { ApiError } from '../../../api/errors';
import { startComfyDoubleProcess, type ComfyDoubleProcess } from '../../helpers/doubles/comfyui-process';
import { NAMES, NodeWebSocket } from '../comfyui/helpers';

const ITEMS = 32;
let doubles: ComfyDoubleProcess[] = [];
let pool: PoolBackend | undefined;
afterEach(async () => {
  pool?.close();
  pool = undefined;
  await Promise.all(doubles.splice(0).map((d) => d.close()));
});

/** Resolves once `predicate` holds, asking again every 50 ms (the answer never depends on when). */
async function until(predicate: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await predicate())) await new Promise((r) => setTimeout(r, 50));
}

describe('a pool whose server process is killed mid-run', () => {
  it('fails what that server accepted, naming it, and runs the rest on the others, none twice', async () => {
    // The first server is slow enough that what it accepts is still there when it dies.
    doubles = await Promise.all([10 * 60_000, 20, 20, 20].map((msPerImage) => startComfyDoubleProcess({ msPerImage })));
    pool = await createBackend({
      config: { kind: 'comfyui', baseUrl: doubles[0]!.url, baseUrls: doubles.map((d, i) => ({ label: `gpu${i + 1}`, url: d.url })), names: NAMES },
    }, { WebSocket: NodeWebSocket, retry: { maxAttempts: 1 } }) as PoolBackend;
    const p = pool;
    const dying = doubles[0]!;
    const outcomes = Array.from({ length: ITEMS }, (_, i) => p.generate('sdxl', { prompt: `item ${i}`, steps: 2, seed: i + 1 }).then((r) => r, (e: unknown) => e));
    await until(async () => (await dying.counts()).prompts > 0 && p.status()[0]!.inFlight > 0 && (await dying.counts()).prompts === p.status()[0]!.inFlight);
    const accepted = (await dying.counts()).prompts;
    await dying.kill();
    const settled = await Promise.all(outcomes);

    const failed = settled.filter((o) => o instanceof Error);
    expect(failed).toHaveLength(accepted);
    for (const failure of failed) {
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).detail).toMatch(/^on gpu1: /);
      expect((failure as ApiError).message).not.toContain(new URL(dying.url).host);
    }
    const made = settled.filter((o): o is PoolResponse => !(o instanceof Error));
    expect(made.every((r) => r.server !== 'gpu1' && r.images.length === 1)).toBe(true);
    // Every item reached one server only: the others' prompts and the dead one's add up to the items.
    const others = await Promise.all(doubles.slice(1).map((d) => d.counts()));
    expect(others.reduce((n, c) => n + c.prompts, 0) + accepted).toBe(ITEMS);
    expect(made).toHaveLength(ITEMS - accepted);
  }, 120_000);
});
