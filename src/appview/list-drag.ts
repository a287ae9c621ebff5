/**
 * Reordering a list by dragging a row's grip with the pointer (mouse, pen or touch), for the side
 * panel's app lists. Plain pointer events with pointer capture: no drag-and-drop library, and no
 * HTML5 drag (which touch screens lack). Nothing changes until the pointer is let go, so a whole
 * drag is one move and one undo step; the ↑ ↓ buttons stay for the keyboard.
 */
import { useState, type PointerEvent as ReactPointerEvent } from 'react';

/**
 * Where a row dragged from place `from` lands with the pointer at `y`: the number of the other
 * rows whose middle is above the pointer (`middles`: each row's vertical middle, in list order).
 */
export function dropIndex(y: number, middles: readonly number[], from: number): number {
  let to = 0;
  middles.forEach((middle, i) => {
    if (i !== from && middle < y) to++;
  });
  return to;
}

/** The drag under way: the row it started from and where it would land now. */
export interface ListDrag {
  from: number;
  to: number;
}

/** The vertical middles of a list's rows, read from the page now (the panel may have scrolled). */
function middlesOf(list: Element | null): number[] {
  return [...(list?.children ?? [])].map((row) => {
    const box = row.getBoundingClientRect();
    return box.top + box.height / 2;
  });
}

/**
 * The drag state of one list and the grip's pointer handlers: `grip(i)` goes on row i's handle;
 * `onMove(from, to)` is called once, when the pointer is let go somewhere else than it started.
 */
export function useListDrag(onMove: (from: number, to: number) => void) {
  const [drag, setDrag] = useState<ListDrag | null>(null);
  const grip = (index: number) => ({
    onPointerDown(e: ReactPointerEvent<HTMLElement>) {
      if (e.button !== 0) return;
      e.preventDefault();
      e.currentTarget.setPointerCapture(e.pointerId);
      setDrag({ from: index, to: index });
    },
    onPointerMove(e: ReactPointerEvent<HTMLElement>) {
      if (drag?.from !== index) return;
      const to = dropIndex(e.clientY, middlesOf(e.currentTarget.closest('ol, ul')), index);
      if (to !== drag.to) setDrag({ from: index, to });
    },
    onPointerUp(e: ReactPointerEvent<HTMLElement>) {
      if (drag?.from !== index) return;
      const to = dropIndex(e.clientY, middlesOf(e.currentTarget.closest('ol, ul')), index);
      setDrag(null);
      if (to !== index) onMove(index, to);
    },
    onPointerCancel() {
      setDrag(null);
    },
    onLostPointerCapture() {
      setDrag(null);
    },
  });
  return { drag, grip };
}

/** The row's look during a drag: the one dragged, and the line where it would land. */
export function dragClass(drag: ListDrag | null, index: number): string {
  if (drag === null) return '';
  if (index === drag.from) return ' is-dragged';
  if (drag.to === drag.from) return '';
  if (index === drag.to) return drag.to > drag.from ? ' drop-after' : ' drop-before';
  return '';
}
