/**
 * The autosave through `idb` reads what earlier builds wrote with plain IndexedDB (the same
 * database, store and records), and writes what they read.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { readSlot, writeSlot, type AutosaveRecord } from '../../src/files/autosave-db';
import { serializeWorkflow } from '../../workflow/serialize';
import { createWorkflow } from '../../workflow/create';

/** A request's result, as the earlier plain-IndexedDB code awaited it. */
const settled = <T>(request: IDBRequest<T>) => new Promise<T>((resolve, reject) => {
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error ?? new Error('request failed'));
});

/** Opens the database as the earlier code did (name 'atelier', version 1, store 'autosave'). */
function openPlain(): Promise<IDBDatabase> {
  const request = indexedDB.open('atelier', 1);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains('autosave')) request.result.createObjectStore('autosave');
  };
  return settled(request);
}

const record = (title: string, rev: number): AutosaveRecord => ({
  format: 'atelier.autosave', version: 1, workflow: serializeWorkflow(createWorkflow({ title })), asInput: {}, dirty: true,
  viewport: { x: 10, y: 20, zoom: 0.9 }, savedAt: '2026-11-24T20:00:00.000Z', rev, tab: 'old-tab', title,
});

describe('the autosave store', () => {
  it('reads a record an earlier build wrote with plain IndexedDB, and writes one it can read back', async () => {
    const plain = await openPlain();
    const tx = plain.transaction('autosave', 'readwrite');
    await settled(tx.objectStore('autosave').put(record('Written before', 4), 'current'));
    plain.close();

    const read = await readSlot('current');
    expect(read?.rev).toBe(4);
    expect(read?.restored.workflow.metadata.title).toBe('Written before');
    expect(read?.restored.viewport).toEqual({ x: 10, y: 20, zoom: 0.9 });
    expect(read?.restored.dirty).toBe(true);

    // A write based on an older revision is refused, naming the tab that wrote since.
    expect(await writeSlot('current', record('Stale', 0), { rev: 3, tab: 'new-tab' })).toEqual({ ok: false, rev: 4, tab: 'old-tab' });
    expect(await writeSlot('current', record('Written now', 0), { rev: 4, tab: 'new-tab' })).toEqual({ ok: true, rev: 5 });

    const again = await openPlain();
    const stored = await settled(again.transaction('autosave', 'readonly').objectStore('autosave').get('current')) as AutosaveRecord;
    again.close();
    expect(stored).toMatchObject({ format: 'atelier.autosave', rev: 5, tab: 'new-tab', title: 'Written now' });
  });
});
