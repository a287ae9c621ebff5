/**
 * The check before a workflow leaves the page (Save, copying nodes to the clipboard): every text
 * in it, prompts and notes included, is scanned for what looks like a credential
 * (workflow/export-scan.ts). Nothing found: it goes as it is. Something found: the person is
 * shown each finding by node and field and chooses to export with them removed, or not at all.
 *
 * The scanner loads on first use, or as soon as the person first touches the page
 * (`warmExportCheck`), so the editor's start does not wait for it and a copy rarely does.
 */
import type { NodeRegistry } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import type * as ExportScan from '../../workflow/export-scan';
import type { ExportFinding } from '../../workflow/export-scan';
import type { Workflow } from '../../workflow/schema';
import { exportCheckStore, type ExportPurpose } from './export-check-store';
import { findingPlaces } from './load-report';

export { exportCheckStore, type ExportCheck, type ExportPurpose } from './export-check-store';

type Scanner = typeof ExportScan;
let scanner: Scanner | undefined;
let loading: Promise<Scanner> | undefined;

function loadScanner(): Promise<Scanner> {
  loading ??= import('../../workflow/export-scan').then((m) => (scanner = m));
  return loading;
}

/** Starts loading the scanner on the person's first key or pointer press, if nothing has yet. */
export function warmExportCheck(target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> = document): void {
  const warm = () => {
    target.removeEventListener('pointerdown', warm, { capture: true });
    target.removeEventListener('keydown', warm, { capture: true });
    void loadScanner();
  };
  target.addEventListener('pointerdown', warm, { capture: true });
  target.addEventListener('keydown', warm, { capture: true });
}

function scanWith(m: Scanner, workflow: Workflow, registry: NodeRegistry): ExportFinding[] {
  return m.scanWorkflowForExport(workflow, { declaredParams: catalogueLoadOptions(registry).declaredParams }).findings;
}

/**
 * What in `workflow` looks like a credential, by node and field; undefined while the scanner
 * has not loaded (it starts loading then), for callers that cannot wait, such as a copy event.
 */
export function scanNow(workflow: Workflow, registry: NodeRegistry): ExportFinding[] | undefined {
  if (scanner === undefined) {
    void loadScanner();
    return undefined;
  }
  return scanWith(scanner, workflow, registry);
}

/**
 * The workflow to export: as it is when nothing looks like a credential, with the findings
 * removed when the person asks for that, or null when they cancel.
 */
export async function checkBeforeExport(workflow: Workflow, purpose: ExportPurpose, registry: NodeRegistry): Promise<Workflow | null> {
  const m = await loadScanner();
  const findings = scanWith(m, workflow, registry);
  if (findings.length === 0) return workflow;
  const remove = await new Promise<boolean>((resolve) => {
    // A check still open (a second Save) is answered "cancel" first: one question at a time.
    exportCheckStore.get()?.decide(false);
    exportCheckStore.set({
      purpose,
      findings,
      places: findingPlaces(findings, workflow, registry),
      removable: findings.every((f) => f.remedy !== 'manual'),
      editsCanvas: purpose === 'save',
      decide: (choice) => {
        exportCheckStore.set(null);
        resolve(choice);
      },
    });
  });
  return remove ? m.removeFindings(workflow, findings) : null;
}
