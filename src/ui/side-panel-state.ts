/**
 * The side panel (run and history) beside the canvas: open or collapsed to a rail that keeps Run
 * and Cancel, and how wide it is. Both are remembered per browser.
 */
import { createSmallStore } from './small-store';

export interface SidePanelState {
  open: boolean;
  /** Width in CSS pixels when open. */
  width: number;
}

const KEY = 'atelier.sidePanel';
export const SIDE_PANEL_MIN = 260;
export const SIDE_PANEL_MAX = 640;
export const SIDE_PANEL_DEFAULT = 320;
/** How far one arrow key press moves the panel's edge. */
export const SIDE_PANEL_STEP = 20;

/** The widest the panel may be in a window `viewport` wide: the canvas keeps at least half. */
export function maxWidth(viewport: number): number {
  return Math.max(SIDE_PANEL_MIN, Math.min(SIDE_PANEL_MAX, Math.floor(viewport / 2)));
}

export function clampWidth(width: number, viewport: number): number {
  return Math.round(Math.min(maxWidth(viewport), Math.max(SIDE_PANEL_MIN, width)));
}

function read(): SidePanelState {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<SidePanelState> | null;
    return {
      open: raw?.open !== false,
      width: typeof raw?.width === 'number' && Number.isFinite(raw.width) ? Math.min(SIDE_PANEL_MAX, Math.max(SIDE_PANEL_MIN, raw.width)) : SIDE_PANEL_DEFAULT,
    };
  } catch {
    return { open: true, width: SIDE_PANEL_DEFAULT };
  }
}

export const sidePanelStore = createSmallStore<SidePanelState>(read());

function write(next: SidePanelState): void {
  sidePanelStore.set(next);
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage refused (a private window): the panel still changes, it is just not remembered.
  }
}

export function toggleSidePanel(): void {
  write({ ...sidePanelStore.get(), open: !sidePanelStore.get().open });
}

export function openSidePanel(): void {
  if (!sidePanelStore.get().open) write({ ...sidePanelStore.get(), open: true });
}

export function setSidePanelWidth(width: number): void {
  const next = clampWidth(width, window.innerWidth);
  if (next !== sidePanelStore.get().width) write({ ...sidePanelStore.get(), width: next });
}
