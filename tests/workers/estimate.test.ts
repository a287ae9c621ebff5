import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { createMemoryCache } from '../../workers/cache';
import { CHAT_NODE_TYPES, FREE_NODE_TYPES, IMAGE_NODE_TYPES } from '../../nodes/api-use';
import { estimateRun, type NodeEstimate, type RunEstimate } from '../../workers/estimate';
import { createExecutor } from '../../workers/executor';
import type { PlanOptions } from '../../workers/plan';
import type { Workflow } from '../../workflow/schema';
import { fakeChatClient, fakeImageClient, testSettings, workflow } from './fakes';

function setup() {
  const cache = createMemoryCache();
  const image = fakeImageClient();
  const chat = fakeChatClient();
  const executor = createExecutor({ registry, api: { image: image.client, chat: chat.client }, settings: testSettings, cache, cacheScope: 'local' });
  const estimate = async (wf: Workflow, options: PlanOptions = { mode: 'all' }) => {
    const result = await estimateRun(wf, registry, options, { cache, settings: testSettings, cacheScope: 'local' });
    if (!result.ok) throw new Error(`invalid: ${JSON.stringify(result.problems)}`);
    return result;
  };
  return { cache, image, chat, executor, estimate };
}

const byId = (estimate: Extract<RunEstimate, { ok: true }>) => Object.fromEntries(estimate.nodes.map((n) => [n.nodeId, n])) as Record<string, NodeEstimate>;

/** text → regular t2i (3 images) → preview; a premium t2i (2 images); chat (max 50 tokens) → t2i. */
function graph(overrides: { text?: string; regularSeed?: number | null } = {}) {
  return workflow(
    [
      ['prompt', 'text', { text: overrides.text ?? 'a harbour at dawn' }],
      ['regular', 'text-to-image', { seed: overrides.regularSeed === undefined ? 1 : overrides.regularSeed, num_images: 3, sampler: 'K_EULER' }],
      ['show', 'preview'],
      ['premium', 'text-to-image', { prompt: 'an owl', seed: 2, num_images: 2, sampler: 'HEUN' }],
      ['writer', 'chat-prompt-writer', { max_tokens: 50 }],
      ['drawn', 'text-to-image', { seed: 3 }],
    ],
    ['prompt.text -> regular.prompt', 'regular.images -> show.value', 'writer.text -> drawn.prompt'],
  );
}

describe('estimateRun with the real catalogue', () => {
  it('counts requests, images and price units: a premium sampler doubles, num_images multiplies', async () => {
    const { estimate, image, chat, cache } = setup();
    const result = await estimate(graph());
    const n = byId(result);
    expect(n.regular).toMatchObject({ status: 'runs', apiCalls: 1, imageCalls: 1, images: 3, priceUnits: 3, unknownUntilUpstreamRuns: false });
    expect(n.premium).toMatchObject({ status: 'runs', images: 2, priceUnits: 4 });
    expect(n.writer).toMatchObject({ status: 'runs', apiCalls: 1, chatCalls: 1, maxTokens: 50, images: 0 });
    // Its prompt is the chat's answer, which exists only once the chat has run.
    expect(n.drawn).toMatchObject({ status: 'runs', images: 1, priceUnits: 1, unknownUntilUpstreamRuns: true });
    expect(n.prompt).toMatchObject({ status: 'runs', apiCalls: 0 });
    expect(n.show).toMatchObject({ status: 'runs', apiCalls: 0, unknownUntilUpstreamRuns: true });
    expect(result.totals).toEqual({
      apiCalls: 4, imageCalls: 3, chatCalls: 1, images: 6, priceUnits: 8, chatMaxTokens: 50, cachedNodes: 0, callsSavedByCache: 0, unknownNodes: 2,
    });
    // Nothing sent, nothing stored.
    expect(image.calls).toHaveLength(0);
    expect(chat.calls).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('after a run, the unchanged graph is all cached and costs nothing', async () => {
    const { estimate, executor } = setup();
    await executor.run(graph());
    const result = await estimate(graph());
    expect(result.nodes.every((n) => n.status === 'cached')).toBe(true);
    expect(result.totals).toMatchObject({ apiCalls: 0, images: 0, priceUnits: 0, cachedNodes: 6, callsSavedByCache: 4, unknownNodes: 0 });
  });

  it('follows a changed text through free nodes: what it feeds is known to run, the rest stays cached', async () => {
    const { estimate, executor } = setup();
    await executor.run(graph());
    const changed = graph({ text: 'a harbour at dusk' });
    const result = await estimate(changed);
    const n = byId(result);
    expect(n.prompt?.status).toBe('runs');
    expect(n.regular).toMatchObject({ status: 'runs', unknownUntilUpstreamRuns: false, priceUnits: 3 });
    expect(n.show).toMatchObject({ status: 'runs', unknownUntilUpstreamRuns: true });
    expect([n.premium?.status, n.writer?.status, n.drawn?.status]).toEqual(['cached', 'cached', 'cached']);

    // The estimate and the run agree.
    const summary = await executor.run(changed);
    expect(summary.apiCalls).toBe(result.totals.apiCalls);
    expect(summary.nodes.cached).toBe(result.totals.cachedNodes);
  });

  it('follows every edit across repeated estimates (what it remembers is keyed by content)', async () => {
    const { estimate, executor } = setup();
    await executor.run(graph());
    const statuses = async (wf: Workflow) => Object.fromEntries((await estimate(wf)).nodes.map((n) => [n.nodeId, n.status]));
    const allCached = { prompt: 'cached', regular: 'cached', show: 'cached', premium: 'cached', writer: 'cached', drawn: 'cached' };
    expect(await statuses(graph())).toEqual(allCached);
    // The same parameters edited in place, as a caller might: not served from what was remembered.
    const edited = graph();
    edited.nodes.find((n) => n.id === 'premium')!.params.num_images = 4;
    const n = byId(await estimate(edited));
    expect(n.premium).toMatchObject({ status: 'runs', images: 4, priceUnits: 8 });
    expect(n.regular?.status).toBe('cached');
    edited.nodes.find((n) => n.id === 'premium')!.params.num_images = 2;
    expect(await statuses(edited)).toEqual(allCached);
    // An invalid value is reported, then forgotten once it is fixed.
    edited.nodes.find((n) => n.id === 'premium')!.params.steps = 0;
    expect(await estimateRun(edited, registry, { mode: 'all' }, { cache: executor.cache, settings: testSettings, cacheScope: 'local' }))
      .toMatchObject({ ok: false, problems: [expect.objectContaining({ nodeId: 'premium', field: 'steps' })] });
    delete edited.nodes.find((n) => n.id === 'premium')!.params.steps;
    expect(await statuses(edited)).toEqual(allCached);
  });

  it('never counts a random seed as cached, even right after a run, nor what it feeds', async () => {
    const { estimate, executor } = setup();
    await executor.run(graph({ regularSeed: null }));
    const n = byId(await estimate(graph({ regularSeed: null })));
    expect(n.regular).toMatchObject({ status: 'runs', cached: false, cacheable: false });
    expect(n.show).toMatchObject({ status: 'runs', unknownUntilUpstreamRuns: true });
    expect(n.premium?.status).toBe('cached');
  });

  it('"run from here" re-makes the node and what follows, taking what it needs from the cache', async () => {
    const { estimate, executor } = setup();
    await executor.run(graph());
    const result = await estimate(graph(), { mode: 'from', nodeId: 'regular' });
    expect(result.nodes.map((n) => [n.nodeId, n.status])).toEqual([['prompt', 'cached'], ['regular', 'runs'], ['show', 'runs']]);
    expect(byId(result).regular).toMatchObject({ cacheable: false, priceUnits: 3 });
  });

  it('a bypassed generator costs nothing and what it cannot feed is skipped, with why', async () => {
    const { estimate } = setup();
    const wf = workflow(
      [['t', 'text-to-image', { prompt: 'x', seed: 1 }], ['i', 'image-to-image', { prompt: 'y', seed: 2 }]],
      ['t.image -> i.image'],
    );
    wf.nodes[0]!.bypass = true;
    const result = await estimate(wf);
    expect(result.nodes).toEqual([
      expect.objectContaining({ nodeId: 't', status: 'bypassed', apiCalls: 0 }),
      expect.objectContaining({ nodeId: 'i', status: 'skipped', apiCalls: 0, reason: "bypassed 'Text to image' has no image input to pass through" }),
    ]);
    expect(result.totals.apiCalls).toBe(0);
  });

  it('reports a node that would fail before sending anything, and skips what it feeds', async () => {
    const { estimate } = setup();
    const wf = workflow([['n', 'text', { text: 'not a number' }], ['t', 'text-to-image', { prompt: 'x' }], ['p', 'preview']], ['n.text -> t.seed', 't.image -> p.value']);
    const n = byId(await estimate(wf));
    expect(n.t).toMatchObject({ status: 'fails', apiCalls: 0, reason: expect.stringMatching(/^input 'Seed': .*not a number/) as unknown });
    expect(n.p).toMatchObject({ status: 'skipped', reason: "'t' failed" });
  });

  it('returns the problems of an invalid workflow instead of an estimate', async () => {
    const result = await estimateRun(workflow([['t', 'text-to-image', { steps: 0 }]]), registry, { mode: 'all' }, { cache: createMemoryCache(), settings: testSettings });
    expect(result).toMatchObject({ ok: false, problems: [expect.objectContaining({ nodeId: 't', field: 'steps' })] });
  });

  it('has no chat cap when a chat call sets no max_tokens', async () => {
    const { estimate } = setup();
    const result = await estimate(workflow([['a', 'chat-prompt-writer', { max_tokens: 10 }], ['b', 'chat-prompt-writer']]));
    expect(result.totals).toMatchObject({ chatCalls: 2, chatMaxTokens: null });
  });

  it('knows the cost of every node type in the catalogue', () => {
    const classified = [...IMAGE_NODE_TYPES, ...CHAT_NODE_TYPES, ...FREE_NODE_TYPES].sort();
    expect(registry.list().map((d) => d.type).sort()).toEqual(classified);
  });
});
