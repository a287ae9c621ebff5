/** The page's run history: IndexedDB where it opens, memory otherwise (one per page, made when first needed). */
import { createIdbHistory } from './idb-store';
import { createMemoryHistory } from './memory-store';
import type { HistoryStore } from './types';

let store: HistoryStore | undefined;

export function historyStore(): HistoryStore {
  store ??= typeof indexedDB === 'undefined' ? createMemoryHistory() : createIdbHistory({ fallback: createMemoryHistory() });
  return store;
}
