/**
 * A textarea whose typing Ctrl+Z takes back as the browser does in a plain one: the whole run of
 * typing at once, not one character at a time.
 *
 * React writes the `defaultValue` (the text content) of every textarea it manages after each
 * input event, and again when it re-renders one, controlled or not; in Chrome any such write
 * ends the browser's group of typed characters (facebook/react#8514). So this textarea is not
 * React's: it is made and kept here, inside an element React draws (`display: contents`, so
 * layout and labels see the textarea alone). Its text and the attributes that change as the
 * person types (whether it is invalid, what describes it) are written only when they differ
 * from what it shows, and every change reaches `onText` at once, so the document (the autosave,
 * a run) always holds what the field shows.
 */
import { useLayoutEffect, useRef } from 'react';

export interface TextAreaProps {
  value: string;
  /** Every change of the text: typed, undone, pasted or dropped in the field. */
  onText: (text: string) => void;
  onBlur?: (event: FocusEvent) => void;
  onKeyDown?: (event: KeyboardEvent, field: HTMLTextAreaElement) => void;
  describedBy?: string | undefined;
  invalid?: boolean;
  // Fixed for the life of the field; a change makes the element anew.
  id?: string;
  className?: string;
  rows?: number;
  maxLength?: number | undefined;
  placeholder?: string;
  autoFocus?: boolean;
  'aria-label'?: string;
}

export function TextArea(props: TextAreaProps) {
  const { value, describedBy, invalid, id, className, rows, maxLength, placeholder, autoFocus } = props;
  const label = props['aria-label'];
  const host = useRef<HTMLSpanElement>(null);
  const field = useRef<HTMLTextAreaElement | null>(null);
  // What the latest render was given, for the listeners of an element made once.
  const latest = useRef(props);
  useLayoutEffect(() => {
    latest.current = props;
  });

  useLayoutEffect(() => {
    const textarea = document.createElement('textarea');
    const fixed: [string, string | number | undefined][] = [
      ['id', id], ['class', className], ['rows', rows], ['maxlength', maxLength], ['placeholder', placeholder], ['aria-label', label],
    ];
    for (const [name, v] of fixed) setAttribute(textarea, name, v === undefined ? undefined : String(v));
    show(textarea, latest.current);
    textarea.addEventListener('input', () => latest.current.onText(textarea.value));
    textarea.addEventListener('blur', (e) => latest.current.onBlur?.(e));
    textarea.addEventListener('keydown', (e) => latest.current.onKeyDown?.(e, textarea));
    const wasFocused = field.current !== null && field.current === document.activeElement;
    host.current?.replaceChildren(textarea);
    field.current = textarea;
    if (autoFocus || wasFocused) textarea.focus();
  }, [id, className, rows, maxLength, placeholder, autoFocus, label]);

  useLayoutEffect(() => {
    if (field.current) show(field.current, { value, describedBy, invalid });
  }, [value, describedBy, invalid]);

  return <span ref={host} className="textarea-host" />;
}

/** Shows the text (another change: an undo of the graph, a paste, a file opened) and the state. */
function show(el: HTMLTextAreaElement, { value, describedBy, invalid }: Pick<TextAreaProps, 'value' | 'describedBy' | 'invalid'>): void {
  if (el.value !== value) el.value = value;
  setAttribute(el, 'aria-describedby', describedBy || undefined);
  setAttribute(el, 'aria-invalid', invalid ? 'true' : undefined);
}

function setAttribute(el: Element, name: string, value: string | undefined): void {
  if (value === undefined) el.removeAttribute(name);
  else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}
