/**
 * The check before a workflow leaves the page (Save, copying nodes to the clipboard): every text
 * in it, prompts and notes included, is scanned for what looks like a credential
 * (workflow/export-scan.ts). Nothing found: it goes as it is. Something found: the person is
 * shown each finding by node and field and chooses to export with them removed, or not at all.
 */
import type { NodeRegistry } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import { removeFindings, scanWorkflowForExport, type ExportFinding } from '../../workflow/export-scan';
import type { Workflow } from '../../workflow/schema';
import { exportCheckStore, type ExportPurpose } from './export-check-store';
import { findingPlaces } from './load-report';

export { exportCheckStore, type ExportCheck, type ExportPurpose } from './export-check-store';

/** What in `workflow` looks like a credential, by node and field. */
export function scanNow(workflow: Workflow, registry: NodeRegistry): ExportFinding[] {
  return scanWorkflowForExport(workflow, { declaredParams: catalogueLoadOptions(registry).declaredParams }).findings;
}

/**
 * The workflow to export: as it is when nothing looks like a credential, with the findings
 * removed when the person asks for that, or null when they cancel.
 */
export async function checkBeforeExport(workflow: Workflow, purpose: ExportPurpose, registry: NodeRegistry): Promise<Workflow | null> {
  const findings = scanNow(workflow, registry);
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
  return remove ? removeFindings(workflow, findings) : null;
}
