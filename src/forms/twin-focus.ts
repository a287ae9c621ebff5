/**
 * Which form has the focus, when a node's form is drawn twice (on the node and in the inspector).
 * While one copy is being typed in, the other keeps the values it last drew and catches up when
 * the focus leaves: in Chrome, a text control whose value is rewritten anywhere in the page ends
 * the run of typing that Ctrl+Z takes back in the focused field, so a twin updated on every key
 * would make Ctrl+Z take back one character at a time.
 */
import { useRef, useSyncExternalStore } from 'react';
import { createSmallStore } from '../ui/small-store';

export type FormPlace = 'node' | 'inspector';

const focus = createSmallStore<{ nodeId: string; place: FormPlace } | null>(null);

function set(next: { nodeId: string; place: FormPlace } | null): void {
  const focused = focus.get();
  if (focused?.nodeId === next?.nodeId && focused?.place === next?.place) return;
  focus.set(next);
}

/** Focus handlers for a form's root element. */
export function formFocusHandlers(nodeId: string, place: FormPlace) {
  return {
    onFocus: () => set({ nodeId, place }),
    onBlur: (e: { currentTarget: Element; relatedTarget: Element | null }) => {
      // Into another form: its own focus handler says so, with no moment between the two.
      if (e.relatedTarget?.closest('.node-form')) return;
      const focused = focus.get();
      if (focused?.nodeId === nodeId && focused.place === place) set(null);
    },
  };
}

/** `value`, or the one last drawn while `hold` is true. */
function useHeld<T>(hold: boolean, value: T): T {
  const held = useRef(value);
  if (!hold) held.current = value;
  return held.current;
}

/** `value`, or the one last drawn while the same node's other form has the focus. */
export function useHeldWhileTwinFocused<T>(nodeId: string, place: FormPlace, value: T): T {
  const twinFocused = useSyncExternalStore(focus.subscribe, () => {
    const focused = focus.get();
    return focused !== null && focused.nodeId === nodeId && focused.place !== place;
  });
  return useHeld(twinFocused, value);
}

/**
 * `value`, or the one last drawn while a form on a node has the focus: the inspector turns to a
 * node clicked in its form only once the focus leaves it, as its new form would otherwise fill
 * in (problems, token counts) under the first keys typed.
 */
export function useHeldWhileNodeFormFocused<T>(value: T): T {
  return useHeld(useSyncExternalStore(focus.subscribe, () => focus.get()?.place === 'node'), value);
}
