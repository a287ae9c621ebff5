/**
 * Opening a workflow far bigger than the screen: React Flow draws the nodes in view (and near
 * it), not all of them to measure each once, and the nodes that come into view later are drawn
 * and measured then, their wires ending on their ports.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Workflow, WorkflowEdge, WorkflowNode } from '../../workflow/schema';
import { editorSession } from './fixtures';
import type { EditorPage } from './pages/editor';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-big-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `rows` × 6 chains of a Text feeding a Preview, 400 px apart: far wider and taller than a screen. */
function bigWorkflow(rows: number): Workflow {
  const nodes: WorkflowNode[] = [];
  const edges: WorkflowEdge[] = [];
  for (let i = 0; i < rows * 6; i++) {
    const x = (i % 6) * 900;
    const y = Math.floor(i / 6) * 400;
    nodes.push(
      { id: `text-${i}`, type: 'text', position: { x, y }, params: { text: `subject ${i}` } },
      { id: `show-${i}`, type: 'preview', position: { x: x + 420, y }, params: {} },
    );
    edges.push({ id: `wire-${i}`, source: { node: `text-${i}`, port: 'text' }, target: { node: `show-${i}`, port: 'value' } });
  }
  return {
    format: 'atelier.workflow',
    version: 1,
    metadata: { title: 'Big workflow', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
    nodes,
    edges,
  };
}

/** Starts counting the React Flow nodes put on the page from now on (each time one is drawn anew). */
async function countDrawnNodes(editor: EditorPage): Promise<void> {
  await editor.page.evaluate(() => {
    const w = window as unknown as { __drawn: number };
    w.__drawn = 0;
    new MutationObserver((records) => {
      for (const r of records) {
        for (const added of r.addedNodes) if (added instanceof HTMLElement && added.classList.contains('react-flow__node')) w.__drawn++;
      }
    }).observe(document.body, { subtree: true, childList: true });
  });
}

/**
 * The wires whose two nodes are both drawn, and how far the worst of their ends lies outside its
 * port's handle, in screen pixels (0: every wire ends on its handle; React Flow ends a wire at the
 * handle's outer edge).
 */
async function drawnWireEnds(editor: EditorPage, workflow: Workflow): Promise<{ wires: number; worstGap: number }> {
  return editor.page.evaluate((edges) => {
    const box = (nodeId: string, port: string) => document.querySelector(`.react-flow__node[data-id="${nodeId}"] .react-flow__handle[data-handleid="${port}"]`)?.getBoundingClientRect();
    const outside = (p: DOMPoint, r: DOMRect) => Math.hypot(Math.max(r.left - p.x, 0, p.x - r.right), Math.max(r.top - p.y, 0, p.y - r.bottom));
    let wires = 0;
    let worstGap = 0;
    for (const edge of edges) {
      const from = box(edge.source.node, edge.source.port);
      const to = box(edge.target.node, edge.target.port);
      const path = document.querySelector<SVGPathElement>(`.react-flow__edge[data-id="${edge.id}"] .react-flow__edge-path`);
      const matrix = path?.getScreenCTM();
      if (!from || !to || !path || !matrix) continue;
      wires++;
      const end = (at: number) => new DOMPoint(path.getPointAtLength(at).x, path.getPointAtLength(at).y).matrixTransform(matrix);
      const [a, b] = [end(0), end(path.getTotalLength())];
      worstGap = Math.max(worstGap, outside(a, from), outside(b, to));
    }
    return { wires, worstGap };
  }, workflow.edges);
}

describe('a big workflow', () => {
  it('opens drawing the nodes in view only; nodes panned into view are drawn with their wires on their ports', async () => {
    const editor = await session.open();
    const workflow = bigWorkflow(25);
    const file = join(dir, 'big.json');
    writeFileSync(file, JSON.stringify(workflow));
    await countDrawnNodes(editor);
    await editor.open(file);
    await editor.page.getByText(`Opened “${workflow.metadata.title}”`).waitFor();
    await editor.viewSettled();
    await editor.quiet();

    // 300 nodes in the file; at the readable zoom it opens at, a few dozen at most are near the view.
    const drawn = await editor.page.evaluate(() => (window as unknown as { __drawn: number }).__drawn);
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(60);
    const opened = await drawnWireEnds(editor, workflow);
    expect(opened.wires).toBeGreaterThan(0);
    expect(opened.worstGap).toBeLessThanOrEqual(1);

    // Drag the canvas up and left: nodes never drawn so far come into view and are measured.
    const shownBefore = new Set(await editor.nodes.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id'))));
    const start = await editor.emptyCanvasPoint();
    await editor.page.mouse.move(start.x, start.y);
    await editor.page.mouse.down();
    for (let step = 1; step <= 10; step++) await editor.page.mouse.move(start.x - step * 60, start.y - step * 60);
    await editor.page.mouse.up();
    await editor.viewSettled();
    await editor.quiet();
    const shownAfter = await editor.nodes.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-id')));
    expect(shownAfter.filter((id) => !shownBefore.has(id)).length).toBeGreaterThan(0);
    await expect.poll(async () => (await drawnWireEnds(editor, workflow)).worstGap).toBeLessThanOrEqual(1);
    expect((await drawnWireEnds(editor, workflow)).wires).toBeGreaterThan(opened.wires / 2);
  });
});
