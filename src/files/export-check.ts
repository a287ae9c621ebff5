/**
 * The check before a workflow leaves the page (Save, copying nodes to the clipboard): every text
 * in it, prompts and notes included, is scanned for what looks like a credential
 * (workflow/export-scan.ts). Nothing found: it goes as it is. Something found: the person is
 * shown each finding by node and field and chooses to export with them removed, or not at all.
 */
import type { NodeRegistry } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import type { ExportFinding, removeFindings, scanWorkflowForExport } from '../../workflow/export-scan';
import type { Workflow } from '../../workflow/schema';
import { exportCheckStore, type ExportPurpose } from './export-check-store';

export { exportCheckStore, type ExportCheck, type ExportPurpose } from './export-check-store';

interface Scanner {
  scanWorkflowForExport: typeof scanWorkflowForExport;
  removeFindings: typeof removeFindings;
}
let loading: Promise<Scanner> | undefined;
let loaded: Scanner | undefined;

/** Fetches the scanner (small; not needed to paint the first graph). */
export function loadScanner(): Promise<Scanner> {
  loading ??= import('../../workflow/export-scan').then((m) => (loaded = m));
  return loading;
}

function scanWith(scanner: Scanner, workflow: Workflow, registry: NodeRegistry): ExportFinding[] {
  return scanner.scanWorkflowForExport(workflow, { declaredParams: catalogueLoadOptions(registry).declaredParams }).findings;
}

/**
 * The findings in `workflow` right now, or undefined while the scanner is still loading. For
 * the copy event, which must fill the clipboard before it returns.
 */
export function scanNow(workflow: Workflow, registry: NodeRegistry): ExportFinding[] | undefined {
  return loaded && scanWith(loaded, workflow, registry);
}

/**
 * The workflow to export: as it is when nothing looks like a credential, with the findings
 * removed when the person asks for that, or null when they cancel.
 */
export async function checkBeforeExport(workflow: Workflow, purpose: ExportPurpose, registry: NodeRegistry): Promise<Workflow | null> {
  const scanner = await loadScanner();
  const findings = scanWith(scanner, workflow, registry);
  if (findings.length === 0) return workflow;
  const { findingPlaces } = await import('./load-report');
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
  return remove ? scanner.removeFindings(workflow, findings) : null;
}
