/** One labelled settings field with its hint and its problem, tied to the control for screen readers. */
import { useId, type ReactNode } from 'react';

export function Field({ label, children, hint, error }: { label: string; children: (id: string, describedBy: string | undefined) => ReactNode; hint?: ReactNode; error?: string }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="settings-field">
      <label htmlFor={id}>{label}</label>
      {children(id, [hintId, errorId].filter(Boolean).join(' ') || undefined)}
      {hint && <p id={hintId} className="field-hint">{hint}</p>}
      {error && <p id={errorId} className="field-issue">{error}</p>}
    </div>
  );
}
