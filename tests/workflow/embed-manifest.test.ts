/**
 * The image manifest, built from what the real executor reports (node-request calls, node-done
 * images): engine, parameters, seed, node type and version, images as digests, and never a token
 * or an endpoint, even when one is handed to it.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ImageClient } from '../../api/client-types';
import { registry } from '../../nodes/index';
import type { ImageData } from '../../nodes/types';
import {
  type ManifestCall, buildImageManifest, describeImageText, embedWorkflow, extractWorkflow, readImageManifest, scrubManifest,
} from '../../workflow/embed';
import type { ApiCallRecord, ExecutorEvent } from '../../workers/events';
import { createExecutor } from '../../workers/executor';
import { workflow } from '../workers/fakes';

const jpegB64 = async (colour: string) =>
  (await sharp({ create: { width: 32, height: 32, channels: 3, background: colour } }).jpeg().toBuffer()).toString('base64');
const sha256 = (b64: string) => createHash('sha256').update(Buffer.from(b64, 'base64')).digest('hex');

/** Runs loader → image to image with the real catalogue and an image client of our own. */
async function runImageToImage() {
  const source = await jpegB64('#204060');
  const made = await jpegB64('#c08040');
  const image: ImageClient = { generate: () => Promise.resolve({ images: [{ image_b64: made, seed: 987_654 }] }) };
  const exec = createExecutor({
    registry,
    api: { image, chat: { complete: () => Promise.reject(new Error('no chat')), stream: () => { throw new Error('no chat'); } } },
    settings: { chatModel: 'none' },
  });
  const wf = workflow(
    [['load', 'image-loader', { image: { b64: source, mime: 'image/jpeg', name: 'in.jpg', width: 32, height: 32 } }],
      ['i2i', 'image-to-image', { prompt: 'a harbour at dusk', engine: 'sdxl', seed: null, strength: 0.6 }]],
    ['load.image -> i2i.image'],
  );
  wf.nodes[1]!.title = 'Restyle';
  const events: ExecutorEvent[] = [];
  const summary = await exec.run(wf, { mode: 'all', onEvent: (e) => void events.push(e) });
  expect(summary.failures).toEqual([]);
  const calls = events.flatMap((e) => (e.type === 'node-request' && e.nodeId === 'i2i' ? [e.call] : []));
  const done = events.find((e) => e.type === 'node-done' && e.nodeId === 'i2i');
  const output = done?.type === 'node-done' ? done.outputs.image : undefined;
  if (output?.kind !== 'image') throw new Error('image to image made no image');
  return { calls, image: output.value, source, made, wf };
}

describe('buildImageManifest', () => {
  it('describes the request that made an image, from the executor events as they are', async () => {
    const { calls, image, source, made } = await runImageToImage();
    const manifest = buildImageManifest({
      atelierVersion: '0.1.0', node: { id: 'i2i', type: 'image-to-image', title: 'Restyle' }, typeVersion: registry.get('image-to-image')?.version ?? 1,
      calls, image, created: new Date('2026-02-03T04:05:06Z'),
    });
    expect(manifest).toMatchObject({
      format: 'atelier.image-manifest', version: 1, atelier: { version: '0.1.0' }, created: '2026-02-03T04:05:06.000Z',
      node: { id: 'i2i', type: 'image-to-image', typeVersion: 1, title: 'Restyle' },
      engine: 'sdxl',
      // The seed the service used, not the `null` (random) that was asked for.
      seed: 987_654,
      image: { mime: 'image/jpeg', bytes: Buffer.from(made, 'base64').length },
    });
    const [call] = manifest.requests;
    expect(manifest.requests).toHaveLength(1);
    expect(call).toMatchObject({ api: 'image', operation: 'generate', engine: 'sdxl' });
    expect(call!.request).toMatchObject({ prompt: 'a harbour at dusk', strength: 0.6 });
    // A random seed is picked by the executor and sent; what the service reports made the image.
    expect(Number.isInteger((call!.request as { seed?: unknown }).seed)).toBe(true);
    // The executor cut the image out of its event: its size stays, no digest can be made.
    expect((call!.request as { init_image: unknown }).init_image).toEqual({ image: 'unknown', bytes: Math.floor((source.length * 3) / 4) });

    // What goes into the image comes back as the same typed manifest.
    const embedded = embedWorkflow(new Uint8Array(Buffer.from(made, 'base64')), 'image/jpeg', { workflow: '{}', manifest });
    expect(readImageManifest(extractWorkflow(embedded)?.manifest)).toEqual(manifest);
  });

  it('reads back only manifests it understands', () => {
    const valid = { format: 'atelier.image-manifest', version: 1, atelier: { version: '9' }, created: 'x', node: { id: 'n', type: 't' }, image: { mime: 'image/png', bytes: 3 }, requests: [], later: true };
    const { later: _later, ...known } = valid;
    // Fields of a later Atelier are dropped, the rest read as they are.
    expect(readImageManifest(valid)).toStrictEqual(known);
    expect(readImageManifest({ ...valid, version: 2 })).toBeUndefined();
    expect(readImageManifest({ ...valid, node: { id: 'n'.repeat(1000), type: 't' } })).toBeUndefined();
    expect(readImageManifest('nope')).toBeUndefined();
  });

  it('digests images of full requests: type, byte size and sha256, never the data', async () => {
    const b64 = await jpegB64('#fff');
    const calls: ManifestCall[] = [{
      api: 'image', operation: 'generate', engine: 'sd',
      request: { prompt: 'p', seed: 12, init_image: b64, transfer_images: { sks: [`data:image/jpeg;base64,${b64}`] } },
    }];
    const image: ImageData = { b64, mime: 'image/jpeg', width: 32, height: 32 };
    const manifest = buildImageManifest({ atelierVersion: '1', node: { id: 'n', type: 'merge' }, calls, image });
    const digest = { image: 'image/jpeg', bytes: Buffer.from(b64, 'base64').length, sha256: sha256(b64) };
    expect(manifest.requests[0]!.request).toEqual({ prompt: 'p', seed: 12, init_image: digest, transfer_images: { sks: [digest] } });
    // No seed on the image: the requested one is the one that made it.
    expect(manifest.seed).toBe(12);
    expect(manifest.image).toEqual({ mime: 'image/jpeg', bytes: digest.bytes, width: 32, height: 32 });
    expect(JSON.stringify(manifest)).not.toContain(b64.slice(0, 40));
  });

  it('leaves text that only looks like base64 alone', () => {
    expect(describeImageText('a'.repeat(100))).toBeUndefined();
    expect(describeImageText('short')).toBeUndefined();
    expect(describeImageText('<base64, 4000 characters>')).toEqual({ image: 'unknown', bytes: 3000 });
  });

  it('never holds a token or an endpoint, however they arrive', async () => {
    const token = 'sk-proj-Abcdefghijklmnopqrstuvwxyz0123456789';
    const oddToken = 'tok.7f3a9c2e.weird';
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
    const call: ApiCallRecord = {
      api: 'chat', operation: 'stream',
      request: {
        model: 'm', messages: [{ role: 'user', content: `my key is ${token}, post to https://api.example.com/v1/chat` }],
        headers: { Authorization: `Bearer ${token}` }, api_key: token, baseUrl: 'https://api.example.com', endpoint: 'x',
        note: `session ${oddToken} and ${jwt}`, [token]: 1,
      },
    };
    const manifest = buildImageManifest({
      atelierVersion: '1', node: { id: 'n', type: 'text-to-image', title: 'from https://images.example.com' },
      calls: [call, { api: 'image', operation: 'generate', engine: 'sdxl', request: { prompt: `Bearer ${token}`, seed: 1 } }],
      image: { b64: await jpegB64('#000'), mime: 'image/jpeg' }, secrets: [oddToken, 'https://api.example.com'],
    });
    const text = JSON.stringify(manifest);
    for (const secret of [token, oddToken, jwt, 'api.example.com', 'images.example.com', 'Authorization', 'api_key', 'baseUrl', 'endpoint']) {
      expect(text).not.toContain(secret);
    }
    expect(manifest.requests[0]!.request).toEqual({
      model: 'm', messages: [{ role: 'user', content: 'my key is [removed], post to [url removed]' }], headers: {}, note: 'session [removed] and [removed]',
    });
    expect(manifest.node.title).toBe('from [url removed]');

    const embedded = embedWorkflow(new Uint8Array(Buffer.from(await jpegB64('#123'), 'base64')), 'image/jpeg', { workflow: '{}', manifest });
    const raw = Buffer.from(embedded).toString('latin1');
    expect(raw).not.toContain(token.slice(3));
    expect(extractWorkflow(embedded)?.manifest).toEqual(JSON.parse(text));
  });

  it('scrubs any value handed to embedWorkflow, and keeps what is not a secret', () => {
    const kept = { prompt: 'a token of friendship, #ff8800 accents', max_tokens: 200, seed: 42, sha256: 'ab'.repeat(32), loras: { 'svc:film': 0.7 } };
    expect(scrubManifest(kept)).toEqual(kept);
    expect(scrubManifest({ access_token: 'x', deep: [{ password: 'y', ok: 1 }], ['https://x.example/y']: 2 })).toEqual({ deep: [{ ok: 1 }] });
  });
});
