/** Sharing safely, headless: the check before an export, the report after a load, and old copies pruned. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { loadWorkflow } from '../../workflow/load';
import type { Workflow } from '../../workflow/schema';
import { type AutosaveRecord, pruneCopies, readSlot, writeSlot } from '../../src/files/autosave-db';
import { checkBeforeExport, exportCheckStore } from '../../src/files/export-check';
import { loadReport } from '../../src/files/load-report';

const KEY = 'sk-proj-Q3x9Vb7Lm2Tn8Rw4Ky6Pz1Hd5Fj0Gs3A';
const meta = { title: 'Borrowed', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };

function borrowed(): Workflow {
  return {
    format: 'atelier.workflow', version: 1, metadata: meta,
    nodes: [
      { id: 'draw', type: 'text-to-image', title: 'Hero shot', position: { x: 0, y: 0 }, params: { prompt: `castle ${KEY}`, seed: 7 } },
      { id: 'words', type: 'text', position: { x: 0, y: 400 }, params: { text: 'a token of friendship' } },
    ],
    edges: [],
    notes: [{ id: 'note-1', position: { x: 0, y: -200 }, size: { width: 200, height: 100 }, text: `ask for Bearer ${KEY}` }],
  };
}

/** Answers the check the way a person does, once it is asked. */
function answer(remove: boolean): Promise<readonly string[]> {
  return new Promise((resolve) => {
    const stop = exportCheckStore.subscribe(() => {
      const check = exportCheckStore.get();
      if (!check) return;
      stop();
      resolve(check.places);
      check.decide(remove);
    });
  });
}

describe('the check before an export', () => {
  it('lets a clean workflow through without asking', async () => {
    const clean = { ...borrowed(), notes: [] };
    clean.nodes[0]!.params.prompt = 'castle at dawn';
    expect(await checkBeforeExport(clean, 'save', registry)).toBe(clean);
    expect(exportCheckStore.get()).toBeNull();
  });

  it('names each finding by node title and field label, and removes them on request', async () => {
    const asked = answer(true);
    const checked = await checkBeforeExport(borrowed(), 'save', registry);
    expect(await asked).toEqual(['Prompt of “Hero shot”', 'the text of note #1']);
    expect(JSON.stringify(checked)).not.toContain(KEY);
    expect(checked!.nodes[0]!.params.prompt).toBe('castle [removed]');
    expect(checked!.nodes[1]!.params.text).toBe('a token of friendship');
    expect(checked!.notes![0]!.text).toBe('ask for [removed]');
  });

  it('tells untitled nodes of one type apart by their order, never by their ids', async () => {
    const twins = { ...borrowed(), notes: [] };
    twins.nodes = ['text-to-image', 'text-to-image-2'].map((id, i) => ({
      id, type: 'text-to-image', position: { x: 0, y: i * 400 }, params: { prompt: 'castle', negative_prompt: `blur ${KEY}` },
    }));
    const asked = answer(false);
    await checkBeforeExport(twins, 'save', registry);
    expect(await asked).toEqual(['Negative prompt of “Text to image” (1 of 2)', 'Negative prompt of “Text to image” (2 of 2)']);
  });

  it('gives nothing when the person cancels', async () => {
    const asked = answer(false);
    expect(await checkBeforeExport(borrowed(), 'copy', registry)).toBeNull();
    await asked;
    expect(exportCheckStore.get()).toBeNull();
  });
});

describe('the report after opening a file', () => {
  it('lists credential findings first, by node and field, never quoting them, and says a file cannot redirect requests', () => {
    const file = borrowed() as unknown as { nodes: { params: Record<string, unknown> }[] };
    file.nodes[0]!.params.api_key = 'hunter2hunter2';
    file.nodes[0]!.params.base_url = 'https://elsewhere.example';
    const { workflow, warnings } = loadWorkflow(JSON.stringify(file), { knownTypes: new Set(['text-to-image']) });
    const report = loadReport("'borrowed.json'", warnings, workflow, registry);
    expect(report.credentials).toBe(4);
    expect(report.issues.map((i) => i.path)).toEqual([
      'Prompt of “Hero shot”', 'api_key of “Hero shot”', 'base_url of “Hero shot”', 'note #1', 'type of “Text”',
    ]);
    expect(report.summary).toMatch(/^'borrowed\.json' opened, but it held what looks like credentials: 2 fields .* were removed; 2 texts hold .* kept as written/);
    expect(report.summary).toMatch(/A workflow cannot change where requests go or which token they carry/);
    expect(JSON.stringify(report)).not.toContain(KEY);
    expect(JSON.stringify(report)).not.toContain('hunter2');
  });

  it('keeps the plain summary when nothing looks like a credential', () => {
    const report = loadReport('The example', [{ code: 'unknown-node-type', path: 'nodes[0].type', message: 'unknown', nodeId: 'x' }], borrowed(), registry);
    expect(report).toEqual({ summary: 'The example opened. Read these before running or sharing it:', issues: [{ path: 'nodes[0].type', message: 'unknown' }], credentials: 0 });
  });
});

describe('copies kept by tabs', () => {
  it('keeps the newest five copies and this tab\'s own, and never the main autosave', async () => {
    const record = (savedAt: string): AutosaveRecord => ({
      format: 'atelier.autosave', version: 1, workflow: JSON.stringify(borrowed()), asInput: {}, dirty: false, savedAt,
    });
    await writeSlot('current', record('2020-01-01T00:00:00.000Z'), { rev: 0, tab: 't' });
    for (let day = 1; day <= 8; day++) {
      await writeSlot(`copy-${day}`, record(`2026-01-0${day}T00:00:00.000Z`), { rev: 0, tab: 't' });
    }
    await pruneCopies('copy-1');
    const present = async (slot: string) => (await readSlot(slot)) !== null;
    expect(await present('current')).toBe(true);
    expect(await present('copy-1')).toBe(true);
    for (const day of [8, 7, 6, 5]) expect(await present(`copy-${day}`)).toBe(true);
    for (const day of [2, 3, 4]) expect(await present(`copy-${day}`)).toBe(false);
  });
});
