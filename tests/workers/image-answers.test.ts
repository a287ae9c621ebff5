/**
 * An image API that answers 200 with something that is not an image fails the node that asked,
 * whatever client or backend answered: the check sits where every image call of a run passes.
 */
import { describe, expect, it } from 'vitest';
import type { ImageClient } from '../../api/client-types';
import { createExecutor } from '../../workers/executor';
import { eventLog, fakeChatClient, fakeImageB64, fakeRegistry, testSettings, workflow } from './fakes';

function answering(images: string[], review?: ImageClient['review']): ImageClient {
  return { generate: () => Promise.resolve({ images: images.map((image_b64) => ({ image_b64, seed: 1 })) }), ...(review ? { review } : {}) };
}

async function run(image: ImageClient) {
  const executor = createExecutor({ registry: fakeRegistry, api: { image, chat: fakeChatClient().client }, settings: testSettings });
  const log = eventLog();
  const wf = workflow([['g', 'gen', { prompt: 'a fox', seed: 1 }], ['r', 'restyle']], ['g.image -> r.image']);
  const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
  return { summary, log };
}

describe('an image answer that is not an image', () => {
  it('fails the node with what arrived, hands nothing downstream, and still counts the call', async () => {
    const random = Buffer.alloc(4096, 0x5a);
    random.set([0x3f, 0x2a], 0);
    const { summary, log } = await run(answering([random.toString('base64')]));
    expect(summary.status).toBe('failed');
    expect(summary.failures).toEqual([{
      nodeId: 'g',
      error: { kind: 'invalid-response', message: 'the sdxl engine answered HTTP 200 but image 1 is not a JPEG/PNG/WebP: 4,096 bytes starting 3f 2a 5a 5a 5a 5a 5a 5a …' },
    }]);
    expect(log.of('g')).not.toContain('node-done');
    expect(log.events.find((e) => e.type === 'node-skipped')).toMatchObject({ nodeId: 'r', because: 'g' });
    expect(summary.apiCalls).toBe(1);
    expect(summary.usage.images).toBe(1);
  });

  it('names the backend that answered, and the bad image among good ones', async () => {
    const cut = Buffer.from(fakeImageB64('whole'), 'base64').subarray(0, -2).toString('base64');
    const review: ImageClient['review'] = () => ({ backend: 'comfyui', label: 'ComfyUI', refusals: [], notes: [], translated: {} });
    const { summary } = await run(answering([fakeImageB64('whole'), cut, 'b@d'], review));
    expect(summary.failures[0]?.error.message).toMatch(/^ComfyUI answered HTTP 200 but image 2 is a truncated JPEG \(\d+ bytes: no end-of-image marker at its end\)$/);
  });

  it('fails on base64 that is not base64', async () => {
    const { summary } = await run(answering(['this is not base64!']));
    expect(summary.failures[0]?.error.message).toBe('the sdxl engine answered HTTP 200 but image 1 is not valid base64 (a " " at character 5): 19 characters starting "this is not "');
  });
});
