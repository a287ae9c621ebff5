/**
 * The in-place title editor of a node or a group, mounted while renaming: it starts from the
 * current title; Enter or leaving the field keeps the draft, Escape hands back undefined.
 */
import { useState } from 'react';

export interface TitleInputProps {
  /** The field's accessible name ("Node title", "Group title"). */
  label: string;
  initial: string;
  /** The draft when kept, undefined when cancelled. */
  onDone(title: string | undefined): void;
}

export function TitleInput({ label, initial, onDone }: TitleInputProps) {
  const [draft, setDraft] = useState(initial);
  return (
    <input
      className="input title-input nodrag"
      value={draft}
      maxLength={200}
      aria-label={label}
      autoFocus
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => onDone(draft)}
      onKeyDown={(e) => {
        // Keys typed here are the title's, not the canvas shortcuts'.
        e.stopPropagation();
        if (e.key === 'Enter') onDone(draft);
        if (e.key === 'Escape') onDone(undefined);
      }}
    />
  );
}
