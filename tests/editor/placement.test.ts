/**
 * Nothing lands on anything, headless: new nodes and notes, pastes and duplicates go to the
 * nearest free place; frames grow to hold what is moved to their edge; a node that grows pushes
 * what it would cover down; the view follows what lands outside it.
 */
import { describe, expect, it } from 'vitest';
import { createWorkflow } from '../../workflow/create';
import { createEditorStore } from '../../src/store/editor-store';
import { holdingFrame, noteItem, type Rect } from '../../src/store/frames';
import { anyOverlap, freeShift, PLACE_GAP } from '../../src/store/free-place';
import { followView } from '../../src/canvas/use-follow-placed';

type Size = { width: number; height: number };

/** A store whose "canvas" measures nodes by the sizes given (300×200 unless told). */
function store(sizes: Record<string, Size> = {}) {
  let now = 1_000_000;
  const s = createEditorStore({ initial: createWorkflow({ title: 'Placing' }), now: () => (now += 5000) });
  s.setMeasure((id) => (id.includes(':') ? undefined : sizes[id] ?? { width: 300, height: 200 }));
  return s;
}

/** Every node and note's box, as the store's measure says. */
function boxes(s: ReturnType<typeof store>): Rect[] {
  const { doc } = s.getState();
  return [
    ...doc.nodes.map((n) => ({ ...n.position, ...(s.measureOf(n.id) ?? { width: 300, height: 360 }) })),
    ...(doc.notes ?? []).map((n) => ({ ...n.position, ...n.size })),
  ];
}

describe('free placement', () => {
  it('finds the nearest shift that clears every box by the gap, and none when the spot is free', () => {
    const taken = [{ x: 0, y: 0, width: 300, height: 200 }];
    expect(freeShift([{ x: 1000, y: 0, width: 300, height: 200 }], taken)).toEqual({ x: 0, y: 0 });
    const shift = freeShift([{ x: 0, y: 0, width: 300, height: 200 }], taken);
    const moved = { x: shift.x, y: shift.y, width: 300, height: 200 };
    expect(anyOverlap([...taken, moved])).toBe(false);
    // The nearest way out: below (200 + gap), not right (300 + gap).
    expect(shift).toEqual({ x: 0, y: Math.ceil((200 + PLACE_GAP) / 20) * 20 });
  });

  it('adds nodes and notes asked for at the same spot side by side, exactly where told without `free`', () => {
    const s = store();
    const ids = [0, 1, 2].map(() => s.addNode('text', { x: 100, y: 100 }, { free: true }));
    s.addNote({ x: 100, y: 100 }, '', { free: true });
    expect(anyOverlap(boxes(s))).toBe(false);
    expect(s.getState().index.nodeById.get(ids[0]!)!.position).toEqual({ x: 100, y: 100 });
    // Each says where it landed, for the view to follow.
    expect(s.getState().placed?.ids).toEqual([noteItem('note-1')]);
    const exact = s.addNode('text', { x: 100, y: 100 });
    expect(s.getState().index.nodeById.get(exact)!.position).toEqual({ x: 100, y: 100 });
  });

  it('pastes and duplicates clear of what is there, moving a copied group with its nodes', () => {
    const s = store();
    const a = s.addNode('text', { x: 0, y: 0 });
    const b = s.addNode('preview', { x: 400, y: 0 });
    s.select({ nodes: [a, b] });
    const g = s.addGroup({ around: [a, b] });
    s.select({ nodes: [a, b, `group:${g}`] });
    s.copy();
    for (let i = 0; i < 3; i++) expect(s.paste({ x: 20, y: 20 }, { free: true }).ok).toBe(true);
    s.select({ nodes: [a] });
    expect(s.duplicate({ free: true }).ok).toBe(true);
    expect(s.getState().doc.nodes).toHaveLength(9);
    expect(anyOverlap(boxes(s))).toBe(false);
    // The pasted frames still hold their nodes.
    for (const group of s.getState().doc.groups!) {
      const frame = { ...group.position, ...group.size };
      for (const id of group.nodes) {
        const p = s.getState().index.nodeById.get(id)!.position;
        expect(p.x >= frame.x && p.y >= frame.y && p.x + 300 <= frame.x + frame.width && p.y + 200 <= frame.y + frame.height).toBe(true);
      }
    }
  });
});

describe('frames and growing nodes', () => {
  it('a frame grows to hold a member moved to its edge, never shrinks, and stays when it already holds it', () => {
    const frame = { x: 0, y: 0, width: 500, height: 400 };
    expect(holdingFrame(frame, [{ x: 50, y: 60, width: 300, height: 200 }])).toBe(frame);
    const grown = holdingFrame(frame, [{ x: 400, y: 100, width: 300, height: 350 }]);
    expect(grown.x).toBe(0);
    expect(grown.width).toBeGreaterThanOrEqual(700);
    expect(grown.height).toBeGreaterThanOrEqual(450);

    const s = store();
    const a = s.addNode('text', { x: 40, y: 60 });
    const g = s.addGroup({ around: [a] });
    const before = s.getState().doc.groups![0]!;
    s.moveNodes({ [a]: { x: before.position.x + before.size.width - 200, y: 60 } });
    const after = s.getState().doc.groups!.find((x) => x.id === g)!;
    expect(after.nodes).toEqual([a]);
    const p = s.getState().index.nodeById.get(a)!.position;
    expect(after.position.x + after.size.width).toBeGreaterThanOrEqual(p.x + 300);
    // One step: Undo puts node and frame back.
    s.undo();
    expect(s.getState().doc.groups![0]!.size).toEqual(before.size);
  });

  it('a node that grows pushes the nodes it now covers down below it, as one undo step', () => {
    const sizes: Record<string, Size> = {};
    const s = store(sizes);
    const top = s.addNode('text-to-image', { x: 0, y: 0 });
    const below = s.addNode('preview', { x: 50, y: 260 });
    const under = s.addNode('preview', { x: 50, y: 500 });
    const beside = s.addNode('text', { x: 400, y: 0 });
    sizes[top] = { width: 300, height: 420 };
    expect(s.makeRoom(top, { width: 300, height: 200 })).toBe(true);
    const y = (id: string) => s.getState().index.nodeById.get(id)!.position.y;
    expect(y(below)).toBeGreaterThanOrEqual(420);
    expect(y(under)).toBeGreaterThanOrEqual(y(below) + 200);
    expect(y(beside)).toBe(0);
    expect(anyOverlap(boxes(s))).toBe(false);
    expect(s.getState().history.undoLabel).toBe('make room');
    s.undo();
    expect(y(below)).toBe(260);
    // Not grown: nothing moves.
    expect(s.makeRoom(top, { width: 300, height: 420 })).toBe(false);
  });

  it('grows the frame of a node that grew past its edge, in the same step, and saves it so', () => {
    const sizes: Record<string, Size> = {};
    const s = store(sizes);
    const alone = s.addNode('text', { x: 0, y: 0 });
    const g = s.addGroup({ around: [alone] });
    const frame = () => s.getState().doc.groups!.find((x) => x.id === g)!;
    const before = structuredClone(frame());
    sizes[alone] = { width: 300, height: 200 + before.size.height };
    expect(s.makeRoom(alone, { width: 300, height: 200 })).toBe(true);
    expect(frame().position).toEqual(before.position);
    const node = s.getState().index.nodeById.get(alone)!;
    expect(frame().position.y + frame().size.height).toBeGreaterThanOrEqual(node.position.y + sizes[alone].height);
    expect(s.getState().history.undoLabel).toBe('make room');
    // Grown again inside its now larger frame: nothing to do.
    expect(s.makeRoom(alone, { width: 300, height: 210 })).toBe(false);
    s.undo();
    expect(frame().size).toEqual(before.size);
  });
});

describe('the view follows what was placed', () => {
  const view = { x: 0, y: 0, zoom: 1 };
  it('leaves the view alone when the item is in it, pans just enough when it is not', () => {
    expect(followView({ x: 100, y: 100, width: 300, height: 200 }, view, 1000, 800)).toBeUndefined();
    const to = followView({ x: 900, y: 100, width: 300, height: 200 }, view, 1000, 800)!;
    expect(to.y).toBe(0);
    // Its right edge now 40 px inside the view's.
    expect(900 + 300 + to.x).toBe(1000 - 40);
    // Too tall for the view: its top is shown.
    expect(followView({ x: 100, y: 900, width: 300, height: 2000 }, view, 1000, 800)).toEqual({ x: 0, y: 40 - 900 });
  });
});
