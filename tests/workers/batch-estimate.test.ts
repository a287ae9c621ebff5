import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { batchTotals, laterRuns } from '../../workers/batch-estimate';
import { createMemoryCache } from '../../workers/cache';
import { estimateRun } from '../../workers/estimate';
import { createExecutor } from '../../workers/executor';
import type { Workflow } from '../../workflow/schema';
import { fakeChatClient, fakeImageClient, testSettings, workflow } from './fakes';

async function estimate(doc: Workflow, cache = createMemoryCache()) {
  const result = await estimateRun(doc, registry, { mode: 'all' }, { cache, settings: testSettings });
  if (!result.ok) throw new Error(`not runnable: ${JSON.stringify(result.problems)}`);
  return result;
}

/** Two branches: one whose seed moves on (with a restyle after it), one whose seed stays. */
const twoBranches = () => workflow([
  ['moving', 'text-to-image', { prompt: 'a kite', seed: 1, seed_mode: 'increment', num_images: 2, sampler: 'KLMS' }],
  ['after', 'image-to-image', { prompt: 'as ink', seed: 9 }],
  ['still', 'text-to-image', { prompt: 'a boat', seed: 3, num_images: 3 }],
], ['moving.image -> after.image']);

describe('the cost of a batch', () => {
  it('adds, for each run after the first, only what changes between runs and what follows it', async () => {
    const doc = twoBranches();
    const first = await estimate(doc);
    expect(first.totals).toMatchObject({ apiCalls: 3, images: 6, priceUnits: 8 });

    const batch = batchTotals(first.totals, first.nodes, doc, registry, 4);

    // moving: 2 premium images (4 units); after: 1 image; still: from the cache after the first run.
    expect(batch.perLaterRun).toEqual({ apiCalls: 2, imageCalls: 2, chatCalls: 0, images: 3, priceUnits: 5 });
    expect(batch.rerun).toEqual(['moving', 'after']);
    expect(batch).toMatchObject({ runs: 4, apiCalls: 3 + 3 * 2, images: 6 + 3 * 3, priceUnits: 8 + 3 * 5 });
    expect(batchTotals(first.totals, first.nodes, doc, registry, 1)).toMatchObject({ apiCalls: 3, images: 6, priceUnits: 8 });
    // What the worker's estimate carries for the editor's count beside Run.
    expect(laterRuns(first, doc, registry)).toEqual({ perLaterRun: batch.perLaterRun, rerun: batch.rerun });
  });

  it('counts a node the cache answers today at its full price in the runs that re-make it', async () => {
    const doc = twoBranches();
    const cache = createMemoryCache();
    const executor = createExecutor({
      registry,
      api: { image: fakeImageClient().client, chat: fakeChatClient().client },
      settings: testSettings,
      cache,
    });
    expect((await executor.run(doc)).status).toBe('succeeded');
    const first = await estimate(doc, cache);
    expect(first.totals).toMatchObject({ apiCalls: 0, cachedNodes: 3 });

    const batch = batchTotals(first.totals, first.nodes, doc, registry, 3);
    expect(batch).toMatchObject({ apiCalls: 4, images: 6, priceUnits: 10 });
  });

  it('re-makes a node with an empty seed (a new random one each run) and everything after it', async () => {
    const doc = workflow([
      ['chat', 'chat-prompt-writer', { user: 'a prompt please', max_tokens: 20 }],
      ['draw', 'text-to-image', { seed: null }],
    ], ['chat.text -> draw.prompt']);
    const first = await estimate(doc);
    const batch = batchTotals(first.totals, first.nodes, doc, registry, 2);
    expect(batch.rerun).toEqual(['draw']);
    expect(batch).toMatchObject({ apiCalls: 3, chatCalls: 1, imageCalls: 2, images: 2 });
  });
});
