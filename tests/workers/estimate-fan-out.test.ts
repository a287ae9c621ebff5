/** The cost estimate of a fan-out: every item counted, each looked up in the cache by its own key. */
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { createMemoryCache } from '../../workers/cache';
import { estimateRun, type NodeEstimate, type RunEstimate } from '../../workers/estimate';
import { createExecutor } from '../../workers/executor';
import type { Workflow } from '../../workflow/schema';
import { fakeChatClient, fakeImageClient, testSettings, workflow } from './fakes';

function setup() {
  const cache = createMemoryCache();
  const image = fakeImageClient();
  const executor = createExecutor({ registry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings, cache, cacheScope: 'local' });
  const estimate = async (wf: Workflow) => {
    const result = await estimateRun(wf, registry, { mode: 'all' }, { cache, settings: testSettings, cacheScope: 'local' });
    if (!result.ok) throw new Error(`invalid: ${JSON.stringify(result.problems)}`);
    return result;
  };
  return { image, executor, estimate };
}

const byId = (estimate: Extract<RunEstimate, { ok: true }>) => Object.fromEntries(estimate.nodes.map((n) => [n.nodeId, n])) as Record<string, NodeEstimate>;

/** Three subjects, split by line, drawn with a premium sampler, then a contact sheet. */
const shotList = (text: string) => workflow(
  [
    ['list', 'text', { text }], ['split', 'split-text'], ['draw', 'text-to-image', { seed: 4, sampler: 'HEUN' }],
    ['sheet', 'contact-sheet'], ['show', 'preview'],
  ],
  ['list.text -> split.text', 'split.items -> draw.prompt', 'draw.image -> sheet.images', 'split.items -> sheet.captions', 'sheet.image -> show.value'],
);

describe('estimateRun: fan-out', () => {
  it('counts every item of a list known before the run', async () => {
    const { estimate, image } = setup();
    const result = await estimate(shotList('a fox\na heron\nan owl'));
    const n = byId(result);
    expect(n.draw).toMatchObject({ status: 'runs', items: 3, itemsDescription: '3', cachedItems: 0, apiCalls: 3, imageCalls: 3, images: 3, priceUnits: 6 });
    expect(n.sheet).toMatchObject({ status: 'runs', apiCalls: 0, unknownUntilUpstreamRuns: true });
    expect(result.totals).toMatchObject({ apiCalls: 3, images: 3, priceUnits: 6, fanOut: { nodes: 1, items: 3, unknownNodes: 0 } });
    expect(image.calls).toHaveLength(0);
  });

  it('finds each item in the cache by its own key: one line edited costs one image', async () => {
    const { estimate, executor, image } = setup();
    await executor.run(shotList('a fox\na heron\nan owl'), { mode: 'all' });
    expect(image.calls).toHaveLength(3);
    expect(byId(await estimate(shotList('a fox\na heron\nan owl'))).draw).toMatchObject({ status: 'cached', cached: true, items: 3, cachedItems: 3, apiCallsSaved: 3 });
    const edited = byId(await estimate(shotList('a fox\na crane\nan owl')));
    expect(edited.draw).toMatchObject({ status: 'runs', items: 3, cachedItems: 2, apiCalls: 1, images: 1, priceUnits: 2, apiCallsSaved: 2 });
  });

  it('shows the cross product before the run: 3 × 2 = 6 images', async () => {
    const { estimate } = setup();
    const wf = workflow(
      [['s', 'text', { text: 'fox\nowl\nheron' }], ['ss', 'split-text'], ['t', 'text', { text: 'ink|oil' }], ['ts', 'split-text', { mode: 'separator', separator: '|' }], ['d', 'text-to-image', { seed: 1 }]],
      ['s.text -> ss.text', 't.text -> ts.text', 'ss.items -> d.prompt', 'ts.items -> d.negative_prompt'],
    );
    wf.nodes[4]!.fanOut = 'cross';
    expect(byId(await estimate(wf)).d).toMatchObject({ items: 6, itemsDescription: '3 × 2 = 6', images: 6 });
    delete wf.nodes[4]!.fanOut;
    expect(byId(await estimate(wf)).d).toMatchObject({ status: 'fails', reason: expect.stringContaining("'Prompt' has 3, 'Negative prompt' has 2") as unknown });
  });

  it('flags a node fed by a list that exists only once the chat has answered, counting it once', async () => {
    const { estimate } = setup();
    const wf = workflow([['chat', 'chat-prompt-writer', { answer_as: 'lines' }], ['draw', 'text-to-image', { seed: 1 }]], ['chat.items -> draw.prompt']);
    const result = await estimate(wf);
    expect(byId(result).draw).toMatchObject({ status: 'runs', fansOut: true, unknownUntilUpstreamRuns: true, imageCalls: 1 });
    expect(result.totals.fanOut).toEqual({ nodes: 1, items: 0, unknownNodes: 1 });
  });
});
