/**
 * A text field whose value reaches the settings only once the person is done with it: when it
 * loses focus, on Enter, or when the dialog closes around it. Endpoints and tokens are put to use
 * as soon as the settings change (the chat model list is asked for), so a half-typed URL
 * (`https://c`, `https://ch`, …) must never be one: each would be a request, with the token, to a
 * host nobody chose.
 */
import { useEffect, useRef, useState, type InputHTMLAttributes } from 'react';

export type CommitInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'onBlur' | 'onKeyDown'> & {
  value: string;
  onCommit(value: string): void;
};

export function CommitInput({ value, onCommit, ...props }: CommitInputProps) {
  const [draft, setDraft] = useState(value);
  // What the unmount commit reads: the latest draft, not the one of the first render.
  const latest = useRef({ draft, value, onCommit });
  useEffect(() => {
    latest.current = { draft, value, onCommit };
  });
  // A value changed elsewhere (another tab's settings, a reset) replaces the draft.
  useEffect(() => setDraft(value), [value]);
  // Escape closes the dialog without a blur: what was typed is kept, as a finished entry.
  useEffect(() => () => {
    const last = latest.current;
    if (last.draft !== last.value) last.onCommit(last.draft);
  }, []);

  const commit = () => {
    if (draft !== value) onCommit(draft);
  };
  return (
    <input
      {...props}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
    />
  );
}
