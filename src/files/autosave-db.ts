/**
 * The autosave's records in IndexedDB. Each record sits in a slot ('current', or a copy a tab
 * chose to work on) and carries a revision and the tab that wrote it: a write is refused when
 * another tab wrote the slot since this one last read or wrote it, so no tab overwrites
 * another's work unseen (tab-sync.ts decides what happens then). Through `idb`, as every
 * IndexedDB store of the editor: same database, same store, same records as ever.
 */
import { openDB, type IDBPDatabase, type IDBPObjectStore } from 'idb';
import { loadWorkflow } from '../../workflow/load';
import { registry } from '../../nodes/index';
import type { Workflow } from '../../workflow/schema';
import type { AsInputRecord } from '../store/editor-store';
import { keyedRecord } from '../../workflow/keys';

const DB_NAME = 'atelier';
const DB_VERSION = 1;
const STORE = 'autosave';
export const MAIN_SLOT = 'current';
/** Slots of copies start so: `copy-<tab id>`. */
export const COPY_PREFIX = 'copy-';

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export interface AutosaveRecord {
  format: 'atelier.autosave';
  version: 1;
  /** The workflow as JSON text (read back with loadWorkflow, like any file). */
  workflow: string;
  asInput: AsInputRecord;
  dirty: boolean;
  viewport?: Viewport;
  savedAt: string;
  /** Counts the writes to this slot; absent in records from before tabs were told apart (0). */
  rev?: number;
  /** The tab that wrote it (a random id per page load). */
  tab?: string;
  /** The workflow's title, to say whose work a conflict is about without parsing it. */
  title?: string;
}

export interface Restored {
  workflow: Workflow;
  asInput: AsInputRecord;
  dirty: boolean;
  viewport?: Viewport;
}

export interface SlotRead {
  restored: Restored;
  rev: number;
}

export type SlotWrite = { ok: true; rev: number } | { ok: false; rev: number; tab: string | undefined };

let dbPromise: Promise<IDBPDatabase> | undefined;

function db(): Promise<IDBPDatabase> {
  dbPromise ??= openDB(DB_NAME, DB_VERSION, {
    upgrade(database) {
      if (!database.objectStoreNames.contains(STORE)) database.createObjectStore(STORE);
    },
  }).catch((error: unknown) => {
    dbPromise = undefined;
    throw error;
  });
  return dbPromise;
}

/** The store of a new transaction, and the promise of its commit. */
async function autosaveStore<M extends IDBTransactionMode>(mode: M): Promise<{ store: IDBPObjectStore<unknown, [typeof STORE], typeof STORE, M>; done: Promise<void> }> {
  const tx = (await db()).transaction(STORE, mode);
  // A failed transaction is reported by the request that failed; `done` need not be awaited then.
  tx.done.catch(() => undefined);
  return { store: tx.objectStore(STORE), done: tx.done };
}

function isViewport(v: unknown): v is Viewport {
  if (typeof v !== 'object' || v === null) return false;
  const { x, y, zoom } = v as Record<string, unknown>;
  return [x, y, zoom].every((n) => typeof n === 'number' && Number.isFinite(n)) && (zoom as number) > 0;
}

const revOf = (record: unknown): number => {
  const rev = (record as AutosaveRecord | undefined)?.rev;
  return typeof rev === 'number' && Number.isSafeInteger(rev) && rev >= 0 ? rev : 0;
};

/** The work autosaved in `slot`, or null when there is none (or it can no longer be read). */
export async function readSlot(slot: string): Promise<SlotRead | null> {
  let record: unknown;
  try {
    const { store } = await autosaveStore('readonly');
    record = await store.get(slot);
  } catch (error) {
    console.warn('atelier: the autosave could not be read', error);
    return null;
  }
  if (typeof record !== 'object' || record === null || (record as AutosaveRecord).format !== 'atelier.autosave') return null;
  const saved = record as AutosaveRecord;
  try {
    // Read back like any file.
    const { workflow, renamedIds } = loadWorkflow(saved.workflow, { knownTypes: new Set(registry.list().map((d) => d.type)) });
    // Keyed by node id: no prototype, and following any id the loader renamed.
    const asInput: AsInputRecord = keyedRecord();
    for (const [id, params] of Object.entries(saved.asInput ?? {})) {
      if (Array.isArray(params)) asInput[renamedIds.get(id) ?? id] = params.filter((p): p is string => typeof p === 'string');
    }
    const restored: Restored = { workflow, asInput, dirty: saved.dirty === true, ...(isViewport(saved.viewport) ? { viewport: saved.viewport } : {}) };
    return { restored, rev: revOf(saved) };
  } catch (error) {
    // A damaged autosave must not stop the editor from opening; the starter workflow takes over.
    console.warn('atelier: the autosave is damaged and was not restored', error);
    return null;
  }
}

/** Copies a tab chose to work on, kept after their tab is gone (reopened tabs find theirs). */
const COPIES_KEPT = 5;

/**
 * Drops the oldest copy slots past COPIES_KEPT, never `keep` (this tab's own). The main slot is
 * never touched.
 */
export async function pruneCopies(keep: string): Promise<void> {
  const { store, done } = await autosaveStore('readwrite');
  const slots: { slot: string; savedAt: string }[] = [];
  const [keys, values] = await Promise.all([store.getAllKeys(), store.getAll()]);
  keys.forEach((key, i) => {
    const slot = String(key);
    if (slot === MAIN_SLOT || slot === keep || !slot.startsWith(COPY_PREFIX)) return;
    const savedAt = (values[i] as Partial<AutosaveRecord> | undefined)?.savedAt;
    slots.push({ slot, savedAt: typeof savedAt === 'string' ? savedAt : '' });
  });
  slots.sort((a, b) => (a.savedAt < b.savedAt ? 1 : a.savedAt > b.savedAt ? -1 : 0));
  for (const { slot } of slots.slice(Math.max(0, COPIES_KEPT - (keep.startsWith(COPY_PREFIX) ? 1 : 0)))) void store.delete(slot);
  await done;
}

/**
 * Writes `record` into `slot` as revision `rev + 1`, in one transaction with the check: refused
 * (nothing written) when the slot was written by another tab after revision `rev`, unless `force`.
 */
export async function writeSlot(slot: string, record: AutosaveRecord, check: { rev: number; tab: string; force?: boolean }): Promise<SlotWrite> {
  const { store, done } = await autosaveStore('readwrite');
  const current: unknown = await store.get(slot);
  const theirs = revOf(current);
  const writer = (current as AutosaveRecord | undefined)?.tab;
  if (!check.force && current !== undefined && theirs !== check.rev && writer !== check.tab) {
    await done;
    return { ok: false, rev: theirs, tab: writer };
  }
  const rev = Math.max(theirs, check.rev) + 1;
  await store.put({ ...record, rev, tab: check.tab }, slot);
  await done;
  return { ok: true, rev };
}
