/**
 * Progress and cancel against a double whose generation steps only when the test says so: every
 * wait is on an event (a step taken, a progress reported, an interrupt received), never a clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isApiError } from '../../../api/errors';
import { startA1111Double, type A1111Double } from '../../helpers/doubles/a1111';
import { backendFor } from './fixtures';

let double: A1111Double;
afterEach(async () => { await double.close(); });

/** Progress reports, and a way to wait for one that matches. */
function progressLog() {
  const seen: { fraction: number; message?: string }[] = [];
  const waiting: { match: (message?: string) => boolean; resolve: () => void }[] = [];
  return {
    seen,
    onProgress(fraction: number, message?: string) {
      seen.push({ fraction, message });
      for (const w of [...waiting]) if (w.match(message)) { waiting.splice(waiting.indexOf(w), 1); w.resolve(); }
    },
    until(message: string) {
      if (seen.some((s) => s.message === message)) return Promise.resolve();
      return new Promise<void>((resolve) => waiting.push({ match: (m) => m === message, resolve }));
    },
  };
}

describe('progress and cancel', () => {
  it('reports each step as the server takes it, polling without the live preview', async () => {
    double = await startA1111Double({ manual: true });
    const log = progressLog();
    const running = backendFor(double, { progressIntervalMs: 2 }).generate('sd', { prompt: 'x', steps: 4 }, { onProgress: log.onProgress });
    await double.waitFor('started');
    for (let step = 1; step <= 3; step++) {
      double.step();
      await log.until(`step ${step} of 4`);
    }
    double.step();
    const result = await running;
    expect(result.images).toHaveLength(1);
    const steps = log.seen.map((s) => Number(/^step (\d) of 4$/.exec(s.message ?? '')?.[1]));
    expect(steps).toEqual([...steps].sort());
    expect(steps).toEqual(expect.arrayContaining([1, 2, 3]));
    expect(log.seen.find((s) => s.message === 'step 2 of 4')?.fraction).toBeCloseTo(0.51, 5);
    const polls = double.events.flatMap((e) => (e.type === 'request' && e.path === '/sdapi/v1/progress' ? [e] : []));
    expect(polls.length).toBeGreaterThan(0);
    expect(new Set(polls.map((p) => p.query))).toEqual(new Set(['?skip_current_image=true']));
  });

  it('cancel interrupts the server and aborts the request; the server ends its run early', async () => {
    double = await startA1111Double({ manual: true });
    const controller = new AbortController();
    const running = backendFor(double).generate('sdxl', { prompt: 'x', steps: 30 }, { signal: controller.signal });
    await double.waitFor('started');
    double.step(2);
    await double.waitFor('step', (e) => e.step === 2);
    controller.abort();
    const error = await running.then(() => undefined, (e: unknown) => e);
    expect(isApiError(error) && error.kind).toBe('aborted');
    await double.waitFor('interrupt');
    const finished = await double.waitFor('finished');
    expect(finished.generation).toMatchObject({ interrupted: true, stepsDone: 2, steps: 30 });
  });

  it('the double, like AUTOMATIC1111, answers an interrupted run with the images so far', async () => {
    double = await startA1111Double({ manual: true });
    const answer = fetch(`${double.url}/sdapi/v1/txt2img`, { method: 'POST', body: JSON.stringify({ prompt: 'x', steps: 10, batch_size: 2 }) });
    await double.waitFor('started');
    double.step(3);
    await double.waitFor('step', (e) => e.step === 3);
    await fetch(`${double.url}/sdapi/v1/interrupt`, { method: 'POST' });
    const response = await answer;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { images: string[] }).images).toHaveLength(2);
    expect(double.generations[0]).toMatchObject({ interrupted: true, stepsDone: 3 });
  });

  it('a cancel before anything is sent sends nothing, not even an interrupt', async () => {
    double = await startA1111Double({ manual: true });
    const controller = new AbortController();
    controller.abort();
    const error = await backendFor(double).generate('sdxl', { prompt: 'x' }, { signal: controller.signal }).then(() => undefined, (e: unknown) => e);
    expect(isApiError(error) && error.kind).toBe('aborted');
    expect(double.events.filter((e) => e.type === 'request' && e.method === 'POST')).toEqual([]);
  });
});

describe('listNames', () => {
  it('asks the server what it has', async () => {
    double = await startA1111Double({
      vaes: ['sdxl_vae.safetensors'], loras: [{ name: 'detail_tweaker', alias: 'detail' }],
      embeddings: { loaded: ['easynegative'], skipped: ['sdxl_neg'] }, controlnetModels: ['diffusers_xl_canny_full [2b69fca4]'],
    });
    const names = await backendFor(double).listNames!();
    expect(names).toMatchObject({
      checkpoints: ['sd_xl_base_1.0.safetensors', 'sd_xl_refiner_1.0.safetensors', 'v1-5-pruned-emaonly.safetensors'],
      loras: ['detail_tweaker', 'detail'], vaes: ['sdxl_vae.safetensors'], embeddings: ['easynegative', 'sdxl_neg'],
      controlnets: ['diffusers_xl_canny_full [2b69fca4]'],
    });
    expect(names.samplers).toContain('DPM++ 2M');
  });

  it('leaves out what the server cannot say (no ControlNet extension)', async () => {
    double = await startA1111Double();
    const names = await backendFor(double).listNames!();
    expect(names.controlnets).toBeUndefined();
    expect(names.checkpoints).toHaveLength(3);
  });
});
