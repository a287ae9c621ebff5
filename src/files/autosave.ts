/**
 * Autosave of the working graph to IndexedDB: written within a second of every change (and at
 * once when the page is hidden or closed), read back at start, so a reload or a crash loses
 * nothing. It holds the workflow, the parameters shown as ports, the view and the unsaved
 * marker; never settings or tokens. What it holds is read back through the same loader as a file.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { registry } from '../../nodes/index';
import type { Workflow } from '../../workflow/schema';
import type { AsInputRecord, EditorStore } from '../store/editor-store';

const DB_NAME = 'atelier';
const DB_VERSION = 1;
const STORE = 'autosave';
const KEY = 'current';
/** A change is written after this much quiet… */
const QUIET_MS = 300;
/** …or after this long, if changes keep coming (typing). */
const MAX_WAIT_MS = 1000;

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

interface AutosaveRecord {
  format: 'atelier.autosave';
  version: 1;
  /** The workflow as JSON text (read back with loadWorkflow, like any file). */
  workflow: string;
  asInput: AsInputRecord;
  dirty: boolean;
  viewport?: Viewport;
  savedAt: string;
}

export interface Restored {
  workflow: Workflow;
  asInput: AsInputRecord;
  dirty: boolean;
  viewport?: Viewport;
}

let dbPromise: Promise<IDBPDatabase> | undefined;

function db(): Promise<IDBPDatabase> {
  dbPromise ??= openDB(DB_NAME, DB_VERSION, {
    upgrade(database) {
      if (!database.objectStoreNames.contains(STORE)) database.createObjectStore(STORE);
    },
  });
  return dbPromise;
}

function isViewport(v: unknown): v is Viewport {
  if (typeof v !== 'object' || v === null) return false;
  const { x, y, zoom } = v as Record<string, unknown>;
  return [x, y, zoom].every((n) => typeof n === 'number' && Number.isFinite(n)) && (zoom as number) > 0;
}

/** The autosaved work, or null when there is none (or it can no longer be read). */
export async function readAutosave(): Promise<Restored | null> {
  let record: unknown;
  try {
    record = await (await db()).get(STORE, KEY);
  } catch (error) {
    console.warn('atelier: the autosave could not be read', error);
    return null;
  }
  if (typeof record !== 'object' || record === null || (record as AutosaveRecord).format !== 'atelier.autosave') return null;
  const saved = record as AutosaveRecord;
  try {
    // Read back like any file; the loader is fetched only when there is something to restore.
    const { loadWorkflow } = await import('../../workflow/load');
    const { workflow } = loadWorkflow(saved.workflow, { knownTypes: new Set(registry.list().map((d) => d.type)) });
    const asInput: AsInputRecord = {};
    for (const [id, params] of Object.entries(saved.asInput ?? {})) {
      if (Array.isArray(params)) asInput[id] = params.filter((p): p is string => typeof p === 'string');
    }
    return { workflow, asInput, dirty: saved.dirty === true, ...(isViewport(saved.viewport) ? { viewport: saved.viewport } : {}) };
  } catch (error) {
    // A damaged autosave must not stop the editor from opening; the starter workflow takes over.
    console.warn('atelier: the autosave is damaged and was not restored', error);
    return null;
  }
}

async function write(record: AutosaveRecord): Promise<void> {
  await (await db()).put(STORE, record, KEY);
}

/**
 * Writes the store's workflow whenever it changes (at most a second later). Returns a function
 * that stops it. `viewport()` reads the canvas view to keep with it.
 */
export function startAutosave(store: EditorStore, viewport: () => Viewport | undefined): { stop(): void; touch(): void; flush(): Promise<void> } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let firstPending: number | undefined;
  let lastRevision = store.getState().revision;
  let lastDirty = store.getState().dirty;
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    firstPending = undefined;
    const { doc, dirty } = store.getState();
    const view = viewport();
    const record: AutosaveRecord = {
      format: 'atelier.autosave',
      version: 1,
      workflow: JSON.stringify(doc),
      asInput: store.asInputRecord(),
      dirty,
      ...(view ? { viewport: view } : {}),
      savedAt: new Date().toISOString(),
    };
    writing = writing.then(() => write(record)).catch((error: unknown) => {
      console.warn('atelier: autosave failed', error);
    });
    return writing;
  };

  const schedule = () => {
    const now = performance.now();
    firstPending ??= now;
    clearTimeout(timer);
    const wait = Math.max(0, Math.min(QUIET_MS, firstPending + MAX_WAIT_MS - now));
    timer = setTimeout(() => void flush(), wait);
  };

  const unsubscribe = store.subscribe(() => {
    const { revision, dirty } = store.getState();
    if (revision === lastRevision && dirty === lastDirty) return;
    lastRevision = revision;
    lastDirty = dirty;
    schedule();
  });
  const onHide = () => {
    if (timer !== undefined || document.visibilityState === 'hidden') void flush();
  };
  window.addEventListener('pagehide', onHide);
  document.addEventListener('visibilitychange', onHide);

  return {
    stop() {
      unsubscribe();
      clearTimeout(timer);
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
    },
    /** Something outside the store changed (the view): write it with the next batch. */
    touch: schedule,
    flush,
  };
}
