/**
 * The side panel's frame: a handle on its left edge to drag (or, focused, arrow keys) to resize
 * it, and a button that collapses it to a rail holding Run and Cancel (P does the same). Width and
 * state are remembered per browser (side-panel-state.ts).
 */
import { useEffect, useRef, type CSSProperties, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useSmallStore } from './small-store';
import {
  maxWidth, setSidePanelWidth, SIDE_PANEL_MIN, SIDE_PANEL_STEP, sidePanelStore, toggleSidePanel,
} from './side-panel-state';

export const SIDE_PANEL_ID = 'side-panel';

function ResizeHandle({ width }: { width: number }) {
  const drag = useRef<{ x: number; width: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, width };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    // The panel is on the right: its left edge moved left makes it wider.
    if (start) setSidePanelWidth(start.width + start.x - e.clientX);
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = e.key === 'ArrowLeft' ? width + SIDE_PANEL_STEP
      : e.key === 'ArrowRight' ? width - SIDE_PANEL_STEP
        : e.key === 'Home' ? SIDE_PANEL_MIN
          : e.key === 'End' ? maxWidth(window.innerWidth)
            : undefined;
    if (to === undefined) return;
    e.preventDefault();
    setSidePanelWidth(to);
  };
  return (
    <div
      className="side-panel__handle"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the side panel"
      aria-controls={SIDE_PANEL_ID}
      aria-valuemin={SIDE_PANEL_MIN}
      aria-valuemax={maxWidth(window.innerWidth)}
      aria-valuenow={width}
      title="Drag to resize the side panel (or focus it and use the arrow keys)"
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}

export function SidePanel({ children }: { children: ReactNode }) {
  const { open, width } = useSmallStore(sidePanelStore);
  const style = { '--side-width': `${width}px` } as CSSProperties;
  // What the panel takes from the window's right edge, for what floats beside it (the toasts).
  useEffect(() => {
    document.documentElement.style.setProperty('--side-panel-taken', open ? `${width}px` : 'var(--side-rail-width)');
  }, [open, width]);
  return (
    <aside id={SIDE_PANEL_ID} className={`side-panel${open ? '' : ' collapsed'}`} style={style} aria-label="Side panel">
      {open && <ResizeHandle width={width} />}
      <div className="side-panel__body">
        <button
          type="button"
          className="icon-button side-panel__toggle"
          aria-expanded={open}
          aria-controls={SIDE_PANEL_ID}
          aria-keyshortcuts="P"
          aria-label={open ? 'Collapse the side panel' : 'Expand the side panel'}
          title={open ? 'Collapse the side panel to Run and Cancel (P)' : 'Show the side panel: cost, last run, history (P)'}
          onClick={toggleSidePanel}
        >
          <span aria-hidden="true">{open ? '»' : '«'}</span>
        </button>
        {children}
      </div>
    </aside>
  );
}
