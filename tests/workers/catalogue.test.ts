/**
 * The executor with the real node catalogue (nodes/index.ts) and fake API clients: the same
 * graph the editor and the CLI would run, without a server.
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { createExecutor } from '../../workers/executor';
import { planRun } from '../../workers/plan';
import { eventLog, fakeChatClient, fakeImageClient, testSettings, workflow } from './fakes';

const pipeline = workflow(
  [
    ['t', 'text', { text: 'a lighthouse at dusk' }],
    ['g', 'text-to-image', { seed: 42, engine: 'sd' }],
    ['i', 'image-to-image', { prompt: 'as an oil painting', seed: 7, strength: 0.4, engine: 'sd' }],
    ['p', 'preview'],
  ],
  ['t.text -> g.prompt', 'g.image -> i.image', 'i.image -> p.value'],
);

describe('executor with the node catalogue', () => {
  it('runs text → text to image → image to image → preview, then serves it all from the cache', async () => {
    const image = fakeImageClient();
    const executor = createExecutor({ registry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings });
    const log = eventLog();
    const first = await executor.run(pipeline, { mode: 'all', onEvent: log.onEvent });
    expect(first.failures).toEqual([]);
    expect(first).toMatchObject({ status: 'succeeded', apiCalls: 2 });
    expect(image.calls.map((c) => [c.engine, c.request.prompt])).toEqual([['sd', 'a lighthouse at dusk'], ['sd', 'as an oil painting']]);
    // The image went on as the same base64 it arrived as.
    const generated = log.events.find((e) => e.type === 'node-done' && e.nodeId === 'g');
    const b64 = generated?.type === 'node-done' && generated.outputs.image?.kind === 'image' ? generated.outputs.image.value.b64 : '';
    expect(image.calls[1]!.request.init_image).toBe(b64);
    expect(log.events.find((e) => e.type === 'node-done' && e.nodeId === 'p')).toMatchObject({ outputs: { shown: { kind: 'image' } } });

    const second = await executor.run(structuredClone(pipeline));
    expect(second).toMatchObject({ status: 'succeeded', apiCalls: 0, apiCallsSaved: 2, nodes: { cached: 4 } });
    expect(image.calls).toHaveLength(2);
  });

  it('checks a prompt that arrives through a port against the engine before sending it', async () => {
    const image = fakeImageClient();
    const executor = createExecutor({ registry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings });
    const wf = structuredClone(pipeline);
    wf.nodes[0]!.params = { text: Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ') };
    const summary = await executor.run(wf);
    expect(summary.failures).toEqual([{ nodeId: 'g', error: expect.objectContaining({ field: 'prompt' }) as unknown }]);
    expect(summary.failures[0]!.error.message).toMatch(/prompt: .*token/i);
    expect(summary.nodes).toMatchObject({ failed: 1, skipped: 2 });
    expect(image.calls).toHaveLength(0);
  });

  it('lists parameter problems from the API rules before anything is sent', () => {
    const wf = structuredClone(pipeline);
    wf.nodes[1]!.params = { seed: 42, engine: 'sd', width: 1024, height: 1024, steps: 0 };
    const result = planRun(wf, registry);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.filter((p) => p.nodeId === 'g').map((p) => p.field).sort()).toEqual(expect.arrayContaining(['steps']));
  });
});
