/**
 * The executor with the real catalogue and the real API clients against the local engines,
 * started in this process: the path the CLI and the worker take, end to end.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createChatClient } from '../../api/chat-client';
import type { ImageClient } from '../../api/client-types';
import { createImageClient } from '../../api/image-client';
import { registry } from '../../nodes/index';
import { createAtelierServer } from '../../server/app';
import { localEnginesConfig } from '../../server/config';
import { LOCAL_CHAT_MODELS } from '../../server/engines/text';
import { silentLogger } from '../../server/log';
import { createExecutor } from '../../workers/executor';
import { eventLog, workflow } from './fakes';

let server: Awaited<ReturnType<typeof createAtelierServer>>;

beforeAll(async () => {
  // Slow diffusion steps so a request is still in flight when the cancel comes.
  server = await createAtelierServer(localEnginesConfig({ stepDelayMs: 40 }), { logger: silentLogger });
});

afterAll(async () => {
  await server.close();
});

function executor() {
  const image = createImageClient({ baseUrl: `${server.url}/local/image` });
  const failures: unknown[] = [];
  const watched: ImageClient = {
    generate: (engine, request, options) => image.generate(engine, request, options).catch((error: unknown) => {
      failures.push(error);
      throw error;
    }),
  };
  const exec = createExecutor({
    registry,
    api: { image: watched, chat: createChatClient({ baseUrl: `${server.url}/local/text` }) },
    settings: { chatModel: LOCAL_CHAT_MODELS[0]! },
  });
  return { exec, failures };
}

describe('executor against the local engines', () => {
  it('runs chat → text to image → preview, then re-runs it from the cache with no requests', async () => {
    const { exec } = executor();
    const wf = workflow(
      [['c', 'chat-prompt-writer'], ['g', 'text-to-image', { seed: 11, engine: 'sd', steps: 2 }], ['p', 'preview']],
      ['c.text -> g.prompt', 'g.image -> p.value'],
    );
    const log = eventLog();
    const first = await exec.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(first.failures).toEqual([]);
    expect(first).toMatchObject({ status: 'succeeded', apiCalls: 2 });
    // The local engine, like 2.9 of the interface, sends no `usage` in a stream: the summary says so.
    expect(first.usage).toMatchObject({ imageCalls: 1, chatCalls: 1, images: 1, priceUnits: 1, chatCallsWithoutUsage: 1 });
    expect(log.events.some((e) => e.type === 'node-partial-text' && e.nodeId === 'c')).toBe(true);
    const shown = log.events.find((e) => e.type === 'node-done' && e.nodeId === 'p');
    expect(shown).toMatchObject({ outputs: { shown: { kind: 'image', value: { mime: 'image/jpeg', width: 512, height: 512, seed: 11 } } } });

    expect(await exec.run(structuredClone(wf))).toMatchObject({ status: 'succeeded', apiCalls: 0, apiCallsSaved: 2 });
  });

  it('cancel aborts the request the server is working on', async () => {
    const { exec, failures } = executor();
    const wf = workflow([['g', 'text-to-image', { prompt: 'a slow one', seed: 1, engine: 'sd', steps: 100 }]]);
    const log = eventLog();
    const summary = await exec.run(wf, {
      mode: 'all',
      onEvent: (e) => {
        log.onEvent(e);
        if (e.type === 'node-request') setTimeout(() => exec.cancel(), 50);
      },
    });
    expect(summary).toMatchObject({ status: 'cancelled', nodes: { cancelled: 1 } });
    expect(log.of('g').at(-1)).toBe('node-cancelled');
    // The run ends at once; the aborted request settles on its own a moment later.
    await vi.waitFor(() => expect(failures).toEqual([expect.objectContaining({ name: 'ApiError', kind: 'aborted' })]));
  });
});
