/** Make a component from selected nodes, then unpack it: the same graph comes back, ids aside. */
import { describe, expect, it } from 'vitest';
import { flattenComponents } from '../../workflow/flatten';
import { makeComponent, unpackComponent } from '../../workflow/make-component';
import { serializeWorkflow } from '../../workflow/serialize';
import type { Workflow } from '../../workflow/schema';
import { workflow } from '../workers/fakes';

// in → a → b → out, with a second wire in → b (into the selection twice from one output) and b → tap.
const graph = () => workflow(
  [['in', 'source', { text: 'x' }], ['a', 'join', { sep: '-' }], ['b', 'join'], ['out', 'join'], ['tap', 'join']],
  ['in.text -> a.a', 'in.text -> b.b', 'a.text -> b.a', 'b.text -> out.a', 'b.text -> tap.a'],
);
const shape = (wf: Workflow) => ({
  nodes: wf.nodes.map((n) => `${n.id}:${n.type}:${JSON.stringify(n.params)}:${n.position.x},${n.position.y}`).sort(),
  edges: wf.edges.map((e) => `${e.source.node}.${e.source.port}->${e.target.node}.${e.target.port}`).sort(),
});

describe('make and unpack', () => {
  it('turns the wires crossing the border into ports: one input per outside output, one output per inside output', () => {
    const made = makeComponent(graph(), new Set(['a', 'b']), { name: 'Pair', shown: [{ name: 'sep', label: 'Separator', node: 'a', param: 'sep' }] });
    const def = made.workflow.components![0]!;
    expect(def.inputs).toEqual([{ name: 'a', targets: [{ node: 'a', port: 'a' }, { node: 'b', port: 'b' }] }]);
    expect(def.outputs).toEqual([{ name: 'text', source: { node: 'b', port: 'text' } }]);
    expect(shape(made.workflow).edges).toEqual(['in.text->pair-1.a', 'pair-1.text->out.a', 'pair-1.text->tap.a']);
    expect(made.workflow.nodes.map((n) => n.id)).toEqual(['in', 'pair-1', 'out', 'tap']);
    // It saves and loads, and runs as the graph it came from.
    expect(() => serializeWorkflow(made.workflow)).not.toThrow();
    const flat = flattenComponents(made.workflow);
    expect(flat.ok && shape(flat.workflow).edges).toEqual(
      ['in.text->pair-1/a.a', 'in.text->pair-1/b.b', 'pair-1/a.text->pair-1/b.a', 'pair-1/b.text->out.a', 'pair-1/b.text->tap.a']);
  });

  it('gives back the same graph on unpack, and drops the definition nothing uses', () => {
    const made = makeComponent(graph(), new Set(['a', 'b']), { name: 'Pair' });
    const back = unpackComponent(made.workflow, made.instanceId);
    expect(shape(back)).toEqual(shape(graph()));
    expect(back.components).toBeUndefined();
  });

  it('unpacks with the instance\'s shown values, renaming inner ids that are taken', () => {
    const made = makeComponent(graph(), new Set(['a', 'b']), { name: 'Pair', shown: [{ name: 'sep', label: 'Separator', node: 'a', param: 'sep' }] });
    const wf = made.workflow;
    wf.nodes.find((n) => n.id === made.instanceId)!.params = { sep: '+' };
    wf.nodes.push({ id: 'a', type: 'source', position: { x: 0, y: 0 }, params: {} });
    const back = unpackComponent(wf, made.instanceId);
    expect(back.nodes.find((n) => n.id === 'a-1')?.params).toEqual({ sep: '+' });
  });

  it('refuses an empty selection and unpacking what is not an instance', () => {
    expect(() => makeComponent(graph(), new Set(), { name: 'None' })).toThrow(/Select the nodes/);
    expect(() => unpackComponent(graph(), 'a')).toThrow(/'a' is not a component/);
  });
});
