/**
 * A pool of four ComfyUI doubles, each with a fixed time per image, under a 64-request fan-out
 * (64 concurrent generate calls, as the executor's fan-out makes them): every server takes a fair
 * share and nothing runs twice. Then one server dies mid-run: what it had accepted fails naming
 * it, what it had not finishes on the others, and still no prompt reaches two servers. Behaviour
 * and counts only: no timing is asserted (a loaded machine).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createBackend } from '../../../api/backends/index';
import type { PoolBackend, PoolResponse } from '../../../api/backends/pool/index';
import { ApiError } from '../../../api/errors';
import { startComfyDouble, type ComfyDouble } from '../../helpers/doubles/comfyui';
import { NAMES, NodeWebSocket } from '../comfyui/helpers';

const SERVERS = 4;
const ITEMS = 64;
const MS_PER_IMAGE = 20;

const doubles: ComfyDouble[] = [];
let pool: PoolBackend | undefined;
afterEach(async () => {
  pool?.close();
  pool = undefined;
  await Promise.all(doubles.splice(0).map((d) => d.close()));
});

async function fourDoubles(): Promise<PoolBackend> {
  for (let i = 0; i < SERVERS; i++) doubles.push(await startComfyDouble({ msPerImage: MS_PER_IMAGE }));
  pool = await createBackend({
    config: { kind: 'comfyui', baseUrl: doubles[0]!.url, baseUrls: doubles.map((d, i) => ({ label: `gpu${i + 1}`, url: d.url })), names: NAMES },
  }, { WebSocket: NodeWebSocket, retry: { maxAttempts: 1 } }) as PoolBackend;
  return pool;
}

/** The fan-out item each prompt a double received came from, read from its positive prompt text. */
function itemsAt(double: ComfyDouble): number[] {
  return double.received.prompts.map((p) => {
    const found = /item-(\d+)-of-fan-out/.exec(JSON.stringify(p.prompt));
    if (found === null) throw new Error('a prompt without its fan-out item');
    return Number(found[1]);
  });
}

const generate = (p: PoolBackend, item: number): Promise<PoolResponse> =>
  p.generate('sdxl', { prompt: `item-${item}-of-fan-out`, steps: 2, seed: item + 1 });

const everyItem = Array.from({ length: ITEMS }, (_, i) => i);

describe('a pool of four ComfyUI doubles under a 64-item fan-out', () => {
  it('uses every server for a fair share and sends each item once', async () => {
    const p = await fourDoubles();
    const made = await Promise.all(everyItem.map((i) => generate(p, i)));
    const perServer = doubles.map((d) => d.received.prompts.length);
    for (const n of perServer) {
      expect(n).toBeGreaterThanOrEqual(12);
      expect(n).toBeLessThanOrEqual(20);
    }
    expect(perServer.reduce((a, b) => a + b, 0)).toBe(ITEMS);
    expect(doubles.flatMap(itemsAt).sort((a, b) => a - b)).toEqual(everyItem);
    // Each answer names the server that ran it, and that server received exactly that item.
    made.forEach((r, i) => {
      expect(r.images).toHaveLength(1);
      expect(itemsAt(doubles[Number(r.server.slice(3)) - 1]!)).toContain(i);
    });
  }, 60_000);

  it('when a server dies mid-run, fails what it accepted (naming it) and runs the rest elsewhere, none twice', async () => {
    const p = await fourDoubles();
    const dying = doubles[0]!;
    dying.hold();
    // The first half goes out; the dying server accepts its share and holds it.
    const first = everyItem.slice(0, ITEMS / 2).map((i) => generate(p, i).then((r) => r, (e: unknown) => e));
    await dying.until(() => dying.waiting() !== undefined && p.status()[0]!.inFlight > 0 && dying.received.prompts.length === p.status()[0]!.inFlight);
    const accepted = itemsAt(dying);
    await dying.close();
    // The second half goes out with the dead server not yet known down: it is refused there and placed again.
    const second = everyItem.slice(ITEMS / 2).map((i) => generate(p, i).then((r) => r, (e: unknown) => e));
    const outcomes = await Promise.all([...first, ...second]);

    expect(accepted.length).toBeGreaterThan(0);
    outcomes.forEach((outcome, i) => {
      if (accepted.includes(i)) {
        expect(outcome).toBeInstanceOf(ApiError);
        expect((outcome as ApiError).message).toContain('gpu1');
        // By its label only: the dead server's address is in none of what the error says.
        expect(JSON.stringify({ ...(outcome as ApiError).toJSON(), detail: (outcome as ApiError).detail })).not.toContain(new URL(dying.url).host);
      } else {
        expect(outcome).not.toBeInstanceOf(Error);
        expect((outcome as PoolResponse).server).not.toBe('gpu1');
      }
    });
    // Every item reached exactly one server: the dead one's accepted items and none of the others twice.
    expect(itemsAt(dying)).toEqual(accepted);
    const posts = doubles.reduce((n, d) => n + d.received.requests.filter((r) => r.method === 'POST' && /^(\/api)?\/prompt$/.test(r.path)).length, 0);
    expect(posts).toBe(ITEMS);
    expect(doubles.flatMap(itemsAt).sort((a, b) => a - b)).toEqual(everyItem);
  }, 60_000);
});
