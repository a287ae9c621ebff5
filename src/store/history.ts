/**
 * Undo/redo as immer patches, one entry per gesture. An entry holds the patches
 * that redo it and the inverse patches that undo it. Consecutive edits that carry the same group
 * key within GROUP_WINDOW_MS merge into one entry (typing in one field); anything else, an undo,
 * or `seal()` (a save) closes the group.
 */
import type { Patch } from 'immer';

/** Typing pauses longer than this start a new undo step. */
export const GROUP_WINDOW_MS = 1000;
/** Oldest entries are dropped past this many; patches share structure, so entries are small. */
export const HISTORY_LIMIT = 500;

export interface HistoryEntry {
  /** Unique and increasing; the unsaved-changes marker compares these. */
  readonly id: number;
  /** What the step did, for the Undo button's tooltip ("Undo move"). */
  readonly label: string;
  patches: Patch[];
  inverse: Patch[];
  groupKey: string | undefined;
  /** When the last edit merged into this entry. */
  lastAt: number;
}

export interface RecordOptions {
  label: string;
  /** Edits with the same key close together in time become one entry. */
  groupKey?: string;
  /**
   * Merge with the last entry of the same group however long ago it was made, as long as nothing
   * came between (seeds moved on after each of several runs: one step, not one per run).
   */
  untimed?: boolean;
  /**
   * A change Atelier makes on its own in answer to a run (seeds moved on, nodes moved aside for a
   * result): undoable like any, but it leaves `metadata.modified`, the time of the last edit a
   * person made, as it was. Whichever backend ran, the file then says the same.
   */
  keepModified?: boolean;
  /** The change edits the whole file even while a component is open (a definition's face). */
  whole?: boolean;
}

export class History {
  private undoStack: HistoryEntry[] = [];
  private redoStack: HistoryEntry[] = [];
  private nextId = 1;
  private sealed = true;

  constructor(private readonly now: () => number) {}

  /** Records a change; merges it into the last entry when it continues the same group. */
  record(patches: Patch[], inverse: Patch[], options: RecordOptions): void {
    if (patches.length === 0) return;
    this.redoStack = [];
    const last = this.undoStack.at(-1);
    const at = this.now();
    if (
      !this.sealed && last !== undefined && options.groupKey !== undefined &&
      last.groupKey === options.groupKey && (options.untimed === true || at - last.lastAt <= GROUP_WINDOW_MS)
    ) {
      last.patches.push(...patches);
      last.inverse = [...inverse, ...last.inverse];
      last.lastAt = at;
      return;
    }
    this.undoStack.push({ id: this.nextId++, label: options.label, patches, inverse, groupKey: options.groupKey, lastAt: at });
    if (this.undoStack.length > HISTORY_LIMIT) this.undoStack.shift();
    this.sealed = options.groupKey === undefined;
  }

  /** Ends the current group: the next edit starts a new entry even if it continues the same field. */
  seal(): void {
    this.sealed = true;
  }

  /** The entry to undo, moved to the redo stack; apply its `inverse`. */
  popUndo(): HistoryEntry | undefined {
    const entry = this.undoStack.pop();
    if (entry) this.redoStack.push(entry);
    this.sealed = true;
    return entry;
  }

  /** The entry to redo, moved back to the undo stack; apply its `patches`. */
  popRedo(): HistoryEntry | undefined {
    const entry = this.redoStack.pop();
    if (entry) this.undoStack.push(entry);
    this.sealed = true;
    return entry;
  }

  clear(): void {
    this.undoStack = [];
    this.redoStack = [];
    this.sealed = true;
  }

  /** Identifies the document's state in history terms: the id of the newest applied entry, 0 for none. */
  position(): number {
    return this.undoStack.at(-1)?.id ?? 0;
  }

  undoLabel(): string | undefined {
    return this.undoStack.at(-1)?.label;
  }

  redoLabel(): string | undefined {
    return this.redoStack.at(-1)?.label;
  }
}
