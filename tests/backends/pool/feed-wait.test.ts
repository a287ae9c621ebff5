/**
 * A pool waits for its servers' first answers (what they hold, their queues) before placing, but
 * never again: later readings are taken while requests go on what was known, so one server slow to
 * say how long its queue is does not hold up every request of a fan-out on every server.
 */
import { describe, expect, it } from 'vitest';
import { createPoolBackend } from '../../../api/backends/pool/index';
import type { ImageBackend } from '../../../api/backends/types';
import type { ImageRequest } from '../../../api/image-schema';

/** A server whose `serverQueue` answers only when the test says, counting the times it was asked. */
function slowToSay(label: string) {
  const answers: ((length: number) => void)[] = [];
  const made: string[] = [];
  const backend: ImageBackend = {
    kind: 'comfyui',
    label: 'ComfyUI',
    reportsAcceptance: true,
    review: () => ({ backend: 'comfyui', label: 'ComfyUI', refusals: [], notes: [], translated: undefined }),
    generate(_engine, request: ImageRequest) {
      made.push(request.prompt);
      return Promise.resolve({ images: [{ image_b64: 'AAAA', seed: 1 }] });
    },
    serverQueue: () => new Promise<number>((resolve) => answers.push(resolve)),
    listNames: () => Promise.resolve({}),
  };
  return { member: { label, backend }, made, asked: () => answers.length, answer: (n: number) => { for (const a of answers.splice(0)) a(n); } };
}

const request = (prompt: string): ImageRequest => ({ prompt }) as ImageRequest;
const settle = async () => { for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0)); };

describe('a pool fed by its servers', () => {
  it('waits for the first reading only; a later one that is slow to come holds nothing up', async () => {
    let t = 0;
    const desk = slowToSay('desk');
    const rack = slowToSay('rack');
    const pool = createPoolBackend([desk.member, rack.member], { feed: true, now: () => t });
    const first = pool.generate('sdxl', request('first'));
    await settle();
    // Nothing is known yet: the request waits for both queues.
    expect(desk.made).toEqual([]);
    desk.answer(0);
    rack.answer(0);
    await first;
    expect(desk.made).toEqual(['first']);
    t += 10_000;
    // The queues are stale and asked again; the servers take their time, the requests do not wait.
    const later = await Promise.all([pool.generate('sdxl', request('a')), pool.generate('sdxl', request('b'))]);
    expect(later.map((r) => r.server)).toEqual(['desk', 'rack']);
    expect([desk.asked(), rack.asked()]).toEqual([1, 1]);
    desk.answer(3);
    rack.answer(0);
    await settle();
    expect(pool.status().map((s) => s.queued)).toEqual([3, 0]);
    pool.close();
  });
});
