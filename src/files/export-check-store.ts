/**
 * The credential check's question while it is being asked (export-check.ts asks it,
 * ExportCheckDialog.tsx shows it): apart from the check itself, so the canvas can tell whether to
 * draw the dialog without loading the scanner.
 */
import type { ExportFinding } from '../../workflow/export-scan';
import { createSmallStore } from '../ui/small-store';

export type ExportPurpose = 'save' | 'copy';

export interface ExportCheck {
  purpose: ExportPurpose;
  findings: readonly ExportFinding[];
  /** Each finding's place as a person names it: `prompt of “Hero shot” (t2i)`. */
  places: readonly string[];
  /** False when a finding is one only a person can fix (in a node type or a port name). */
  removable: boolean;
  /** Whether the canvas keeps what the export leaves out (a copy) or loses it too (a save). */
  editsCanvas: boolean;
  decide(remove: boolean): void;
}

/** The finding shown now, if any; ExportCheckDialog draws it. */
export const exportCheckStore = createSmallStore<ExportCheck | null>(null);
