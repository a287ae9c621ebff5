/**
 * The asset store and the way images go between files and the document: a file's base64 images
 * become references on the way in and the very same base64 on the way out.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesToBase64 } from '../../api/image-data';
import { ImageSourceImageSchema, ImageSourceSchema } from '../../nodes/image-source';
import { createIdbAssetStore } from '../../assets/idb-store';
import { hasAssetRefs, inlineImages, inlineImagesNow, internalizeImages, MissingAssetError } from '../../assets/inline';
import { assetRefOf, isAssetRef } from '../../assets/ref';
import { createAssetMemory, createMemoryAssetStore } from '../../assets/store';
import { registry } from '../../nodes/index';
import { pageAssets } from '../../src/files/assets';
import { parsePasteToStore } from '../../src/store/paste-text';
import { loadWorkflow } from '../../workflow/load';
import { serializeWorkflow } from '../../workflow/serialize';
import { workflow } from '../workers/fakes';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
function png(size: number, fill = 7): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set(PNG_HEAD);
  return bytes;
}

let dbs = 0;
const freshDb = () => `assets-test-${++dbs}`;

describe('asset references', () => {
  it('are the SHA-256 of the bytes, the same for the same bytes, never base64', () => {
    const ref = assetRefOf(new TextEncoder().encode('abc'));
    expect(ref).toBe('asset:sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(isAssetRef(ref)).toBe(true);
    expect(isAssetRef(assetRefOf(png(100)))).toBe(true);
    expect(assetRefOf(png(100))).toBe(assetRefOf(png(100)));
    expect(assetRefOf(png(100))).not.toBe(assetRefOf(png(101)));
    expect(isAssetRef('asset:sha256:ABC')).toBe(false);
    expect(isAssetRef(bytesToBase64(png(40)))).toBe(false);
  });

  it('are accepted where an image parameter is, checked base64 otherwise', () => {
    const ref = assetRefOf(png(10));
    expect(ImageSourceSchema.safeParse(ref).success).toBe(true);
    expect(ImageSourceImageSchema.safeParse(ref).success).toBe(true);
    expect(ImageSourceImageSchema.safeParse(bytesToBase64(png(30))).success).toBe(true);
    expect(ImageSourceImageSchema.safeParse('asset:sha256:nothex').error?.issues[0]?.message).toMatch(/not valid base64/);
    expect(ImageSourceImageSchema.safeParse(bytesToBase64(new Uint8Array(30))).error?.issues[0]?.message).toMatch(/not a JPEG, PNG/);
  });
});

describe('the in-memory layer', () => {
  it('keeps at most its bound, the least recently used out first', () => {
    const memory = createAssetMemory(250);
    const a = assetRefOf(png(100, 1));
    const b = assetRefOf(png(100, 2));
    const c = assetRefOf(png(100, 3));
    memory.set(a, { bytes: png(100, 1), mime: 'image/png' });
    memory.set(b, { bytes: png(100, 2), mime: 'image/png' });
    memory.get(a);
    memory.set(c, { bytes: png(100, 3), mime: 'image/png' });
    expect(memory.get(b)).toBeUndefined();
    expect(memory.get(a)?.bytes[8]).toBe(1);
    expect(memory.get(c)?.bytes[8]).toBe(3);
    memory.set(assetRefOf(png(300)), { bytes: png(300), mime: 'image/png' });
    expect(memory.size).toBe(2);
  });
});

describe('the IndexedDB store', () => {
  it('gives another context sharing the database (the worker) the bytes the page put, as stored', async () => {
    const name = freshDb();
    const page = createIdbAssetStore({ name });
    const bytes = png(5000);
    const ref = await page.put(bytes, 'image/png');
    expect(ref).toBe(assetRefOf(bytes));
    expect(page.peek(ref)?.bytes).toBe(bytes);

    const worker = createIdbAssetStore({ name });
    expect(worker.peek(ref)).toBeUndefined();
    const read = await worker.get(ref);
    expect(read?.mime).toBe('image/png');
    expect(Buffer.from(read!.bytes).equals(Buffer.from(bytes))).toBe(true);
    // Read once, then at hand.
    expect(worker.peek(ref)).toBe(read);
    expect(await worker.get(assetRefOf(png(10)))).toBeUndefined();
    page.close();
    worker.close();
  });

  it('reads from the database what its memory layer let go', async () => {
    const store = createIdbAssetStore({ name: freshDb(), memoryBytes: 150 });
    const first = await store.put(png(100, 1), 'image/png');
    await store.put(png(100, 2), 'image/png');
    expect(store.peek(first)).toBeUndefined();
    expect((await store.get(first))?.bytes[8]).toBe(1);
    store.close();
  });
});

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', 'workflows', name), 'utf8');
const example = (name: string) => readFileSync(join(import.meta.dirname, '..', '..', 'public', 'examples', name), 'utf8');

describe('files and the document', () => {
  it.each([
    ['a hand-written golden fixture', () => fixture('embedded-image.json')],
    ['an example with a loader', () => example('restyle-chain.json')],
  ])('%s with base64 images opens as references and saves byte-identical', async (_label, text) => {
    const original = text();
    const store = createMemoryAssetStore();
    const { workflow: loaded } = loadWorkflow(original);
    expect(hasAssetRefs(loaded)).toBe(false);
    const doc = await internalizeImages(loaded, store);
    expect(hasAssetRefs(doc)).toBe(true);
    expect(JSON.stringify(doc).length).toBeLessThan(original.length / 2);
    // The document runs through the loader too (an autosave, a history entry hold references).
    expect(loadWorkflow(serializeWorkflow(doc)).workflow).toEqual(doc);

    const saved = serializeWorkflow(await inlineImages(doc, store));
    // Saving writes what saving the file as loaded writes, each image's base64 exactly as read.
    expect(saved).toBe(serializeWorkflow(loaded));
    const images = (text: string) => text.match(/"b64": "[^"]+"/g);
    expect(images(saved)).toEqual(images(original));
    expect(images(saved)?.length).toBeGreaterThan(0);
    expect(inlineImagesNow(doc, store)).toEqual(loaded);
  });

  it('saves a canonical file byte for byte as it was', async () => {
    const original = example('restyle-chain.json');
    const store = createMemoryAssetStore();
    const doc = await internalizeImages(loadWorkflow(original).workflow, store);
    expect(serializeWorkflow(await inlineImages(doc, store))).toBe(original);
  });

  it('keeps the document as it is when it holds no images, and leaves text that is not an image\'s canonical base64, or that the store fails to keep', async () => {
    const store = createMemoryAssetStore();
    const plain = workflow([['t', 'text', { text: 'hi' }]]);
    expect(await internalizeImages(plain, store)).toBe(plain);
    expect(await inlineImages(plain, store)).toBe(plain);
    const unpadded = bytesToBase64(png(31)).replace(/=+$/, '');
    const notImage = bytesToBase64(new Uint8Array(30));
    const odd = workflow([
      ['a', 'image-loader', { image: { b64: unpadded, mime: 'image/png', name: 'a.png' } }],
      ['b', 'image-loader', { image: { b64: notImage, mime: 'image/png', name: 'b.png' } }],
    ]);
    expect(await internalizeImages(odd, store)).toBe(odd);
    const image = workflow([['c', 'image-loader', { image: { b64: bytesToBase64(png(30)), mime: 'image/png', name: 'c.png' } }]]);
    const refusing = { ...store, put: () => Promise.reject(new Error('IndexedDB refused')) };
    expect(await internalizeImages(image, refusing)).toBe(image);
    expect(hasAssetRefs(await internalizeImages(image, store))).toBe(true);
  });

  it('names the node and field of an image the store has lost, and inlines nothing in a hurry without it', async () => {
    const doc = workflow([['photo', 'image-loader', { image: { b64: assetRefOf(png(64)), mime: 'image/png', name: 'p.png' } }]]);
    const empty = createMemoryAssetStore();
    await expect(inlineImages(doc, empty)).rejects.toThrow(MissingAssetError);
    await expect(inlineImages(doc, empty)).rejects.toThrow(/node 'photo', field 'image'/);
    expect(inlineImagesNow(doc, empty)).toBeUndefined();
  });

  it('puts the pictures of nodes pasted from another page into the page\'s store', async () => {
    const bytes = png(300);
    const text = serializeWorkflow(workflow([['photo', 'image-loader', { image: { b64: bytesToBase64(bytes), mime: 'image/png', name: 'p.png' } }]]));
    const pasted = await parsePasteToStore(text, registry);
    if (!pasted.ok) throw new Error(pasted.reason);
    const ref = assetRefOf(bytes);
    expect(pasted.workflow.nodes[0]!.params.image).toEqual({ b64: ref, mime: 'image/png', name: 'p.png' });
    expect(Buffer.from((await pageAssets.get(ref))!.bytes).equals(Buffer.from(bytes))).toBe(true);
  });
});
