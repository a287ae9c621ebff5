/**
 * A ComfyUI workflow node on the local route (the local engines, which run no ComfyUI workflow):
 * the estimate says before the run that it would fail, needing a ComfyUI backend and where to
 * choose one; at run time it fails with that, sending nothing, and the nodes not downstream of
 * it still run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatClient } from '../../api/chat-client';
import { createImageClient } from '../../api/image-client';
import { importPipeline } from '../../api/backends/comfyui/pipeline/import';
import { comfyWorkflowParams } from '../../nodes/comfy-workflow';
import { registry } from '../../nodes/index';
import { createAtelierServer } from '../../server/app';
import { localEnginesConfig } from '../../server/config';
import { LOCAL_CHAT_MODELS } from '../../server/engines/text';
import { silentLogger } from '../../server/log';
import { reviewOf } from '../../workers/backend-review';
import { createMemoryCache } from '../../workers/cache';
import { estimateRun } from '../../workers/estimate';
import { createExecutor } from '../../workers/executor';
import { planRun, planWarnings } from '../../workers/plan';
import { fixtureText } from '../backends/comfyui/pipeline/fixtures';
import { eventLog, workflow } from './fakes';

let server: Awaited<ReturnType<typeof createAtelierServer>>;
beforeAll(async () => {
  server = await createAtelierServer(localEnginesConfig(), { logger: silentLogger });
});
afterAll(async () => {
  await server.close();
});

function localExecutor() {
  return createExecutor({
    registry,
    api: { image: createImageClient({ baseUrl: `${server.url}/local/image` }), chat: createChatClient({ baseUrl: `${server.url}/local/text` }) },
    settings: { chatModel: LOCAL_CHAT_MODELS[0]! },
  });
}

const flux = () => comfyWorkflowParams(importPipeline({ api: fixtureText('flux-dev', 'api') }), 'flux-dev.json');
const graph = (bypass = false) => {
  const wf = workflow(
    [['c', 'chat-prompt-writer'], ['g', 'text-to-image', { seed: 3, engine: 'sd', steps: 2 }], ['f', 'comfy-workflow', flux()]],
    ['c.text -> g.prompt'],
  );
  if (bypass) wf.nodes[2]!.bypass = true;
  return wf;
};

describe('a ComfyUI workflow node on the local engines', () => {
  const downstream = () => {
    const wf = graph();
    wf.nodes.push({ id: 'p', type: 'preview', position: { x: 0, y: 0 }, params: {} });
    wf.edges.push({ id: 'e-fp', source: { node: 'f', port: 'images' }, target: { node: 'p', port: 'value' } });
    return wf;
  };

  it('is said before the run: the estimate shows it failing, naming where to choose a ComfyUI backend', async () => {
    const image = createImageClient({ baseUrl: `${server.url}/local/image` });
    const estimate = await estimateRun(downstream(), registry, { mode: 'all' }, { cache: createMemoryCache(), settings: { chatModel: LOCAL_CHAT_MODELS[0]! }, review: reviewOf(image) });
    if (!estimate.ok) throw new Error(`not planned: ${JSON.stringify(estimate.problems)}`);
    const byId = new Map(estimate.nodes.map((n) => [n.nodeId, n]));
    expect(byId.get('f')).toMatchObject({ status: 'fails', reason: expect.stringMatching(/^this node runs a ComfyUI workflow, which needs a ComfyUI backend: choose ComfyUI in Settings → Image backend/) });
    expect(byId.get('p')).toMatchObject({ status: 'skipped' });
    expect(byId.get('g')?.status).toBe('runs');
    const planned = planRun(downstream(), registry, { mode: 'all' }, reviewOf(image));
    expect(planned.ok && planWarnings(planned.plan)).toEqual([{ nodeId: 'f', message: expect.stringMatching(/needs a ComfyUI backend/) }]);
  });

  it('fails at run time with that message, sending nothing for it, while the nodes not downstream of it run', async () => {
    const log = eventLog();
    const summary = await localExecutor().run(downstream(), { mode: 'all', onEvent: log.onEvent });
    expect(summary.status).toBe('failed');
    expect(summary.problems).toEqual([]);
    expect(summary.failures).toEqual([{ nodeId: 'f', error: { message: expect.stringMatching(/^this node runs a ComfyUI workflow, which needs a ComfyUI backend: choose ComfyUI in Settings → Image backend/) } }]);
    expect(log.of('f')).not.toContain('node-started');
    expect(log.of('f')).toContain('node-failed');
    expect(log.of('g')).toContain('node-done');
    expect(log.of('c')).toContain('node-done');
    expect(log.of('p')).toContain('node-skipped');
    // The chat and the picture: two calls, none for the workflow.
    expect(summary.apiCalls).toBe(2);
  });

  it('leaves the other nodes to run: run to here on them, or the whole run with it bypassed', async () => {
    const to = await localExecutor().run(graph(), { mode: 'to', nodeId: 'g' });
    expect(to).toMatchObject({ status: 'succeeded', apiCalls: 2, problems: [] });
    const log = eventLog();
    const all = await localExecutor().run(graph(true), { mode: 'all', onEvent: log.onEvent });
    expect(all).toMatchObject({ status: 'succeeded', problems: [] });
    expect(log.of('g')).toContain('node-done');
    expect(log.of('f')).not.toContain('node-started');
  });
});
