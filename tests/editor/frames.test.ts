/** Notes, groups, bypass and layout moves through the store, headless: each one undo step. */
import { describe, expect, it } from 'vitest';
import { createWorkflow } from '../../workflow/create';
import { loadWorkflow } from '../../workflow/load';
import { serializeWorkflow } from '../../workflow/serialize';
import { createEditorStore } from '../../src/store/editor-store';
import { groupItem, noteItem } from '../../src/store/frames';
import { parsePaste } from '../../src/store/paste-text';

function store() {
  let now = 1_000_000;
  const s = createEditorStore({ initial: createWorkflow({ title: 'Frames' }), now: () => (now += 5000) });
  // As the canvas would measure them: 300 wide, 200 high.
  s.setMeasure((id) => (id.includes(':') ? undefined : { width: 300, height: 200 }));
  return s;
}

const position = (s: ReturnType<typeof store>, id: string) => s.getState().index.nodeById.get(id)!.position;
const group = (s: ReturnType<typeof store>, id = 'group-1') => s.getState().doc.groups!.find((g) => g.id === id)!;

describe('notes', () => {
  it('adds a note, edits its text as one step per typing burst, and deletes it', () => {
    let now = 0;
    const s = createEditorStore({ initial: createWorkflow(), now: () => now });
    const id = s.addNote({ x: 10.4, y: 20 }, 'hello');
    expect(s.getState().doc.notes).toEqual([{ id: 'note-1', position: { x: 10, y: 20 }, size: { width: 260, height: 160 }, text: 'hello' }]);
    expect([...s.getState().selection.nodes]).toEqual([noteItem(id)]);
    for (const text of ['hello w', 'hello wo', 'hello world']) {
      now += 200;
      s.setNoteText(id, text, { typing: true });
    }
    expect(s.getState().history.undoLabel).toBe('edit note');
    s.undo();
    expect(s.getState().doc.notes![0]!.text).toBe('hello');
    s.redo();
    s.select({ nodes: [noteItem(id)] });
    s.deleteSelection();
    // No empty list is left in the document (or the file).
    expect('notes' in s.getState().doc).toBe(false);
    s.undo();
    expect(s.getState().doc.notes).toHaveLength(1);
  });
});

describe('groups', () => {
  function framedPair() {
    const s = store();
    const a = s.addNode('text', { x: 0, y: 0 });
    const b = s.addNode('preview', { x: 400, y: 0 });
    const outside = s.addNode('text', { x: 2000, y: 0 });
    const note = s.addNote({ x: 0, y: 260 });
    const g = s.addGroup({ around: [a, b, noteItem(note)], title: ' Inputs ', color: 'green' });
    return { s, a, b, outside, note, g };
  }

  it('draws a frame around the chosen nodes and notes, which join it', () => {
    const { s, a, b, note, g } = framedPair();
    expect(group(s, g)).toEqual({
      id: 'group-1', title: 'Inputs', color: 'green',
      position: { x: -30, y: -74 }, size: { width: 760, height: 524 },
      nodes: [a, b], notes: [note],
    });
    expect([...s.getState().selection.nodes]).toEqual([groupItem(g)]);
  });

  it('moving the frame moves its nodes and notes with it, as one undo step', () => {
    const { s, a, b, outside, g } = framedPair();
    s.dragNodes({ [groupItem(g)]: { x: 70, y: -24 } });
    s.dragNodes({ [groupItem(g)]: { x: 170, y: 26 } });
    // Shown while dragging, not yet in the document.
    expect(s.getState().drag?.get(a)).toEqual({ x: 200, y: 100 });
    expect(position(s, a)).toEqual({ x: 0, y: 0 });
    s.endDrag();
    expect(position(s, a)).toEqual({ x: 200, y: 100 });
    expect(position(s, b)).toEqual({ x: 600, y: 100 });
    expect(position(s, outside)).toEqual({ x: 2000, y: 0 });
    expect(s.getState().doc.notes![0]!.position).toEqual({ x: 200, y: 360 });
    expect(group(s, g).nodes).toEqual([a, b]);
    expect(s.getState().history.undoLabel).toBe('move');
    s.undo();
    expect(position(s, a)).toEqual({ x: 0, y: 0 });
    expect(group(s, g).position).toEqual({ x: -30, y: -74 });
  });

  it('a node dropped inside a frame joins it; dragged out, it leaves', () => {
    const { s, a, outside, g } = framedPair();
    s.dragNodes({ [outside]: { x: 200, y: 120 } });
    s.endDrag();
    expect(group(s, g).nodes).toContain(outside);
    // Moving the frame now carries it too.
    s.moveNodes({ [groupItem(g)]: { x: -30, y: 926 } });
    expect(position(s, outside)).toEqual({ x: 200, y: 1120 });
    s.dragNodes({ [a]: { x: 5000, y: 5000 } });
    s.endDrag();
    expect(group(s, g).nodes).not.toContain(a);
    s.undo();
    expect(group(s, g).nodes).toContain(a);
  });

  it('a node added inside a frame (double-click there) belongs to its group', () => {
    const { s, g } = framedPair();
    const inside = s.addNode('text', { x: 100, y: 300 });
    const outside = s.addNode('text', { x: 100, y: 3000 });
    expect(group(s, g).nodes).toContain(inside);
    expect(group(s, g).nodes).not.toContain(outside);
  });

  it('resizing a frame takes in what it now covers and lets go of what it does not', () => {
    const { s, b, outside, g } = framedPair();
    s.resizeItem(groupItem(g), { x: -30, y: -74, width: 2400, height: 300 });
    expect(group(s, g).nodes).toEqual(expect.arrayContaining([b, outside]));
    expect(group(s, g).notes).toEqual([]);
    expect(group(s, g).size).toEqual({ width: 2400, height: 300 });
    s.undo();
    expect(group(s, g).nodes).not.toContain(outside);
  });

  it('deleting a group keeps its nodes; deleting a node takes it out of its group', () => {
    const { s, a, b, g } = framedPair();
    s.deleteNodes([a]);
    expect(group(s, g).nodes).toEqual([b]);
    s.select({ nodes: [groupItem(g)] });
    s.deleteSelection();
    expect(s.getState().doc.groups).toBeUndefined();
    expect(s.getState().index.nodeById.has(b)).toBe(true);
    expect(s.getState().history.undoLabel).toBe('delete group');
  });

  it('copies a group with what it holds and pastes it with fresh ids, in this tab or another', () => {
    const { s, g } = framedPair();
    s.select({ nodes: [groupItem(g)] });
    const text = serializeWorkflow(s.copy()!);
    const other = createEditorStore({ initial: createWorkflow() });
    other.addNote({ x: 0, y: 0 });
    const parsed = parsePaste(text, other.registry);
    if (!parsed.ok) throw new Error(parsed.reason);
    const result = other.pasteWorkflow(parsed.workflow, { x: 1000, y: 1000 });
    expect(result.ok && result.nodeIds).toEqual(['text-1', 'preview-1', noteItem('note-2'), groupItem('group-1')]);
    const pasted = other.getState().doc.groups![0]!;
    expect(pasted).toMatchObject({ nodes: ['text-1', 'preview-1'], notes: ['note-2'], position: { x: 1000, y: 1000 } });
    // The same text pasted again at the same spot steps away rather than stacking.
    const again = other.pasteWorkflow(parsePasteOk(text, other), { x: 1000, y: 1000 });
    expect(again.ok).toBe(true);
    expect(other.getState().doc.groups![1]!.position).toEqual({ x: 1040, y: 1040 });
    // The pasted document is a valid file.
    expect(() => loadWorkflow(serializeWorkflow(other.getState().doc))).not.toThrow();
  });

  it('renames and recolours a group, one step each', () => {
    const { s, g } = framedPair();
    s.setGroupTitle(g, 'Prompting');
    s.setGroupColor(g, 'purple');
    expect(group(s, g)).toMatchObject({ title: 'Prompting', color: 'purple' });
    s.undo();
    expect(group(s, g).color).toBe('green');
  });
});

function parsePasteOk(text: string, s: ReturnType<typeof createEditorStore>) {
  const parsed = parsePaste(text, s.registry);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.workflow;
}

describe('bypass', () => {
  it('toggles bypass on the chosen nodes as one step, written only when on', () => {
    const s = store();
    const a = s.addNode('text', { x: 0, y: 0 });
    const b = s.addNode('image-to-image', { x: 400, y: 0 });
    s.toggleBypass([b]);
    expect(s.getState().index.nodeById.get(b)!.bypass).toBe(true);
    expect(s.getState().history.undoLabel).toBe('bypass Image to image');
    // Mixed: all become bypassed; then all stop.
    s.toggleBypass([a, b]);
    expect(s.getState().doc.nodes.every((n) => n.bypass === true)).toBe(true);
    s.toggleBypass([a, b]);
    expect(s.getState().doc.nodes.some((n) => 'bypass' in n)).toBe(false);
    expect(serializeWorkflow(s.getState().doc)).not.toContain('bypass');
    s.undo();
    expect(serializeWorkflow(s.getState().doc)).toContain('"bypass": true');
  });
});

describe('collapse', () => {
  it('collapses the chosen nodes as one step (expands them when all are), written only when on', () => {
    const s = store();
    const a = s.addNode('text', { x: 0, y: 0 });
    const b = s.addNode('image-to-image', { x: 400, y: 0 });
    s.toggleCollapsed([b]);
    expect(s.getState().index.nodeById.get(b)!.collapsed).toBe(true);
    expect(s.getState().history.undoLabel).toBe('collapse Image to image');
    s.toggleCollapsed([a, b]);
    expect(s.getState().doc.nodes.every((n) => n.collapsed === true)).toBe(true);
    s.toggleCollapsed([a, b]);
    expect(s.getState().history.undoLabel).toBe('expand 2 nodes');
    expect(serializeWorkflow(s.getState().doc)).not.toContain('collapsed');
    s.undo();
    expect(serializeWorkflow(s.getState().doc)).toContain('"collapsed": true');
  });
});

describe('arrange (auto-layout result)', () => {
  it('moves nodes as one step, refits each group around its members and keeps notes in place within it', () => {
    const s = store();
    const a = s.addNode('text', { x: 0, y: 0 });
    const b = s.addNode('preview', { x: 400, y: 0 });
    const note = s.addNote({ x: 0, y: 260 });
    const g = s.addGroup({ around: [a, b, noteItem(note)] });
    s.arrange({ [a]: { x: 1000, y: 1000 }, [b]: { x: 1400, y: 1100 } });
    expect(position(s, a)).toEqual({ x: 1000, y: 1000 });
    expect(s.getState().doc.notes![0]!.position).toEqual({ x: 1000, y: 1260 });
    expect(group(s, g)).toMatchObject({ position: { x: 970, y: 926 }, size: { width: 760, height: 524 } });
    expect(s.getState().history.undoLabel).toBe('auto-layout');
    s.undo();
    expect(position(s, a)).toEqual({ x: 0, y: 0 });
    expect(group(s, g).position).toEqual({ x: -30, y: -74 });
  });
});
