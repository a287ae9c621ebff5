/**
 * Autosave of the working graph to IndexedDB: written within a second of every change (and at
 * once when the page is hidden or closed), read back at start, so a reload or a crash loses
 * nothing. It holds the workflow, the parameters shown as ports, the view and the unsaved
 * marker; never settings or tokens. What it holds is read back through the same loader as a file.
 * Tabs on the same workflow are kept from overwriting each other by tab-sync.ts.
 */
import type { EditorStore } from '../store/editor-store';
import { type AutosaveRecord, type Restored, type Viewport, readSlot } from './autosave-db';
import { createTabSync, slotOfThisTab } from './tab-sync';

export type { Restored, Viewport } from './autosave-db';

/** A change is written after this much quiet… */
const QUIET_MS = 300;
/** …or after this long, if changes keep coming (typing). */
const MAX_WAIT_MS = 1000;

/** Where this tab's work was read from, for startAutosave to carry on from. */
let session = { slot: slotOfThisTab(), rev: 0 };

/** The autosaved work of this tab, or null when there is none (or it can no longer be read). */
export async function readAutosave(): Promise<Restored | null> {
  const slot = slotOfThisTab();
  const read = await readSlot(slot);
  session = { slot, rev: read?.rev ?? 0 };
  return read?.restored ?? null;
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
  /** The store's revision as last written (or adopted from another tab). */
  let writtenRevision = lastRevision;
  let writing: Promise<void> = Promise.resolve();

  const record = (): AutosaveRecord => {
    const { doc, dirty } = store.getState();
    const view = viewport();
    return {
      format: 'atelier.autosave',
      version: 1,
      workflow: JSON.stringify(doc),
      asInput: store.asInputRecord(),
      dirty,
      ...(view ? { viewport: view } : {}),
      savedAt: new Date().toISOString(),
      title: doc.metadata.title,
    };
  };

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    firstPending = undefined;
    const revision = store.getState().revision;
    const next = record();
    const viewOnly = revision === writtenRevision;
    writing = writing.then(async () => {
      if (await sync.write(next, viewOnly)) writtenRevision = Math.max(writtenRevision, revision);
    }).catch((error: unknown) => {
      console.warn('atelier: autosave failed', error);
    });
    return writing;
  };

  const sync = createTabSync(store, session, {
    record,
    // The view moving is not work: only changes to the document count.
    pending: () => store.getState().revision !== writtenRevision,
    flush,
    adopted: () => {
      clearTimeout(timer);
      timer = undefined;
      firstPending = undefined;
      lastRevision = store.getState().revision;
      lastDirty = store.getState().dirty;
      writtenRevision = lastRevision;
    },
  });

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
      sync.stop();
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
    },
    /** Something outside the store changed (the view): write it with the next batch. */
    touch: schedule,
    flush,
  };
}
