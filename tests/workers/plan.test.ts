import { describe, expect, it } from 'vitest';
import { planRun, type ExecutionPlan } from '../../workers/plan';
import { fakeRegistry, workflow } from './fakes';

function plan(...args: Parameters<typeof planRun>): ExecutionPlan {
  const result = planRun(...args);
  if (!result.ok) throw new Error(`unexpected problems: ${JSON.stringify(result.problems)}`);
  return result.plan;
}

// a → join ← b, join → slow; c stands alone. Listed out of order on purpose.
const graph = workflow(
  [['slow', 'slow'], ['join', 'join'], ['b', 'source', { text: 'B' }], ['a', 'source', { text: 'A' }], ['c', 'source']],
  ['a.text -> join.a', 'b.text -> join.b', 'join.text -> slow.in'],
);

describe('planRun', () => {
  it('orders nodes so each comes after everything it depends on; among ready ones, file order first', () => {
    const p = plan(graph, fakeRegistry);
    expect(p.nodes.map((n) => n.id)).toEqual(['b', 'a', 'join', 'slow', 'c']);
  });

  it('resolves each input to the output that feeds it, with the definition and saved params', () => {
    const join = plan(graph, fakeRegistry).nodes.find((n) => n.id === 'join')!;
    expect(join.def.type).toBe('join');
    expect(Object.fromEntries(join.bindings)).toEqual({ a: { node: 'a', port: 'text' }, b: { node: 'b', port: 'text' } });
    expect(join.dependsOn).toEqual(['a', 'b']);
    const b = plan(graph, fakeRegistry).nodes.find((n) => n.id === 'b')!;
    expect(b.params).toEqual({ text: 'B' });
  });

  it('takes each node and its inputs as validation saw them; a repeated id matters only within the scope', () => {
    const wf = workflow([['a', 'source', { text: 'A' }], ['join', 'join'], ['x', 'source', { text: 'first' }], ['x', 'source', { text: 'second' }]], ['a.text -> join.a']);
    const p = plan(wf, fakeRegistry, { mode: 'to', nodeId: 'join' });
    expect(p.nodes.map((n) => [n.id, n.params])).toEqual([['a', { text: 'A' }], ['join', {}]]);
    expect(p.nodes[1]!.inputs.map((i) => i.name)).toEqual(['a', 'b']);
    expect(planRun(wf, fakeRegistry)).toMatchObject({ ok: false, problems: [expect.objectContaining({ nodeId: 'x' })] });
  });

  it('does not depend on positions or titles', () => {
    const moved = structuredClone(graph);
    moved.nodes.forEach((n, i) => {
      n.position = { x: -i * 500, y: i * 77 };
      n.title = `renamed ${i}`;
    });
    const strip = (p: ExecutionPlan) => p.nodes.map((n) => ({ id: n.id, params: n.params, deps: n.dependsOn }));
    expect(strip(plan(moved, fakeRegistry))).toEqual(strip(plan(graph, fakeRegistry)));
  });

  it("'to' keeps the node and its ancestors only", () => {
    const p = plan(graph, fakeRegistry, { mode: 'to', nodeId: 'join' });
    expect(p.nodes.map((n) => n.id)).toEqual(['b', 'a', 'join']);
    expect(p.nodes.every((n) => n.reuseCached)).toBe(true);
  });

  it("'from' runs the node and its descendants afresh and brings in their ancestors from the cache", () => {
    const p = plan(graph, fakeRegistry, { mode: 'from', nodeId: 'join' });
    expect(p.nodes.map((n) => [n.id, n.reuseCached])).toEqual([['b', true], ['a', true], ['join', false], ['slow', false]]);
  });

  it("'to' a node whose unrelated sibling is broken still plans", () => {
    const broken = workflow([['a', 'source'], ['x', 'nope']]);
    expect(planRun(broken, fakeRegistry, { mode: 'to', nodeId: 'a' }).ok).toBe(true);
    expect(planRun(broken, fakeRegistry).ok).toBe(false);
  });

  it('refuses to run to or from a node that is not there', () => {
    const result = planRun(graph, fakeRegistry, { mode: 'from', nodeId: 'ghost' });
    expect(result).toEqual({ ok: false, problems: [{ nodeId: 'ghost', message: expect.stringContaining("no node 'ghost'") as string }] });
  });

  it('plans a long chain without recursion limits', () => {
    const n = 5000;
    const nodes: [string, string][] = [['n0', 'source']];
    const edges: string[] = [];
    for (let i = 1; i < n; i++) {
      nodes.push([`n${i}`, 'slow']);
      edges.push(`n${i - 1}.text -> n${i}.in`);
    }
    const p = plan(workflow(nodes.reverse(), edges), fakeRegistry);
    expect(p.nodes.map((x) => x.id)).toEqual(Array.from({ length: n }, (_, i) => `n${i}`));
  });
});
