/** Flattening components into the plan: the same as the graph written out by hand, refused with reasons when hostile. */
import { describe, expect, it } from 'vitest';
import { flattenComponents } from '../../workflow/flatten';
import { planRun } from '../../workers/plan';
import { fakeRegistry, workflow } from '../workers/fakes';
import { component, shout, withComponents } from './helpers';

const flat = (...args: Parameters<typeof flattenComponents>) => {
  const result = flattenComponents(...args);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result;
};
const shape = (wf: { nodes: { id: string; type: string; params: object; bypass?: boolean }[]; edges: { source: object; target: object }[] }) => ({
  nodes: wf.nodes.map((n) => ({ id: n.id, type: n.type, params: { ...n.params }, bypass: n.bypass ?? false })).sort((a, b) => a.id.localeCompare(b.id)),
  edges: wf.edges.map((e) => JSON.stringify([e.source, e.target])).sort(),
});

describe('flattenComponents', () => {
  it('gives the graph one would write by hand: inner ids under the instance, wires joined through the face, shown values laid over', () => {
    const wf = withComponents([shout()],
      [['in', 'source', { text: 'you' }], ['s1', 'component:shout', { sep: '?' }], ['s2', 'component:shout'], ['end', 'join']],
      ['in.text -> s1.tail', 's1.out -> s2.tail', 's2.out -> end.a']);
    const byHand = workflow(
      [['in', 'source', { text: 'you' }], ['s1/word', 'source', { text: 'HEY' }], ['s1/mix', 'join', { sep: '?' }],
        ['s2/word', 'source', { text: 'HEY' }], ['s2/mix', 'join', { sep: '!' }], ['end', 'join']],
      ['s1/word.text -> s1/mix.a', 'in.text -> s1/mix.b', 's2/word.text -> s2/mix.a', 's1/mix.text -> s2/mix.b', 's2/mix.text -> end.a']);
    const result = flat(wf);
    expect(shape(result.workflow)).toEqual(shape(byHand));
    expect(result.workflow.components).toBeUndefined();
    expect(result.instances).toEqual(new Map([['s1', ['s1/word', 's1/mix']], ['s2', ['s2/word', 's2/mix']]]));
  });

  it('names inner nodes through their instance, and bypasses them all when the instance is bypassed', () => {
    const wf = withComponents([shout()], [['s1', 'component:shout']]);
    wf.nodes[0]!.title = 'Loud';
    wf.nodes[0]!.bypass = true;
    const result = flat(wf, { typeTitle: (type) => fakeRegistry.get(type)?.title });
    expect(result.workflow.nodes.map((n) => [n.title, n.bypass])).toEqual([['Loud › Source', true], ['Loud › Join', true]]);
  });

  it('flattens components inside components', () => {
    const twice = component({
      id: 'twice', name: 'Twice', nodes: withComponents([], [['a', 'component:shout'], ['b', 'component:shout']]).nodes,
      edges: workflow([], ['a.out -> b.tail']).edges,
      inputs: [{ name: 'tail', targets: [{ node: 'a', port: 'tail' }] }], outputs: [{ name: 'out', source: { node: 'b', port: 'out' } }],
      params: [{ name: 'inner_sep', label: 'Inner separator', node: 'a', param: 'sep' }],
    });
    const wf = withComponents([shout(), twice], [['in', 'source'], ['t', 'component:twice', { inner_sep: '+' }]], ['in.text -> t.tail']);
    const result = flat(wf);
    expect(shape(result.workflow).edges).toEqual(shape(workflow([], [
      'in.text -> t/a/mix.b', 't/a/word.text -> t/a/mix.a', 't/a/mix.text -> t/b/mix.b', 't/b/word.text -> t/b/mix.a',
    ])).edges);
    expect(result.workflow.nodes.find((n) => n.id === 't/a/mix')?.params).toEqual({ sep: '+' });
  });

  it('leaves a workflow without instances as it is', () => {
    const wf = workflow([['a', 'source']]);
    expect(flat(wf).workflow).toBe(wf);
  });

  it('refuses a missing definition, an unknown shown value, a component inside itself and a run past the limit, with reasons', () => {
    const missing = flattenComponents(withComponents([], [['x', 'component:gone']]));
    expect(missing).toEqual({ ok: false, problems: [{ nodeId: 'x', message: "x: the definition of component 'gone' is not in this file, so it cannot run" }] });
    const extra = flattenComponents(withComponents([shout()], [['s', 'component:shout', { toString: 'x' }]]));
    expect(extra).toMatchObject({ ok: false, problems: [{ nodeId: 's', message: "Shout: 'toString' is not a parameter it shows (it shows 'sep')" }] });
    const selfish = component({ id: 'me', name: 'Me', nodes: withComponents([], [['inner', 'component:me']]).nodes, edges: [], inputs: [], outputs: [], params: [] });
    expect(flattenComponents(withComponents([selfish], [['m', 'component:me']]))).toMatchObject({
      ok: false, problems: [{ nodeId: 'm', message: "component 'me' contains itself through 'me' › 'me'" }],
    });
    const many = withComponents([shout()], Array.from({ length: 10_000 }, (_, i) => [`s${i}`, 'component:shout'] as [string, string]));
    expect(flattenComponents(many)).toMatchObject({ ok: false, problems: [{ nodeId: 's0', message: 'its components would make a run of more than 10000 nodes, the limit' }] });
  });

  it('refuses nesting that doubles at every level before building anything', () => {
    const levels = Array.from({ length: 15 }, (_, i) => component({
      id: `l${i}`, name: `L${i}`, edges: [], inputs: [], outputs: [], params: [],
      nodes: i === 0 ? workflow([['leaf', 'source']]).nodes : withComponents([], [['a', `component:l${i - 1}`], ['b', `component:l${i - 1}`]]).nodes,
    }));
    const result = flattenComponents(withComponents(levels, [['top', 'component:l14']]));
    expect(result).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('more than 10000 nodes') as unknown }] });
  });
});

describe('planning with components', () => {
  it('plans each inner node as itself, and runs to an instance as to every node inside it', () => {
    const wf = withComponents([shout()], [['in', 'source'], ['s1', 'component:shout'], ['after', 'join']], ['in.text -> s1.tail', 's1.out -> after.a']);
    const all = planRun(wf, fakeRegistry);
    expect(all.ok && all.plan.nodes.map((n) => n.id)).toEqual(['in', 's1/word', 's1/mix', 'after']);
    const to = planRun(wf, fakeRegistry, { mode: 'to', nodeId: 's1' });
    expect(to.ok && to.plan.nodes.map((n) => n.id)).toEqual(['in', 's1/word', 's1/mix']);
    const from = planRun(wf, fakeRegistry, { mode: 'from', nodeId: 's1' });
    expect(from.ok && from.plan.nodes.map((n) => [n.id, n.reuseCached])).toEqual([['in', true], ['s1/word', false], ['s1/mix', false], ['after', false]]);
  });

  it('reports a problem inside a component on the inner node, named through the instance', () => {
    const broken = withComponents([shout()], [['s1', 'component:shout', { sep: 42 }]]);
    const result = planRun(broken, fakeRegistry);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problems[0]).toMatchObject({ nodeId: 's1/mix', message: expect.stringMatching(/sep|Separator/i) as unknown });
  });
});
