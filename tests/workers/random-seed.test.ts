/**
 * A random seed is picked by the executor and sent, so the seed that made an image is known even
 * from a service that answers with `image_b64` only (2.6), and the image can be pinned.
 */
import { describe, expect, it } from 'vitest';
import type { ImageClient } from '../../api/client-types';
import type { ImageRequest } from '../../api/image';
import { registry } from '../../nodes';
import { createExecutor } from '../../workers/executor';
import type { Workflow } from '../../workflow/schema';
import { fakeChatClient, fakeImageB64, testSettings } from './fakes';

/** A service that follows 2.6 to the letter: images, and no seed. */
function specOnlyService() {
  const requests: ImageRequest[] = [];
  const client: ImageClient = {
    generate(_engine, request) {
      requests.push(request);
      return Promise.resolve({ images: [{ image_b64: fakeImageB64(`${request.prompt}|${String(request.seed)}`) }] });
    },
  };
  return { client, requests };
}

const flow = (seed: number | null): Workflow => ({
  format: 'atelier.workflow', version: 1,
  metadata: { title: 'seeds', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
  nodes: [{ id: 'draw', type: 'text-to-image', position: { x: 0, y: 0 }, params: { prompt: 'a fox', seed } }],
  edges: [],
});

async function seedOfRun(executor: ReturnType<typeof createExecutor>, workflow: Workflow): Promise<number | undefined> {
  let seed: number | undefined;
  await executor.run(workflow, {
    mode: 'all',
    onEvent(event) {
      if (event.type === 'node-done' && event.outputs.image?.kind === 'image') seed = event.outputs.image.value.seed;
    },
  });
  return seed;
}

describe('random seeds', () => {
  it('are picked by the executor, sent, and kept with the image though the service reports none', async () => {
    const service = specOnlyService();
    const executor = createExecutor({ registry, api: { image: service.client, chat: fakeChatClient().client }, settings: testSettings, randomSeed: () => 123456 });
    expect(await seedOfRun(executor, flow(null))).toBe(123456);
    expect(service.requests[0]!.seed).toBe(123456);
  });

  it('are fresh on every run (never cached), from crypto by default, within 0 to 2^32 - 1', async () => {
    const service = specOnlyService();
    const executor = createExecutor({ registry, api: { image: service.client, chat: fakeChatClient().client }, settings: testSettings });
    const seeds = [await seedOfRun(executor, flow(null)), await seedOfRun(executor, flow(null)), await seedOfRun(executor, flow(null))];
    expect(service.requests).toHaveLength(3);
    expect(service.requests.map((r) => r.seed)).toEqual(seeds);
    expect(new Set(seeds).size).toBe(3);
    for (const seed of seeds) expect(Number.isInteger(seed) && seed! >= 0 && seed! <= 2 ** 32 - 1).toBe(true);
  });

  it('pinned, the seed reproduces the request exactly, to the byte sent', async () => {
    const service = specOnlyService();
    const executor = createExecutor({ registry, api: { image: service.client, chat: fakeChatClient().client }, settings: testSettings, randomSeed: () => 777 });
    const seed = await seedOfRun(executor, flow(null));
    await seedOfRun(createExecutor({ registry, api: { image: service.client, chat: fakeChatClient().client }, settings: testSettings }), flow(seed!));
    expect(service.requests[1]).toEqual(service.requests[0]);
    // The body sent, and its sha256 in a manifest, follow the key order.
    expect(JSON.stringify(service.requests[1])).toBe(JSON.stringify(service.requests[0]));
  });
});
