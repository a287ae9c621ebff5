/**
 * The size of a node not drawn yet, from what it will show: the picture place of a node that
 * makes pictures, each main field, "More options", a wired prompt's one line, a collapsed node's
 * title bar and ports. Placement and layout count on it before the canvas has measured the node.
 */
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { createWorkflow } from '../../workflow/create';
import { createEditorStore } from '../../src/store/editor-store';
import { createDeriver } from '../../src/canvas/derive';
import { estimateHandles, estimateNodeSize } from '../../src/canvas/estimate-size';
import { createSizeBook } from '../../src/canvas/size-book';

function setup() {
  const s = createEditorStore({ initial: createWorkflow({ title: 'Sizes' }) });
  const add = (type: string) => s.addNode(type, { x: 0, y: 0 });
  const height = (id: string) => estimateNodeSize(s.getState(), registry, id)!.height;
  return { s, add, height };
}

describe('estimated node size', () => {
  it('gives a node that makes pictures its picture place, and a Preview one when a picture feeds it', () => {
    const { s, add, height } = setup();
    const text = add('text');
    const draw = add('text-to-image');
    const preview = add('preview');
    // Prompt, negative prompt, resolution, images, seed, "More options" and the picture place.
    expect(height(draw)).toBeGreaterThan(600);
    const alone = height(preview);
    s.connect({ node: text, port: 'text' }, { node: preview, port: 'value' });
    expect(height(preview)).toBe(alone);
    s.connect({ node: draw, port: 'image' }, { node: preview, port: 'value' });
    expect(height(preview)).toBeGreaterThan(alone + 200);
  });

  it('draws a wired prompt as one line, and a collapsed node as its title bar and ports', () => {
    const { s, add, height } = setup();
    const text = add('text');
    const draw = add('text-to-image');
    const open = height(draw);
    s.setAsInput(draw, 'prompt', true);
    s.connect({ node: text, port: 'text' }, { node: draw, port: 'prompt' });
    // One port row more, and the prompt's box gives way to its "from Text" line.
    expect(height(draw)).toBeLessThan(open);
    s.setSelection({ nodes: new Set([draw]), edges: new Set() });
    s.toggleCollapsed([draw]);
    expect(height(draw)).toBeLessThan(120);
  });

  it('is what the size book gives for a node the canvas has not measured, and the measure once it has', () => {
    const { s, add } = setup();
    const draw = add('text-to-image');
    const book = createSizeBook((id) => estimateNodeSize(s.getState(), registry, id));
    expect(book.size(draw, 'text-to-image')).toEqual(estimateNodeSize(s.getState(), registry, draw));
    book.record(draw, 'text-to-image', { width: 300, height: 812 });
    expect(book.size(draw, 'text-to-image')).toEqual({ width: 300, height: 812 });
  });

  it("gives React Flow a node's handle places until it is measured, each port once, inputs left and outputs right", () => {
    const { s, add } = setup();
    const text = add('text');
    const draw = add('text-to-image');
    s.setAsInput(draw, 'seed', true);
    s.connect({ node: text, port: 'text' }, { node: draw, port: 'prompt' });
    const handles = estimateHandles(s.getState(), registry, draw, 300)!;
    const inputs = handles.filter((h) => h.type === 'target');
    const outputs = handles.filter((h) => h.type === 'source');
    // The wired prompt and the seed shown as an input; the picture and the list of them.
    expect(inputs.map((h) => h.id)).toEqual(['prompt', 'seed']);
    expect(outputs.map((h) => h.id)).toEqual(['image', 'images']);
    expect(inputs.every((h) => h.position === 'left' && h.x < 0)).toBe(true);
    expect(outputs.every((h) => h.position === 'right' && h.x > 290)).toBe(true);
    expect(inputs[1]!.y).toBeGreaterThan(inputs[0]!.y);

    const derive = createDeriver(registry);
    const unmeasured = (id: string) => ({ ...estimateNodeSize(s.getState(), registry, id)!, handles: estimateHandles(s.getState(), registry, id, 300)! });
    const state = s.getState();
    const guessed = derive.nodes(state.doc, state.selection, state.drag, new Map(), unmeasured).find((n) => n.id === draw)!;
    expect(guessed.handles).toEqual(handles);
    expect(guessed.initialHeight).toBe(estimateNodeSize(state, registry, draw)!.height);
    // Measured, React Flow keeps the places it measured: a node made anew carries none of the guesses.
    s.setSelection({ nodes: new Set(state.selection.nodes.has(draw) ? [text] : [draw]), edges: new Set() });
    const measured = new Map([[draw, { width: 300, height: 700 }]]);
    const after = s.getState();
    const drawn = derive.nodes(after.doc, after.selection, after.drag, measured, unmeasured).find((n) => n.id === draw)!;
    expect(drawn).not.toBe(guessed);
    expect(drawn.handles).toBeUndefined();
    expect(drawn.initialHeight).toBeUndefined();
    expect(drawn.measured).toEqual({ width: 300, height: 700 });
  });
});
