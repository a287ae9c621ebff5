/** Reading what the page keeps in IndexedDB, for tests that check what is stored where. */
import type { Page } from 'playwright-core';

/**
 * The record under `key` in database `db`, store `store`, as JSON text (a Blob written as
 * `{ "blobBytes": size }`); "null" when there is none.
 */
export function readIndexedDb(page: Page, db: string, store: string, key: string): Promise<string> {
  return page.evaluate(([name, storeName, id]) => new Promise<string>((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onerror = () => reject(new Error(`no database ${name}`));
    open.onsuccess = () => {
      const database = open.result;
      const get = database.transaction(storeName).objectStore(storeName).get(id);
      get.onerror = () => reject(new Error(`no store ${storeName}`));
      get.onsuccess = () => {
        resolve(JSON.stringify(get.result ?? null, (_k, v: unknown) => (v instanceof Blob ? { blobBytes: v.size } : v)));
        database.close();
      };
    };
  }), [db, store, key] as const);
}
