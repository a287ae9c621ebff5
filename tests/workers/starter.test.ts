/**
 * The starter workflow on the local engines, as a newcomer's first run: the same every visit, and
 * each step's effect plain to see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatClient } from '../../api/chat-client';
import { createImageClient } from '../../api/image-client';
import { registry } from '../../nodes/index';
import { createAtelierServer } from '../../server/app';
import { localEnginesConfig } from '../../server/config';
import { LOCAL_CHAT_MODELS } from '../../server/engines/text';
import { silentLogger } from '../../server/log';
import { starterWorkflow } from '../../src/store/starter';
import { createExecutor } from '../../workers/executor';
import type { NodeOutputs } from '../../workers/events';
import { decode, meanAbsDiff } from '../engines/image-test-utils';
import { eventLog } from './fakes';

let server: Awaited<ReturnType<typeof createAtelierServer>>;

beforeAll(async () => {
  server = await createAtelierServer(localEnginesConfig({ stepDelayMs: 0, tokenDelayMs: 0 }), { logger: silentLogger });
});

afterAll(async () => {
  await server.close();
});

/** One first visit: a new executor (an empty cache) runs the starter; the outputs by node. */
async function firstVisit(wf = starterWorkflow()): Promise<Map<string, NodeOutputs>> {
  const exec = createExecutor({
    registry,
    api: {
      image: createImageClient({ baseUrl: `${server.url}/local/image` }),
      chat: createChatClient({ baseUrl: `${server.url}/local/text` }),
    },
    settings: { chatModel: LOCAL_CHAT_MODELS[0]! },
  });
  const log = eventLog();
  const summary = await exec.run(wf, { mode: 'all', onEvent: log.onEvent });
  expect(summary.status).toBe('succeeded');
  const outputs = new Map<string, NodeOutputs>();
  for (const e of log.events) if (e.type === 'node-done') outputs.set(e.nodeId, e.outputs);
  return outputs;
}

function b64Of(outputs: NodeOutputs | undefined, port: string): string {
  const v = outputs?.[port];
  if (v?.kind !== 'image') throw new Error(`no image on ${port}`);
  return v.value.b64;
}

describe('the starter on the local engines', () => {
  it('gives the same prompt and pictures on every first visit', async () => {
    const a = await firstVisit();
    const b = await firstVisit();
    expect(b.get('prompt-writer')).toEqual(a.get('prompt-writer'));
    expect(b64Of(b.get('image-to-image'), 'image')).toBe(b64Of(a.get('image-to-image'), 'image'));
  }, 60_000);

  it('restyles with a style preset: the picture is far from the same step with no style asked for', async () => {
    const withPreset = await firstVisit();
    const plain = starterWorkflow();
    const restyle = plain.nodes.find((n) => n.type === 'image-to-image')!;
    expect(restyle.params.style_preset).toBeDefined();
    delete restyle.params.style_preset;
    restyle.params.prompt = 'the same scene';
    const promptOnly = await firstVisit(plain);
    const styled = await decode(b64Of(withPreset.get('image-to-image'), 'image'));
    const unstyled = await decode(b64Of(promptOnly.get('image-to-image'), 'image'));
    expect(meanAbsDiff(styled, unstyled)).toBeGreaterThan(20);
  }, 60_000);
});
