/** What the canvas draws from the document: ports shown, React Flow objects reused while unchanged. */
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { createDeriver } from '../../src/canvas/derive';
import { estimateFit, nearlySameView, NODE_TEXT_MIN_PX, READABLE_ZOOM, readableView } from '../../src/canvas/fit';
import { inputsFor } from '../../src/store/ports';
import { shownInputs } from '../../src/canvas/shown-ports';
import { parseExampleIndex } from '../../src/files/examples';
import { fileNameFor } from '../../src/files/open-save';
import { parseModelList } from '../../src/settings/models';
import { createEditorStore } from '../../src/store/editor-store';
import { starterWorkflow } from '../../src/store/starter';
import { createWorkflow } from '../../workflow/create';

describe('shown input ports', () => {
  const def = registry.get('text-to-image')!;
  const inputs = inputsFor(def, def.params.parse({}) as Record<string, unknown>);
  const wire = (port: string) => ({ id: port, source: { node: 'a', port: 'text' }, target: { node: 'b', port } });

  it('hides parameter ports until connected or switched to "as input"', () => {
    expect(shownInputs(inputs, undefined, undefined)).toEqual([]);
    expect(shownInputs(inputs, undefined, new Set(['seed'])).map((p) => p.name)).toEqual(['seed']);
    expect(shownInputs(inputs, new Map([['prompt', wire('prompt')]]), undefined)).toEqual([
      expect.objectContaining({ name: 'prompt', kind: 'text', connected: true, missing: false }),
    ]);
  });

  it('keeps a wired port the node no longer has, marked missing', () => {
    const text = registry.get('text')!;
    const ports = inputsFor(text, { text: 'no placeholders now' });
    expect(shownInputs(ports, new Map([['style', wire('style')]]), undefined)).toEqual([
      expect.objectContaining({ name: 'style', missing: true, connected: true }),
    ]);
  });
});

describe('derived React Flow objects', () => {
  it('reuses the objects of nodes and edges that did not change', () => {
    const store = createEditorStore({ initial: starterWorkflow() });
    const derive = createDeriver(registry);
    const view = () => {
      const s = store.getState();
      return { nodes: derive.nodes(s.doc, s.selection, s.drag, new Map()), edges: derive.edges(s.doc, s.selection, s.index.nodeById) };
    };
    const before = view();
    store.setParam('image-to-image', 'strength', 0.3);
    const after = view();
    expect(after.nodes[0]).toBe(before.nodes[0]);
    expect(after.nodes[2]).not.toBe(before.nodes[2]);
    expect(after.edges).toEqual(before.edges);
    expect(after.edges[0]).toBe(before.edges[0]);
    store.dragNodes({ 'prompt-writer': { x: 5, y: 6 } });
    const dragging = view();
    expect(dragging.nodes[0]!.position).toEqual({ x: 5, y: 6 });
    expect(dragging.nodes[1]).toBe(after.nodes[1]);
  });

  it("keeps node objects, and the array, when only measured sizes change (React Flow keeps its own); a node made again carries its size", () => {
    const store = createEditorStore({ initial: starterWorkflow() });
    const derive = createDeriver(registry);
    const s = store.getState();
    const before = derive.nodes(s.doc, s.selection, s.drag, new Map());
    const sizes = new Map(before.map((n) => [n.id, { width: 300, height: 200 }]));
    expect(derive.nodes(s.doc, s.selection, s.drag, sizes)).toBe(before);
    store.select({ nodes: [before[1]!.id] });
    const selected = derive.nodes(store.getState().doc, store.getState().selection, null, sizes);
    expect(selected).not.toBe(before);
    expect(selected[0]).toBe(before[0]);
    expect(selected[1]).toMatchObject({ selected: true, measured: { width: 300, height: 200 } });
  });

  it('marks unknown types, colours edges by what they carry, and names nodes for screen readers', () => {
    const store = createEditorStore({ initial: { ...createWorkflow(), nodes: [
      { id: 'x', type: 'vendor/thing', position: { x: 0, y: 0 }, params: {} },
      { id: 't', type: 'text', title: 'Style', position: { x: 0, y: 0 }, params: { text: '' } },
      { id: 'p', type: 'preview', position: { x: 0, y: 0 }, params: {} },
    ], edges: [{ id: 'e', source: { node: 't', port: 'text' }, target: { node: 'p', port: 'value' } }] } });
    const derive = createDeriver(registry);
    const s = store.getState();
    const nodes = derive.nodes(s.doc, s.selection, null, new Map());
    expect(nodes.map((n) => [n.type, n.ariaLabel])).toEqual([['unknown', 'vendor/thing node'], ['atelier', 'Style node'], ['atelier', 'Preview / save node']]);
    expect(derive.edges(s.doc, s.selection, s.index.nodeById)[0]).toMatchObject({ source: 't', sourceHandle: 'text', target: 'p', targetHandle: 'value', className: 'edge-kind-text' });
  });
});

describe('fitting the view', () => {
  const grid = (rows: number, cols: number, dx: number, dy: number) =>
    Array.from({ length: rows * cols }, (_, i) => ({ position: { x: (i % cols) * dx, y: Math.floor(i / cols) * dy } }));

  it('fits a graph that fits at a readable zoom, centred', () => {
    const small = estimateFit(grid(1, 3, 400, 0), 1600, 900);
    expect(small.zoom).toBeGreaterThanOrEqual(READABLE_ZOOM);
    expect(small.zoom).toBeLessThanOrEqual(1);
    // Centred: as much room left of the first node as right of the last.
    const left = small.x;
    const right = 1600 - (small.x + (800 + 300) * small.zoom);
    expect(left).toBeCloseTo(right, 5);
  });

  it('opens a graph too big to fit at the readable zoom, showing where it starts', () => {
    // Thirteen rows of forty nodes: the left column starts on screen, near the left edge.
    const big = estimateFit(grid(13, 40, 420, 760), 1300, 860);
    expect(big.zoom).toBe(READABLE_ZOOM);
    expect(NODE_TEXT_MIN_PX * big.zoom).toBeGreaterThanOrEqual(11);
    expect(big.x).toBeGreaterThan(0);
    expect(big.x).toBeLessThan(100);
    // Taller than the view, so is its first column: its top is shown.
    expect(big.y).toBeGreaterThan(0);
    expect(big.y).toBeLessThan(100);
    // A wide, short graph is centred from top to bottom.
    const row = readableView(grid(1, 12, 400, 0).map((n) => ({ ...n.position, width: 300, height: 400 })), 1000, 700);
    expect(row.zoom).toBe(READABLE_ZOOM);
    expect(row.y).toBeCloseTo((700 - 400 * READABLE_ZOOM) / 2, 5);
  });

  it('tells a view worth moving to from one that is as good as the one shown', () => {
    const at = { x: 80, y: 120, zoom: 0.067 };
    expect(nearlySameView(at, { x: 81.5, y: 119, zoom: 0.0672 })).toBe(true);
    expect(nearlySameView(at, { x: 90, y: 120, zoom: 0.067 })).toBe(false);
    expect(nearlySameView(at, { x: 80, y: 120, zoom: 0.07 })).toBe(false);
  });
});

describe('small parsers', () => {
  it('reads the examples index, leaving out unsafe or malformed entries', () => {
    expect(parseExampleIndex([
      { file: 'a.json', title: 'A', description: 'd' },
      { file: '../etc/passwd.json', title: 'bad' },
      { file: 'b.json' },
      'x',
      { file: 'c.json', title: 'C' },
    ])).toEqual([{ file: 'a.json', title: 'A', description: 'd' }, { file: 'c.json', title: 'C', description: '' }]);
    expect(parseExampleIndex({ not: 'a list' })).toEqual([]);
  });

  it('reads model ids from a /v1/models body', () => {
    expect(parseModelList({ data: [{ id: 'a' }, { id: 7 }, { nope: 1 }, { id: 'b' }] })).toEqual(['a', 'b']);
    expect(parseModelList('x')).toEqual([]);
  });

  it('makes file names from titles', () => {
    expect(fileNameFor('Prompt → picture → restyle')).toBe('prompt-picture-restyle.json');
    expect(fileNameFor('../../etc')).toBe('etc.json');
    expect(fileNameFor('   ')).toBe('workflow.json');
  });
});
