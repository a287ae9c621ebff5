/**
 * A prompt that arrives by wire is judged like a typed one once its value is known: over the
 * engine's token limit, the estimate says the node would fail, and a run sends nothing for it.
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { createMemoryCache } from '../../workers/cache';
import { estimateRun } from '../../workers/estimate';
import { createExecutor } from '../../workers/executor';
import type { Workflow } from '../../workflow/schema';
import { fakeChatClient, fakeImageClient, testSettings } from './fakes';

const words = (n: number) => Array.from({ length: n }, () => 'fox').join(' ');

const flow = (text: string): Workflow => ({
  format: 'atelier.workflow', version: 1,
  metadata: { title: 'wired', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
  nodes: [
    { id: 'words', type: 'text', position: { x: 0, y: 0 }, params: { text } },
    { id: 'xl', type: 'text-to-image', position: { x: 300, y: 0 }, params: { engine: 'sdxl', seed: 1 } },
    { id: 'v15', type: 'text-to-image', position: { x: 300, y: 400 }, params: { engine: 'sd', seed: 1 } },
  ],
  edges: [
    { id: 'a', source: { node: 'words', port: 'text' }, target: { node: 'xl', port: 'prompt' } },
    { id: 'b', source: { node: 'words', port: 'text' }, target: { node: 'v15', port: 'prompt' } },
  ],
});

describe('a prompt arriving by wire', () => {
  it('over the SDXL limit (77) but within SD 1.5 (231): the estimate says the SDXL node would fail, and why', async () => {
    const result = await estimateRun(flow(words(120)), registry, { mode: 'all' }, { cache: createMemoryCache(), settings: testSettings });
    if (!result.ok) throw new Error('expected an estimate');
    const xl = result.nodes.find((n) => n.nodeId === 'xl')!;
    expect(xl.status).toBe('fails');
    expect(xl.reason).toMatch(/Prompt: .*over the SDXL limit of 77/);
    expect(result.nodes.find((n) => n.nodeId === 'v15')!.status).toBe('runs');
    expect(result.totals.imageCalls).toBe(1);
  });

  it('a run sends nothing for the node over the limit, fails it naming the field, and runs the other', async () => {
    const image = fakeImageClient();
    const executor = createExecutor({ registry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings });
    const summary = await executor.run(flow(words(120)));
    expect(image.calls.map((c) => c.engine)).toEqual(['sd']);
    expect(summary.failures).toHaveLength(1);
    expect(summary.failures[0]).toMatchObject({ nodeId: 'xl', error: { field: 'prompt' } });
    expect(summary.failures[0]!.error.message).toContain('over the SDXL limit of 77');
  });

  it('within the limit runs as before', async () => {
    const result = await estimateRun(flow(words(20)), registry, { mode: 'all' }, { cache: createMemoryCache(), settings: testSettings });
    expect(result.ok && result.nodes.map((n) => n.status)).toEqual(['runs', 'runs', 'runs']);
  });

  it('empty or blank stops the node before it sends (the estimate says so); a typed empty prompt is still sent', async () => {
    for (const text of ['', '  \n ']) {
      const image = fakeImageClient();
      const executor = createExecutor({ registry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings });
      const summary = await executor.run(flow(text));
      expect(image.calls).toEqual([]);
      expect(summary.failures.map((f) => f.nodeId)).toEqual(['xl', 'v15']);
      const what = text === '' ? 'an empty text' : 'a blank text';
      expect(summary.failures[0]!.error).toEqual({ port: 'prompt', message: `input 'Prompt' got ${what} from 'words': the engine gets no prompt to follow, so nothing was sent` });
    }
    const estimate = await estimateRun(flow(''), registry, { mode: 'all' }, { cache: createMemoryCache(), settings: testSettings });
    expect(estimate.ok && estimate.nodes.map((n) => n.status)).toEqual(['runs', 'fails', 'fails']);

    const typed: Workflow = { ...flow('x'), nodes: [{ id: 'xl', type: 'text-to-image', position: { x: 0, y: 0 }, params: { engine: 'sdxl', seed: 1, prompt: '' } }], edges: [] };
    const image = fakeImageClient();
    const summary = await createExecutor({ registry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings }).run(typed);
    expect(summary.status).toBe('succeeded');
    expect(image.calls.map((c) => c.request.prompt)).toEqual(['']);
  });
});
