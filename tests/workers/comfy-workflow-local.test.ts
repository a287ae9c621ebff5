/**
 * A ComfyUI workflow node on the local route (the local engines, which run no ComfyUI workflow):
 * the node is a problem before the run that says it needs a ComfyUI backend and where to choose
 * one, nothing is sent, and the other nodes still run (run to here on them, or with it bypassed).
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
import { createExecutor } from '../../workers/executor';
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
  it('is a problem before the run naming where to choose a ComfyUI backend; nothing is sent', async () => {
    const log = eventLog();
    const summary = await localExecutor().run(graph(), { mode: 'all', onEvent: log.onEvent });
    expect(summary.status).toBe('invalid');
    expect(summary.apiCalls).toBe(0);
    expect(summary.problems).toEqual([{ nodeId: 'f', message: expect.stringMatching(/^runs a ComfyUI workflow, which needs a ComfyUI backend: choose ComfyUI in Settings → Image backend/) }]);
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
