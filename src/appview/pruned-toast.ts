/**
 * Tells the person when a change took app entries with it (a node deleted, a field taken off a
 * component's face: store/app-prune.ts): how many, which, and that Undo brings them back.
 */
import { useEffect } from 'react';
import type { StaleAppEntry } from '../../nodes/app-fields';
import type { EditorStore } from '../store/editor-store';
import { toast } from '../ui/toast';

/** The toast's words for entries a change removed. */
export function appPrunedMessage(entries: readonly StaleAppEntry[]): string {
  const count = entries.length === 1 ? '1 app entry' : `${entries.length} app entries`;
  const shown = entries.slice(0, 3).map((e) => e.message).join('; ');
  const more = entries.length > 3 ? `; and ${entries.length - 3} more` : '';
  return `${count} pointed at what is gone and ${entries.length === 1 ? 'was' : 'were'} removed from the app (${shown}${more}). Undo brings ${entries.length === 1 ? 'it' : 'them'} back.`;
}

/** Shows a toast each time a change removes app entries. */
export function useAppPrunedToast(store: EditorStore): void {
  useEffect(() => {
    let seen = store.appPruned.get()?.seq ?? 0;
    return store.appPruned.subscribe(() => {
      const pruned = store.appPruned.get();
      if (!pruned || pruned.seq === seen) return;
      seen = pruned.seq;
      toast(appPrunedMessage(pruned.entries), 'warning');
    });
  }, [store]);
}
