/**
 * How often a loaded image is encoded and decoded between the page putting it into the asset
 * store and the Preview getting the Image to image result: through the worker's API (as the
 * page calls it, estimates and form checks included), the executor and the local engines.
 * The one base64 module (api/image-data.ts) and the engines' image decoder are watched.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as imageData from '../../api/image-data';
import { createChatClient } from '../../api/chat-client';
import { createImageClient } from '../../api/image-client';
import { registry } from '../../nodes/index';
import { createAtelierServer } from '../../server/app';
import { localEnginesConfig } from '../../server/config';
import * as codec from '../../server/engines/image/codec';
import { LOCAL_CHAT_MODELS } from '../../server/engines/text';
import { silentLogger } from '../../server/log';
import type { UiEvent } from '../../workers/transfer';
import { createWorkerApi } from '../../workers/worker-api';
import { createIdbAssetStore } from '../../assets/idb-store';
import { assetRefOf } from '../../assets/ref';
import { workflow } from '../workers/fakes';
import { formIssues, NO_ISSUES } from '../../src/forms/issues';

vi.mock('../../api/image-data', async (importOriginal) => {
  const actual = await importOriginal<typeof imageData>();
  return { ...actual, bytesToBase64: vi.fn(actual.bytesToBase64), base64ToBytes: vi.fn(actual.base64ToBytes) };
});
vi.mock('../../server/engines/image/codec', async (importOriginal) => {
  const actual = await importOriginal<typeof codec>();
  return { ...actual, decodeImage: vi.fn(actual.decodeImage) };
});

let server: Awaited<ReturnType<typeof createAtelierServer>>;
beforeAll(async () => {
  server = await createAtelierServer(localEnginesConfig(), { logger: silentLogger });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => vi.clearAllMocks());

const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'workflows', 'embedded-image.json'), 'utf8')) as {
  nodes: { params: { image?: { b64: string } } }[];
};
const picture = Buffer.from(fixture.nodes[0]!.params.image!.b64, 'base64');
const pictureB64 = picture.toString('base64');
const bytes = new Uint8Array(picture);

function setUp(name: string) {
  const page = createIdbAssetStore({ name });
  const workerAssets = createIdbAssetStore({ name });
  const reads = vi.spyOn(workerAssets, 'get');
  const api = createWorkerApi({
    registry,
    createImageClient,
    createChatClient,
    transfer: (value) => value,
    assets: workerAssets,
  });
  // A run waits for the settings itself; nothing here needs them sooner.
  void api.configure({ imageBaseUrl: `${server.url}/local/image`, textBaseUrl: `${server.url}/local/text`, chatModel: LOCAL_CHAT_MODELS[0]! });
  return { page, api, reads };
}

const encodesOfPicture = () => vi.mocked(imageData.bytesToBase64).mock.calls.filter(([b]) => Buffer.from(b).equals(picture)).length;
const decodesOfPicture = () => vi.mocked(imageData.base64ToBytes).mock.calls.filter(([b]) => b === pictureB64).length;
const engineDecodesOfPicture = () => vi.mocked(codec.decodeImage).mock.calls.filter(([, b]) => b === pictureB64).length;

describe('an Image loader picture on its way to the Preview', () => {
  it('is base64-encoded once (for the request) and decoded at most once, whatever the estimates and checks before', async () => {
    const { page, api, reads } = setUp('travel-once');
    // The page: the file's bytes go into the store; the document holds the reference.
    const ref = await page.put(bytes, 'image/png');
    expect(ref).toBe(assetRefOf(bytes));
    const image = { b64: ref, mime: 'image/png', name: 'gradient.png', width: 32, height: 32 };
    const doc = workflow(
      [['photo', 'image-loader', { image }], ['restyle', 'image-to-image', { engine: 'sd', prompt: 'a watercolour', strength: 0.5, seed: 5, steps: 2 }], ['show', 'preview']],
      ['photo.image -> restyle.image', 'restyle.image -> show.value'],
    );

    // What the page asks while the person works (estimates), and checks itself (the loader's form), each a fresh copy.
    const loader = registry.get('image-loader')!;
    for (let i = 0; i < 3; i++) {
      const estimate = await api.estimate(structuredClone(doc), { mode: 'all' });
      expect(estimate).toMatchObject({ ok: true, totals: { imageCalls: 1 } });
      expect(formIssues(loader, structuredClone({ image }), [], undefined)).toBe(NO_ISSUES);
    }
    expect(reads).not.toHaveBeenCalled();
    expect(encodesOfPicture()).toBe(0);

    const events: UiEvent[] = [];
    const summary = await api.run(structuredClone(doc), { mode: 'all' }, (e) => void events.push(e));
    expect(summary.failures).toEqual([]);
    expect(summary.status).toBe('succeeded');
    const shown = events.find((e) => e.type === 'node-done' && e.nodeId === 'show');
    if (shown?.type !== 'node-done' || shown.outputs.shown?.kind !== 'image') throw new Error('the Preview showed no image');
    expect(shown.outputs.shown.value.bytes.byteLength).toBeGreaterThan(0);

    expect(reads).toHaveBeenCalledTimes(1);
    expect(encodesOfPicture()).toBe(1);
    // The engine decodes the request's init_image; the loader's own result crosses to the page as bytes.
    expect(engineDecodesOfPicture()).toBe(1);
    expect(decodesOfPicture()).toBeLessThanOrEqual(1);

    // Run again with a changed prompt: the image is at hand, encoded already.
    const again = structuredClone(doc);
    again.nodes[1]!.params.prompt = 'an oil painting';
    const second = await api.run(again, { mode: 'all' }, () => undefined);
    expect(second.status).toBe('succeeded');
    expect(encodesOfPicture()).toBe(1);
    expect(reads).toHaveBeenCalledTimes(1);
    page.close();
  });

  it('fails the loader naming its field when the store has lost the image, and sends nothing', async () => {
    const { api } = setUp('travel-lost');
    const image = { b64: assetRefOf(new Uint8Array([1, 2, 3])), mime: 'image/png', name: 'gone.png' };
    const doc = workflow(
      [['photo', 'image-loader', { image }], ['restyle', 'image-to-image', { engine: 'sd', prompt: 'x', seed: 5, steps: 2 }]],
      ['photo.image -> restyle.image'],
    );
    const summary = await api.run(doc, { mode: 'all' }, () => undefined);
    expect(summary.status).toBe('failed');
    expect(summary.apiCalls).toBe(0);
    expect(summary.failures[0]).toMatchObject({ nodeId: 'photo' });
    expect(JSON.stringify(summary.failures[0])).toMatch(/field 'image'.*not in this browser's storage/);
  });
});
