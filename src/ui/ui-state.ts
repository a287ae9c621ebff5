/**
 * Which overlay is open: the node palette (where, and for which dangling wire), a dialog, or the
 * list of problems with a file. UI-only; never history, never saved.
 */
import type { PortKind } from '../../nodes/types';
import type { WorkflowIssue } from '../../workflow/errors';
import type { AddConnection } from '../store/graph-actions';
import type { XY } from '../store/state';
import { createSmallStore } from './small-store';

export interface PaletteRequest {
  /** Where the palette appears, in window pixels. */
  screen: XY;
  /** Where the chosen node goes, in flow coordinates. */
  flow: XY;
  /** A wire dropped on empty canvas: only nodes that can complete it are offered. */
  connect?: AddConnection & { kind: PortKind; side: 'output' | 'input'; accepts?: readonly PortKind[] };
}

export interface ProblemReport {
  title: string;
  summary: string;
  issues: readonly WorkflowIssue[];
  /** Refused (nothing changed) or opened with warnings. */
  severity: 'error' | 'warning';
}

export type DialogName = 'settings' | 'help';

export interface UiState {
  palette: PaletteRequest | null;
  dialog: DialogName | null;
  problems: ProblemReport | null;
}

export const uiStore = createSmallStore<UiState>({ palette: null, dialog: null, problems: null });

export const openPalette = (palette: PaletteRequest) => uiStore.set((s) => ({ ...s, palette }));
export const closePalette = () => uiStore.set((s) => (s.palette ? { ...s, palette: null } : s));
export const openDialog = (dialog: DialogName) => uiStore.set((s) => ({ ...s, dialog }));
export const closeDialog = () => uiStore.set((s) => ({ ...s, dialog: null }));
export const showProblems = (problems: ProblemReport) => uiStore.set((s) => ({ ...s, problems }));
export const closeProblems = () => uiStore.set((s) => ({ ...s, problems: null }));
