import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startComfyDouble, type ComfyDouble } from '../../helpers/doubles/comfyui';
import { caught, comfyOn } from './helpers';

let comfy: ComfyDouble;
beforeEach(async () => { comfy = await startComfyDouble(); });
afterEach(async () => { await comfy.close(); });

/** Another client's prompt that keeps ComfyUI busy until the test releases it. */
async function blockingPrompt(): Promise<string> {
  comfy.hold();
  const other = comfyOn(comfy, { WebSocket: undefined });
  void other.generate('sd', { prompt: 'someone else', steps: 2, seed: 1 }).catch(() => undefined);
  await comfy.until(() => comfy.waiting() !== undefined);
  return comfy.waiting()!.promptId;
}

describe('ComfyUI cancel', () => {
  for (const mode of ['WebSocket', 'polling'] as const) {
    it(`interrupts a running prompt by its id (${mode})`, async () => {
      comfy.hold(3);
      const controller = new AbortController();
      const steps: string[] = [];
      const backend = comfyOn(comfy, mode === 'polling' ? { WebSocket: undefined } : {});
      const run = backend.generate('sdxl', { prompt: 'x', steps: 10, seed: 1 }, { signal: controller.signal, onProgress: (_f, m) => steps.push(m ?? '') });
      await comfy.until(() => comfy.waiting()?.step === 3);
      const promptId = comfy.waiting()!.promptId;
      controller.abort();
      const error = await caught(run);
      expect(error).toMatchObject({ kind: 'aborted', retryable: false, detail: 'cancelled' });
      expect(comfy.received.interrupts).toEqual([promptId]);
      expect(comfy.received.deleted).toEqual([promptId]);
      await comfy.until(() => comfy.history.has(promptId));
      const messages = comfy.history.get(promptId)!.status.messages.map(([event]) => event);
      expect(messages).toContain('execution_interrupted');
      if (mode === 'WebSocket') expect(steps).toContain('step 2 of 10');
    });
  }

  it('takes a prompt still waiting in the queue out of it, and interrupts nothing', async () => {
    const blocker = await blockingPrompt();
    const controller = new AbortController();
    const run = comfyOn(comfy).generate('sd', { prompt: 'mine', steps: 2, seed: 2 }, { signal: controller.signal });
    await comfy.until(() => comfy.queue().pending.length === 1);
    const mine = comfy.queue().pending[0]!.promptId;
    controller.abort();
    const error = await caught(run);
    expect(error.kind).toBe('aborted');
    expect(comfy.received.deleted).toEqual([mine]);
    expect(comfy.received.interrupts).toEqual([]);
    expect(comfy.queue().pending).toEqual([]);
    expect(comfy.queue().running?.promptId).toBe(blocker);
    comfy.release();
    await comfy.until(() => comfy.history.has(blocker));
    expect(comfy.history.has(mine)).toBe(false);
  });

  it('reports a prompt that waits behind others, when polling', async () => {
    await blockingPrompt();
    const messages: string[] = [];
    const run = comfyOn(comfy, { WebSocket: undefined }).generate('sd', { prompt: 'mine', steps: 1, seed: 2 }, { onProgress: (_f, m) => messages.push(m ?? '') });
    await comfy.until(() => comfy.queue().pending.length === 1);
    // Released once the client has seen it waiting (its poll may come a moment after the queueing).
    await comfy.until(() => messages.includes("waiting in ComfyUI's queue (1 ahead)"));
    comfy.release();
    await run;
  });

  it('says so when the prompt is deleted in ComfyUI itself', async () => {
    await blockingPrompt();
    const run = comfyOn(comfy, { WebSocket: undefined }).generate('sd', { prompt: 'mine', steps: 1, seed: 2 });
    await comfy.until(() => comfy.queue().pending.length === 1);
    await fetch(`${comfy.url}/queue`, { method: 'POST', body: JSON.stringify({ clear: true }) });
    const error = await caught(run);
    expect(error.detail).toBe("the prompt left ComfyUI's queue without a result: it was deleted there, or ComfyUI restarted");
    comfy.release();
  });

  it('says so when the run is interrupted from ComfyUI itself', async () => {
    comfy.hold(2);
    const run = comfyOn(comfy).generate('sd', { prompt: 'mine', steps: 4, seed: 2 });
    await comfy.until(() => comfy.waiting()?.step === 2);
    await fetch(`${comfy.url}/interrupt`, { method: 'POST' });
    const error = await caught(run);
    expect(error.detail).toContain('ComfyUI stopped the run: it was interrupted there');
  });
});
