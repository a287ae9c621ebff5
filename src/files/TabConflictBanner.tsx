/**
 * Tells this tab's person that another tab is on the same autosaved workflow, and asks what to
 * do; until they choose, nothing this tab does is autosaved (tab-sync.ts).
 */
import { useId, useState } from 'react';
import { useSmallStore } from '../ui/small-store';
import { toast } from '../ui/toast';
import { type ConflictChoice, type ConflictKind, resolveTabConflict, tabConflictStore } from './tab-sync';

const TEXT: Record<ConflictKind, { title: string; body: string }> = {
  'open-elsewhere': {
    title: 'This workflow is open in another tab',
    body: 'Both tabs would autosave over each other, so changes made here are not autosaved until you choose.',
  },
  'changed-elsewhere': {
    title: 'Another tab changed this workflow',
    body: 'It saved its changes while this tab had changes of its own. Changes made here are not autosaved until you choose.',
  },
  'taken-over': {
    title: 'Another tab took over this workflow',
    body: 'It now autosaves this workflow. Changes made here are not autosaved until you choose.',
  },
};

export function TabConflictBanner() {
  const kind = useSmallStore(tabConflictStore);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  if (!kind) return null;
  const choose = (choice: ConflictChoice) => {
    setBusy(true);
    resolveTabConflict(choice).catch((error: unknown) => {
      toast(`That did not work: ${error instanceof Error ? error.message : String(error)}`, 'error');
    }).finally(() => setBusy(false));
  };
  const { title, body } = TEXT[kind];
  return (
    <div className="tab-conflict" role="alertdialog" aria-modal="false" aria-labelledby={titleId} aria-describedby={bodyId}>
      <h2 id={titleId}>{title}</h2>
      <p id={bodyId}>{body}</p>
      <div className="tab-conflict-actions">
        <button type="button" className="button" disabled={busy} onClick={() => choose('reload')}
          title="Show the other tab's work here (Undo brings this tab's back)">
          Reload theirs
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => choose('copy')}
          title="Keep this tab's work as a separate copy, autosaved apart">
          Open a copy
        </button>
        <button type="button" className="button primary" disabled={busy} onClick={() => choose('take-over')}
          title="Autosave this tab's work; the other tab is told">
          Take over
        </button>
      </div>
    </div>
  );
}
