/** The plain controls: text, long text, select, toggle, number and slider. */
import { useEffect, useState } from 'react';
import { TextArea } from '../../ui/TextArea';
import type { FieldOption } from '../field-plan';
import type { WidgetProps } from './types';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function TextWidget({ id, spec, value, set, describedBy, invalid }: WidgetProps) {
  const placeholder = typeof spec.defaultValue === 'string' && spec.defaultValue !== '' ? spec.defaultValue : undefined;
  return (
    <input
      id={id}
      className="input"
      type="text"
      value={str(value)}
      maxLength={spec.maxLength}
      placeholder={placeholder}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      spellCheck={false}
      onChange={(e) => set(e.target.value, { typing: true })}
    />
  );
}

/** Long text (prompts, templates, the Text node): Ctrl+Z in it undoes typing as in a plain textarea (see TextArea). */
export function TextAreaWidget({ id, spec, value, set, describedBy, invalid, rows = 4 }: WidgetProps & { rows?: number }) {
  return (
    <TextArea
      id={id}
      className="input textarea nowheel"
      value={str(value)}
      maxLength={spec.maxLength}
      rows={rows}
      describedBy={describedBy}
      invalid={invalid}
      onText={(text) => set(text, { typing: true })}
    />
  );
}

export function Options({ options }: { options: readonly FieldOption[] }) {
  const groups: { label: string | undefined; items: FieldOption[] }[] = [];
  for (const option of options) {
    const last = groups.at(-1);
    if (last && last.label === option.group) last.items.push(option);
    else groups.push({ label: option.group, items: [option] });
  }
  return (
    <>
      {groups.map((g, i) => {
        const items = g.items.map((o) => <option key={o.value} value={o.value}>{o.label}</option>);
        return g.label === undefined ? items : <optgroup key={`${g.label}-${i}`} label={g.label}>{items}</optgroup>;
      })}
    </>
  );
}

export function SelectWidget({ id, spec, value, set, describedBy, invalid }: WidgetProps) {
  const options = spec.options ?? [];
  const current = value === undefined || value === null ? (typeof spec.defaultValue === 'string' ? spec.defaultValue : '') : String(value);
  // A value from a file that is not in the list stays visible (and is reported), never silently replaced.
  const extra = current !== '' && !options.some((o) => o.value === current) ? [{ value: current, label: `${current} (not allowed)` }] : [];
  return (
    <select
      id={id}
      className="input select"
      value={current}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      onChange={(e) => set(e.target.value === '' ? undefined : e.target.value)}
    >
      <Options options={[...extra, ...options]} />
    </select>
  );
}

export function ToggleWidget({ id, spec, value, set, describedBy }: WidgetProps) {
  const checked = typeof value === 'boolean' ? value : spec.defaultValue === true;
  return (
    <input
      id={id}
      className="toggle"
      type="checkbox"
      role="switch"
      checked={checked}
      aria-describedby={describedBy}
      onChange={(e) => set(e.target.checked)}
    />
  );
}

/** Parses what was typed: a number within the field's range, empty (default), or why not. */
export function parseNumberInput(text: string, spec: WidgetProps['spec']): { ok: true; value: number | undefined } | { ok: false; reason: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  const n = Number(trimmed);
  if (!Number.isFinite(n)) return { ok: false, reason: `'${trimmed.slice(0, 20)}' is not a number` };
  if (spec.integer && !Number.isInteger(n)) return { ok: false, reason: 'must be a whole number' };
  if (spec.min !== undefined && n < spec.min) return { ok: false, reason: `must be at least ${spec.min}` };
  if (spec.max !== undefined && n > spec.max) return { ok: false, reason: `must be at most ${spec.max}` };
  return { ok: true, value: n };
}

/**
 * What typed text becomes in the document: a number as typed, even out of range or not whole (the
 * form and the run flag it, and it stays visible until fixed), nothing for empty (the default),
 * or, for text that is no number, nothing yet while it is typed ("-", "0.").
 */
export function typedNumber(text: string): { store: true; value: number | undefined } | { store: false } {
  const trimmed = text.trim();
  if (trimmed === '') return { store: true, value: undefined };
  const n = Number(trimmed);
  return Number.isFinite(n) ? { store: true, value: n } : { store: false };
}

/** The field's text for a stored value: a number, or text a person left in it (flagged by the checks). */
function shownNumber(value: unknown): string {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? value : '';
}

/**
 * A number field that keeps what is being typed ("0.", "-") until it reads as a number. A number
 * out of range goes into the document as it is, so the form's problems and the run's list it and
 * it stays in the field after focus leaves; text that is no number says so while typed, and is
 * kept (and flagged) when focus leaves rather than silently put back.
 */
export function NumberWidget({ id, spec, value, set, describedBy, invalid, placeholder }: WidgetProps & { placeholder?: string }) {
  const stored = shownNumber(value);
  const [draft, setDraft] = useState(stored);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    // An undo or another control changed the value: show it (but keep "2.50" while it means 2.5).
    setDraft((d) => (d.trim() !== '' && (d === stored || Number(d) === Number(stored)) ? d : stored));
    setError(undefined);
  }, [stored, spec]);
  const errorId = `${id}-typing`;
  return (
    <>
      <input
        id={id}
        className="input number"
        type="text"
        inputMode={spec.integer ? 'numeric' : 'decimal'}
        value={draft}
        placeholder={placeholder ?? (typeof spec.defaultValue === 'number' ? `${spec.defaultValue} (default)` : 'default')}
        aria-describedby={[describedBy, error ? errorId : undefined].filter(Boolean).join(' ') || undefined}
        aria-invalid={invalid || error !== undefined || undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          const typed = typedNumber(e.target.value);
          const parsed = parseNumberInput(e.target.value, spec);
          // Range problems come back from the checks under the field; only "not a number" is said here.
          setError(typed.store ? undefined : parsed.ok ? undefined : parsed.reason);
          if (typed.store) set(typed.value, { typing: true });
        }}
        onBlur={() => {
          if (!typedNumber(draft).store && draft.trim() !== stored.trim()) set(draft.trim(), { typing: true });
          setError(undefined);
        }}
      />
      {error && <p id={errorId} className="field-issue">{error}</p>}
    </>
  );
}

export function SliderWidget(props: WidgetProps) {
  const { id, spec, value, set, describedBy } = props;
  const min = spec.min ?? 0;
  const max = spec.max ?? 1;
  const shown = typeof value === 'number' ? value : typeof spec.defaultValue === 'number' ? spec.defaultValue : min;
  return (
    <div className="slider-row">
      <input
        className="slider"
        type="range"
        min={min}
        max={max}
        step={(max - min) / 100}
        value={shown}
        aria-label={`${spec.title} slider`}
        aria-describedby={describedBy}
        onChange={(e) => set(Number(e.target.value), { typing: true })}
      />
      <NumberWidget {...props} id={id} placeholder={typeof spec.defaultValue === 'number' ? String(spec.defaultValue) : 'default'} />
    </div>
  );
}
