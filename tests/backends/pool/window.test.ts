/**
 * A pool sends each server at most its window of requests (two by default: one running, one
 * queued behind it); the rest wait in the pool and go to whichever server frees first, so a fast
 * server takes more of a fan-out than a slow one and a cancel reaches waiting requests unsent.
 */
import { describe, expect, it } from 'vitest';
import { createPoolBackend, type PoolMember } from '../../../api/backends/pool/index';
import type { ImageBackend, ImageCallOptions } from '../../../api/backends/types';
import { ApiError } from '../../../api/errors';
import type { ImageRequest } from '../../../api/image-schema';

/** A server whose requests end only when the test finishes them, one by one in order. */
function heldServer(label: string) {
  const open: { prompt: string; finish: () => void }[] = [];
  const received: string[] = [];
  const backend: ImageBackend = {
    kind: 'comfyui',
    label: 'ComfyUI',
    reportsAcceptance: true,
    review: () => ({ backend: 'comfyui', label: 'ComfyUI', refusals: [], notes: [], translated: undefined }),
    generate(_engine, request: ImageRequest, options: ImageCallOptions = {}) {
      options.onSending?.();
      received.push(request.prompt);
      options.onAccepted?.();
      return new Promise((resolve) => open.push({ prompt: request.prompt, finish: () => resolve({ images: [{ image_b64: 'AAAA', seed: 1 }] }) }));
    },
  };
  return {
    member: { label, backend } satisfies PoolMember,
    received,
    open: () => open.length,
    /** Ends the oldest open request and lets the pool react. */
    async finishOne() {
      open.shift()?.finish();
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    },
  };
}

const request = (prompt: string): ImageRequest => ({ prompt }) as ImageRequest;
const settle = async () => { for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0)); };

describe('a pool window', () => {
  it('sends each server two at a time and gives the rest to whichever frees first', async () => {
    const fast = heldServer('fast');
    const slow = heldServer('slow');
    const pool = createPoolBackend([fast.member, slow.member]);
    const all = Array.from({ length: 10 }, (_, i) => pool.generate('sdxl', request(`p${i}`)));
    await settle();
    expect([fast.open(), slow.open()]).toEqual([2, 2]);
    expect(pool.status().map((s) => s.inFlight)).toEqual([2, 2]);
    // Only the fast server finishes: the waiting requests go to it, in the order they came.
    for (let i = 0; i < 6; i++) await fast.finishOne();
    expect(fast.received).toEqual(['p0', 'p2', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9']);
    expect(slow.received).toEqual(['p1', 'p3']);
    while (fast.open() > 0) await fast.finishOne();
    while (slow.open() > 0) await slow.finishOne();
    expect((await Promise.all(all)).map((r) => r.server)).toEqual(['fast', 'slow', 'fast', 'slow', 'fast', 'fast', 'fast', 'fast', 'fast', 'fast']);
  });

  it('a request cancelled while it waits for room is never sent', async () => {
    const only = heldServer('only');
    const pool = createPoolBackend([only.member], { window: 1 });
    const first = pool.generate('sdxl', request('first'));
    const controller = new AbortController();
    const second = pool.generate('sdxl', request('second'), { signal: controller.signal });
    await settle();
    controller.abort();
    const failure = await second.catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).kind).toBe('aborted');
    await only.finishOne();
    await first;
    expect(only.received).toEqual(['first']);
    // The cancelled request left no place in the line behind it: the next one goes straight out.
    const third = pool.generate('sdxl', request('third'));
    await settle();
    expect(only.received).toEqual(['first', 'third']);
    await only.finishOne();
    await third;
  });
});
