/** Auto-layout with ELK, in Node: left to right, port order kept, no overlaps, groups kept together. */
import { describe, expect, it } from 'vitest';
import { computeLayout, type LayoutGraph, type LayoutItem, type LayoutWire } from '../../src/canvas/auto-layout';
import { boundsOf, type Rect } from '../../src/store/frames';

const node = (id: string, inputs: string[], outputs: string[], group?: string, height = 200): LayoutItem =>
  ({ id, width: 300, height, inputs, outputs, ...(group ? { group } : {}) });

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function rects(graph: LayoutGraph, at: Record<string, { x: number; y: number }>): Map<string, Rect> {
  return new Map(graph.items.map((item) => [item.id, { ...at[item.id]!, width: item.width, height: item.height }]));
}

describe('auto-layout', () => {
  it('lays a chain out left to right from the origin, without overlaps', async () => {
    const graph: LayoutGraph = {
      items: [node('c', ['in'], []), node('a', [], ['out'], undefined, 420), node('b', ['in'], ['out'])],
      wires: [{ source: 'a', sourcePort: 'out', target: 'b', targetPort: 'in' }, { source: 'b', sourcePort: 'out', target: 'c', targetPort: 'in' }],
    };
    const at = await computeLayout(graph, { x: 100, y: 50 });
    expect(at.a!.x).toBeLessThan(at.b!.x);
    expect(at.b!.x).toBeLessThan(at.c!.x);
    expect(at.b!.x - at.a!.x).toBeGreaterThanOrEqual(300);
    const box = boundsOf([...rects(graph, at).values()]);
    expect([box.x, box.y]).toEqual([100, 50]);
  });

  it('keeps the order of a node\'s inputs: what feeds the top input is placed above', async () => {
    for (const [top, bottom] of [['p', 'q'], ['q', 'p']] as const) {
      const graph: LayoutGraph = {
        items: [node('p', [], ['out']), node('q', [], ['out']), node('sink', ['first', 'second'], [])],
        wires: [
          { source: top, sourcePort: 'out', target: 'sink', targetPort: 'first' },
          { source: bottom, sourcePort: 'out', target: 'sink', targetPort: 'second' },
        ],
      };
      const at = await computeLayout(graph, { x: 0, y: 0 });
      expect(at[top]!.y, `${top} feeds the first input`).toBeLessThan(at[bottom]!.y);
    }
  });

  it('never overlaps nodes, and keeps each group\'s members together apart from the rest', async () => {
    const items: LayoutItem[] = [];
    const wires: LayoutWire[] = [];
    for (let i = 0; i < 24; i++) {
      items.push(node(`n${i}`, ['a', 'b'], ['out'], i < 6 ? 'g1' : i < 10 ? 'g2' : undefined, 150 + (i % 5) * 60));
      if (i > 0) wires.push({ source: `n${Math.floor(i / 2)}`, sourcePort: 'out', target: `n${i}`, targetPort: i % 2 ? 'a' : 'b' });
    }
    items.push({ id: 'note:n', width: 260, height: 160, inputs: [], outputs: [], group: 'g1' });
    const graph = { items, wires };
    const at = await computeLayout(graph, { x: 0, y: 0 });
    const placed = rects(graph, at);
    const all = [...placed.entries()];
    for (const [i, [a, ra]] of all.entries()) {
      for (const [b, rb] of all.slice(i + 1)) expect(overlaps(ra, rb), `${a} and ${b} overlap`).toBe(false);
    }
    const frame = (group: string) => boundsOf(items.filter((it) => it.group === group).map((it) => placed.get(it.id)!));
    for (const item of items) {
      if (item.group !== 'g1') expect(overlaps(frame('g1'), placed.get(item.id)!), `${item.id} inside g1's box`).toBe(false);
    }
    expect(overlaps(frame('g1'), frame('g2'))).toBe(false);
  });

  it('packs separate graphs in rows, not one tall column', async () => {
    const items: LayoutItem[] = [];
    const wires: LayoutWire[] = [];
    for (let c = 0; c < 30; c++) {
      for (let i = 0; i < 4; i++) {
        items.push(node(`c${c}n${i}`, ['in'], ['out']));
        if (i > 0) wires.push({ source: `c${c}n${i - 1}`, sourcePort: 'out', target: `c${c}n${i}`, targetPort: 'in' });
      }
    }
    const graph = { items, wires };
    const at = await computeLayout(graph, { x: 0, y: 0 });
    const box = boundsOf([...rects(graph, at).values()]);
    expect(box.width / box.height).toBeGreaterThan(0.8);
    expect(box.width / box.height).toBeLessThan(3);
    const all = [...rects(graph, at).values()];
    for (const [i, a] of all.entries()) for (const b of all.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
  });

  it('ignores wires to ports or items it was not given (a layout of the selection)', async () => {
    const graph: LayoutGraph = {
      items: [node('a', [], ['out']), node('b', ['in'], [])],
      wires: [{ source: 'a', sourcePort: 'out', target: 'b', targetPort: 'in' }, { source: 'x', sourcePort: 'out', target: 'b', targetPort: 'in' },
        { source: 'a', sourcePort: 'nope', target: 'b', targetPort: 'in' }],
    };
    const at = await computeLayout(graph, { x: 0, y: 0 });
    expect(Object.keys(at).sort()).toEqual(['a', 'b']);
  });
});
