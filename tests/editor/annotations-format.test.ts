/** Notes and groups in the workflow file: read, checked, written, scanned before sharing, never run. */
import { describe, expect, it } from 'vitest';
import { planRun } from '../../workers/plan';
import { registry } from '../../nodes/index';
import { WorkflowLoadError } from '../../workflow/errors';
import { removeFindings, scanWorkflowForExport } from '../../workflow/export-scan';
import { loadWorkflow } from '../../workflow/load';
import { crossCheck, type Workflow } from '../../workflow/schema';
import { serializeWorkflow } from '../../workflow/serialize';

const meta = { title: 'Framed', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };
const KEY = 'sk-proj-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';

function framed(): Record<string, unknown> {
  return {
    format: 'atelier.workflow',
    version: 1,
    metadata: meta,
    nodes: [
      { id: 'words', type: 'text', position: { x: 0, y: 0 }, params: { text: 'a fox' } },
      { id: 'show', type: 'preview', position: { x: 400, y: 0 }, params: {} },
    ],
    edges: [{ id: 'e1', source: { node: 'words', port: 'text' }, target: { node: 'show', port: 'value' } }],
    notes: [{ id: 'note-1', position: { x: 0, y: -200 }, size: { width: 240, height: 120 }, text: 'Try **cinematic** first' }],
    groups: [{
      id: 'group-1', title: 'Inputs', color: 'blue', position: { x: -40, y: -260 }, size: { width: 400, height: 400 },
      nodes: ['words'], notes: ['note-1'],
    }],
  };
}

const knownTypes = new Set(registry.list().map((d) => d.type));

describe('notes and groups in the file', () => {
  it('load → save → load is byte-stable, fields in the schema order', () => {
    const first = serializeWorkflow(loadWorkflow(JSON.stringify(framed()), { knownTypes }).workflow);
    const again = serializeWorkflow(loadWorkflow(first, { knownTypes }).workflow);
    expect(again).toBe(first);
    const keys = Object.keys(JSON.parse(first) as object);
    expect(keys).toEqual(['format', 'version', 'metadata', 'nodes', 'edges', 'notes', 'groups']);
    expect(first).toContain('"text": "Try **cinematic** first"');
  });

  it('writes no notes or groups key when there are none, so older files keep their bytes', () => {
    const { workflow } = loadWorkflow(JSON.stringify({ ...framed(), notes: undefined, groups: undefined }), { knownTypes });
    const text = serializeWorkflow({ ...workflow, notes: [], groups: [] });
    expect(text).not.toMatch(/"notes"|"groups"/);
  });

  it('fills a group without member lists with empty ones', () => {
    const doc = framed();
    doc.groups = [{ id: 'g', title: 'Empty', color: 'slate', position: { x: 0, y: 0 }, size: { width: 100, height: 100 } }];
    const { workflow } = loadWorkflow(JSON.stringify(doc), { knownTypes });
    expect(workflow.groups?.[0]).toMatchObject({ nodes: [], notes: [] });
  });

  it('refuses members that do not exist, members of two groups, duplicate ids and CSS for a colour', () => {
    const doc = framed() as unknown as Workflow;
    const second = { ...doc.groups![0]!, nodes: ['words', 'ghost'], notes: [] };
    const issues = crossCheck({ ...doc, notes: [...doc.notes!, doc.notes![0]!], groups: [...doc.groups!, second] });
    expect(issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      "notes.1.id: duplicate note id 'note-1' (also notes[0])",
      "groups.1.id: duplicate group id 'group-1' (also groups[0])",
      "groups.1.nodes.0: node 'words' is already in group 'group-1'",
      'groups.1.nodes.1: no node \'ghost\'',
    ]);
    const css = framed();
    css.groups = [{ ...(framed().groups as object[])[0], color: 'red; background: url(x)' }];
    expect(() => loadWorkflow(JSON.stringify(css), { knownTypes })).toThrow(WorkflowLoadError);
    expect(() => loadWorkflow(JSON.stringify(css), { knownTypes })).toThrow(/groups\[0\]\.color: must be one of slate, blue/);
  });

  it('opens a newer file whose groups this version reads, dropping only their unknown fields', () => {
    const doc = framed();
    doc.version = 9;
    (doc.groups as Record<string, unknown>[])[0]!.collapsed = true;
    const result = loadWorkflow(JSON.stringify(doc), { knownTypes });
    expect(result.workflow.groups?.[0]?.nodes).toEqual(['words']);
    expect(result.warnings.map((w) => `${w.code} ${w.path}`)).toContain('unknown-field-dropped groups[0].collapsed');
  });

  it('is never part of what runs: the plan holds the nodes only', () => {
    const { workflow } = loadWorkflow(JSON.stringify(framed()), { knownTypes });
    const plan = planRun(workflow, registry);
    expect(plan.ok).toBe(true);
    expect(JSON.stringify(plan)).not.toContain('note-1');
  });

  it('reports a key pasted into a note or a group title on load, keeps the prose, and removes it on export', () => {
    const doc = framed();
    (doc.notes as Record<string, unknown>[])[0]!.text = `call with ${KEY} please`;
    (doc.groups as Record<string, unknown>[])[0]!.title = KEY;
    const { workflow, warnings } = loadWorkflow(JSON.stringify(doc), { knownTypes });
    expect(warnings.filter((w) => w.code === 'credential-in-text').map((w) => w.path)).toEqual(['notes[0].text', 'groups[0].title']);
    expect(workflow.notes?.[0]?.text).toContain(KEY);

    const { findings } = scanWorkflowForExport(workflow);
    expect(findings.map((f) => f.field)).toEqual(['the text of note #1', 'the title of group #1']);
    const clean = removeFindings(workflow, findings);
    expect(clean.notes?.[0]?.text).toBe('call with [removed] please');
    expect(clean.groups?.[0]?.title).toBe('[removed]');
    expect(serializeWorkflow(clean)).not.toContain(KEY);
  });
});
