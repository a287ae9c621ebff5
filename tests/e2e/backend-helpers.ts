/** What the backend e2e tests share: everything the page keeps, and an image's manifest from the viewer. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { extractWorkflow, readImageManifest, type ImageManifest } from '../../workflow/embed';
import { downloadBytes, type EditorPage } from './pages/editor';

export interface StoredByPage {
  local: Record<string, string>;
  session: Record<string, string>;
  /** Every record of every IndexedDB store, as JSON text (Blobs show as {}). */
  indexedDb: string;
}

/** Everything the page keeps in this browser: local and session storage, and IndexedDB. */
export function storedByPage(page: Page): Promise<StoredByPage> {
  return page.evaluate(async () => {
    const dump = (s: Storage) => Object.fromEntries(Array.from({ length: s.length }, (_, i) => {
      const key = s.key(i) ?? '';
      return [key, s.getItem(key) ?? ''];
    }));
    const ask = <T>(request: IDBRequest<T>) => new Promise<T>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB refused'));
    });
    const texts: string[] = [];
    for (const info of await indexedDB.databases()) {
      if (info.name === undefined) continue;
      const db = await ask(indexedDB.open(info.name));
      for (const store of Array.from(db.objectStoreNames)) texts.push(JSON.stringify(await ask(db.transaction(store).objectStore(store).getAll())));
      db.close();
    }
    return { local: dump(localStorage), session: dump(sessionStorage), indexedDb: texts.join('\n') };
  });
}

/** Downloads the node's first image from the viewer; its bytes and the manifest it carries. */
export async function downloadFirstImage(editor: EditorPage, nodeTitle: string): Promise<{ bytes: Buffer; manifest: ImageManifest | undefined }> {
  await editor.node(nodeTitle).images.first().click();
  const viewer = editor.page.getByRole('dialog', { name: new RegExp(`^${nodeTitle}: image 1 of`) });
  const download = editor.page.waitForEvent('download');
  await viewer.getByRole('link', { name: 'Download' }).click();
  const bytes = await downloadBytes(await download);
  await editor.page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  return { bytes, manifest: readImageManifest(extractWorkflow(bytes)?.manifest) };
}

/** The cost panel's lines of what the backends change, once the estimate has them. */
export async function backendNotes(editor: EditorPage): Promise<string[]> {
  const group = editor.runPanel.getByRole('group', { name: 'What the backends change' });
  await group.waitFor();
  return (await group.getByRole('listitem').allTextContents()).map((t) => t.trim());
}

/**
 * Gives the starter's restyle `prompt` (one the provider's safety checker refuses) and runs again:
 * the node fails, still showing the last good picture, not the refused one; returns its message.
 */
export async function runRefused(editor: EditorPage, prompt: string): Promise<string> {
  const restyle = editor.node('Image to image');
  await editor.inspect(restyle);
  const before = await restyle.imageSha256();
  await restyle.field('Prompt').fill(prompt);
  await restyle.field('Prompt').blur();
  expect(await editor.runToEnd()).toBe('Run finished with failures');
  await expect.poll(() => restyle.phase()).toBe('failed');
  expect(await restyle.images.count()).toBe(1);
  expect(await restyle.imageSha256()).toBe(before);
  return (await restyle.error.textContent()) ?? '';
}
