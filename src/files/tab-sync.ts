/**
 * Two tabs on one autosaved workflow never overwrite each other unseen. Tabs of this origin talk
 * over a BroadcastChannel (hello / here / saved / taken), and every autosave write checks the
 * slot's revision (autosave-db.ts), so a tab that missed a message still cannot overwrite.
 *
 * - A tab that opens a workflow another tab is editing is told at once and writes nothing until
 *   its person chooses: take over, open a copy (autosaved apart), or reload theirs.
 * - A tab with nothing unsaved follows what another tab saves, quietly.
 * - A tab with changes of its own when another tab saves, or whose slot was taken over, is told
 *   and writes nothing until its person chooses.
 */
import type { EditorStore } from '../store/editor-store';
import { createSmallStore, type SmallStore } from '../ui/small-store';
import { toast } from '../ui/toast';
import { type AutosaveRecord, COPY_PREFIX, MAIN_SLOT, pruneCopies, readSlot, writeSlot } from './autosave-db';

export type ConflictKind =
  /** Another tab has this workflow open (found when this tab started). */
  | 'open-elsewhere'
  /** Another tab saved this workflow while this tab had changes of its own. */
  | 'changed-elsewhere'
  /** Another tab took this workflow over. */
  | 'taken-over';

export type ConflictChoice = 'take-over' | 'copy' | 'reload';

/** The conflict this tab's person is asked about, if any (TabConflictBanner draws it). */
export const tabConflictStore = createSmallStore<ConflictKind | null>(null);

const CHANNEL = 'atelier-autosave';
const SLOT_KEY = 'atelier.autosave-slot';

interface Message {
  type: 'hello' | 'here' | 'saved' | 'taken';
  slot: string;
  tab: string;
  rev?: number;
  /** A 'saved' that only moved the view: the workflow in the slot is the one it replaced. */
  viewOnly?: boolean;
}

/** The slot this tab works in: remembered across its reloads (sessionStorage is per tab). */
export function slotOfThisTab(): string {
  try {
    return sessionStorage.getItem(SLOT_KEY) ?? MAIN_SLOT;
  } catch {
    return MAIN_SLOT;
  }
}

function rememberSlot(slot: string): void {
  try {
    if (slot === MAIN_SLOT) sessionStorage.removeItem(SLOT_KEY);
    else sessionStorage.setItem(SLOT_KEY, slot);
  } catch {
    // Without sessionStorage the copy is kept for as long as the tab is open.
  }
}

export interface SyncHooks {
  /** The record to write for the store's current state. */
  record(): AutosaveRecord;
  /** Whether the store has changes not yet written. */
  pending(): boolean;
  /** Writes what is pending now (before answering a newcomer, so it reads the latest). */
  flush(): Promise<void>;
  /** The store now holds what is in the slot: nothing is pending. */
  adopted(): void;
}

export interface TabSync {
  slot(): string;
  /**
   * Writes `record` if this tab may; false when it may not (told, or refused by the revision
   * check). `viewOnly`: nothing but the view changed since this tab last wrote or adopted.
   */
  write(record: AutosaveRecord, viewOnly?: boolean): Promise<boolean>;
  resolve(choice: ConflictChoice): Promise<void>;
  stop(): void;
}

let active: TabSync | undefined;

/** What the banner's buttons do. */
export function resolveTabConflict(choice: ConflictChoice): Promise<void> {
  return active ? active.resolve(choice) : Promise.resolve();
}

export interface SyncOptions {
  /** The channel tabs talk on; tests give each simulated browser its own. */
  channel?: string;
  /** Where the conflict is shown; the banner's store by default. */
  conflicts?: SmallStore<ConflictKind | null>;
}

export function createTabSync(store: EditorStore, start: { slot: string; rev: number }, hooks: SyncHooks, options: SyncOptions = {}): TabSync {
  const tab = crypto.randomUUID();
  let slot = start.slot;
  let rev = start.rev;
  const conflicts = options.conflicts ?? tabConflictStore;
  const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(options.channel ?? CHANNEL);
  const post = (message: Omit<Message, 'tab' | 'slot'>) => channel?.postMessage({ ...message, slot, tab } satisfies Message);
  const tell = (kind: ConflictKind) => conflicts.set(kind);
  const told = () => conflicts.get() !== null;

  /** Takes what another tab saved, when this tab has nothing of its own to lose. */
  async function follow(): Promise<void> {
    const read = await readSlot(slot);
    if (!read) return;
    if (told()) return;
    if (hooks.pending()) {
      tell('changed-elsewhere');
      return;
    }
    store.rewrite(read.restored.workflow, 'changes from another tab');
    rev = read.rev;
    hooks.adopted();
  }

  const onMessage = (event: MessageEvent<Message>) => {
    const m = event.data;
    if (typeof m !== 'object' || m === null || m.slot !== slot || m.tab === tab) return;
    if (m.type === 'hello') {
      // What is pending is written first, so the newcomer can reload the latest.
      void (hooks.pending() && !told() ? hooks.flush() : Promise.resolve()).then(() => post({ type: 'here', rev }));
    } else if (m.type === 'here') {
      if (!told()) tell('open-elsewhere');
    } else if (m.type === 'taken') {
      tell('taken-over');
    } else if (m.type === 'saved' && m.viewOnly === true && m.rev === rev + 1) {
      // Another tab kept its view with the workflow this tab wrote or read last: nothing to
      // follow and no conflict; this tab's next write goes on from that revision.
      rev = m.rev;
    } else if (m.type === 'saved' && m.rev !== rev) {
      if (hooks.pending() || told()) {
        if (!told()) tell('changed-elsewhere');
      } else {
        void follow();
      }
    }
  };
  channel?.addEventListener('message', onMessage);
  post({ type: 'hello' });

  const sync: TabSync = {
    slot: () => slot,
    async write(record, viewOnly = false) {
      if (told()) return false;
      const result = await writeSlot(slot, record, { rev, tab });
      if (!result.ok) {
        tell('changed-elsewhere');
        return false;
      }
      rev = result.rev;
      post({ type: 'saved', rev, ...(viewOnly ? { viewOnly } : {}) });
      return true;
    },
    async resolve(choice) {
      if (choice === 'reload') {
        const read = await readSlot(slot);
        if (read) {
          store.load(read.restored.workflow, { record: true, asInput: read.restored.asInput, dirty: read.restored.dirty });
          rev = read.rev;
        }
        conflicts.set(null);
        hooks.adopted();
        toast(read ? 'Reloaded the work saved by the other tab (Undo brings yours back)' : 'The other tab has saved nothing yet', 'info');
        return;
      }
      if (choice === 'copy') {
        slot = `${COPY_PREFIX}${tab}`;
        rev = 0;
        rememberSlot(slot);
        conflicts.set(null);
        const title = store.getState().doc.metadata.title;
        if (!title.endsWith('(copy)')) store.setWorkflowTitle(`${title} (copy)`.slice(0, 200));
        await hooks.flush();
        await pruneCopies(slot);
        toast('This tab now works on a copy, autosaved apart from the other tab. Save it to keep it once this tab is closed.', 'info');
        return;
      }
      const result = await writeSlot(slot, hooks.record(), { rev, tab, force: true });
      if (result.ok) rev = result.rev;
      conflicts.set(null);
      hooks.adopted();
      post({ type: 'taken', rev });
    },
    stop() {
      channel?.removeEventListener('message', onMessage);
      channel?.close();
      if (active === sync) active = undefined;
    },
  };
  active = sync;
  return sync;
}
