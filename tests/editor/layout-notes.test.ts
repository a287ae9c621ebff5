/** Auto-layout and free notes: a note beside a node keeps its place beside it; other notes stay put. */
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import type { Workflow, WorkflowNote } from '../../workflow/schema';
import { computeLayout } from '../../src/canvas/auto-layout';
import { layoutRequest, NOTE_REACH, placeLaidOut } from '../../src/canvas/layout-input';
import type { SizeBook } from '../../src/canvas/size-book';
import type { Rect } from '../../src/store/frames';
import { EMPTY_SELECTION, type Selection } from '../../src/store/state';

const SIZE = { width: 300, height: 200 };
const sizes: SizeBook = { size: () => SIZE };
const meta = { title: 'Notes', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };

const note = (id: string, x: number, y: number): WorkflowNote => ({ id, position: { x, y }, size: { width: 200, height: 120 }, text: id });

/** Three nodes piled at one spot, wired a → b → c, with `notes` around them. */
function pile(notes: WorkflowNote[], groups: Workflow['groups'] = undefined): Workflow {
  return {
    format: 'atelier.workflow', version: 1, metadata: meta,
    nodes: [
      { id: 'a', type: 'text', position: { x: 0, y: 0 }, params: {} },
      { id: 'b', type: 'text-to-image', position: { x: 20, y: 10 }, params: {} },
      { id: 'c', type: 'preview', position: { x: 2000, y: 0 }, params: {} },
    ],
    edges: [
      { id: 'e1', source: { node: 'a', port: 'text' }, target: { node: 'b', port: 'prompt' } },
      { id: 'e2', source: { node: 'b', port: 'image' }, target: { node: 'c', port: 'value' } },
    ],
    notes,
    ...(groups ? { groups } : {}),
  };
}

async function layout(doc: Workflow, selection: Selection = EMPTY_SELECTION) {
  const request = layoutRequest(doc, selection, registry, sizes)!;
  return placeLaidOut(request, await computeLayout(request.graph, request.origin));
}

const overlaps = (p: Rect, q: Rect) => p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;

describe('auto-layout with free notes', () => {
  it('moves a note written beside a node with it, at the same offset, and puts nothing on it', async () => {
    // Above c, 30 px clear of it; c moves a long way left.
    const doc = pile([note('about-c', 2050, -150)]);
    const at = await layout(doc);
    expect(at['note:about-c']).toEqual({ x: at.c!.x + 50, y: at.c!.y - 150 });
    expect(at.c!.x).toBeLessThan(2000);
    const noteRect = { ...at['note:about-c']!, width: 200, height: 120 };
    for (const id of ['a', 'b', 'c']) expect(overlaps(noteRect, { ...at[id]!, ...SIZE }), `the note overlaps ${id}`).toBe(false);
    for (const [p, q] of [['a', 'b'], ['b', 'c'], ['a', 'c']] as const) expect(overlaps({ ...at[p]!, ...SIZE }, { ...at[q]!, ...SIZE })).toBe(false);
  });

  it('goes with the nearest node only', async () => {
    // Right of c (10 px clear) and far from a and b.
    const at = await layout(pile([note('n', 2310, 40)]));
    expect(at['note:n']).toEqual({ x: at.c!.x + 310, y: at.c!.y + 40 });
  });

  it('leaves a note far from every node where it is', async () => {
    const at = await layout(pile([note('far', 0, 300 + NOTE_REACH + 1)]));
    expect(at['note:far']).toBeUndefined();
    expect(Object.keys(at).sort()).toEqual(['a', 'b', 'c']);
  });

  it('in a layout of the selection, moves the notes of the selected nodes and no others', async () => {
    const doc = pile([note('about-c', 2050, -150), note('about-a', -250, 0)]);
    const at = await layout(doc, { nodes: new Set(['b', 'c']), edges: new Set() });
    expect(at['note:about-c']).toEqual({ x: at.c!.x + 50, y: at.c!.y - 150 });
    expect(at['note:about-a']).toBeUndefined();
    expect(at.a).toBeUndefined();
  });

  it('leaves a note that belongs to a group to the group', async () => {
    const doc = pile([note('in-group', 2050, -150)], [
      { id: 'g', title: 'G', color: 'blue', position: { x: 1990, y: -200 }, size: { width: 400, height: 500 }, nodes: ['c'], notes: ['in-group'] },
    ]);
    const request = layoutRequest(doc, EMPTY_SELECTION, registry, sizes)!;
    expect(request.boxes.size).toBe(0);
    expect(request.graph.items.find((i) => i.id === 'note:in-group')).toMatchObject({ group: 'g' });
  });
});
