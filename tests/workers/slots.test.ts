import { describe, expect, it } from 'vitest';
import { createSlots } from '../../workers/slots';

describe('slots', () => {
  it('holds at most the limit at once and serves waiters first come, first served', async () => {
    const slots = createSlots(2, new AbortController().signal);
    const order: number[] = [];
    const a = (await slots.acquire())!;
    const b = (await slots.acquire())!;
    const waiting = [3, 4, 5].map((n) => slots.acquire().then((release) => {
      order.push(n);
      return release!;
    }));
    await Promise.resolve();
    expect(order).toEqual([]);
    a();
    a(); // giving a slot back twice frees it once
    const third = await waiting[0]!;
    expect(order).toEqual([3]);
    b();
    third();
    await Promise.all(waiting.slice(1));
    expect(order).toEqual([3, 4, 5]);
  });

  it('lets every waiter go when the run aborts, listening to the signal once however many wait', async () => {
    const controller = new AbortController();
    let listeners = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof add;
    const slots = createSlots(1, controller.signal);
    await slots.acquire();
    const waiters = Array.from({ length: 64 }, () => slots.acquire());
    expect(listeners).toBe(1);
    controller.abort();
    expect(await Promise.all(waiters)).toEqual(Array.from({ length: 64 }, () => undefined));
    expect(await slots.acquire()).toBeUndefined();
  });

  it('runs one at a time when the limit is not a number', async () => {
    const slots = createSlots(Number.NaN, new AbortController().signal);
    expect(await slots.acquire()).toBeTypeOf('function');
    let second = false;
    void slots.acquire().then(() => { second = true; });
    await Promise.resolve();
    expect(second).toBe(false);
  });
});
