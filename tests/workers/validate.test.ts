import { describe, expect, it } from 'vitest';
import { formatProblem, validateWorkflow } from '../../workers/validate';
import { fakeRegistry, workflow } from './fakes';

describe('validateWorkflow', () => {
  it('accepts a sound workflow', () => {
    const wf = workflow([['a', 'source'], ['g', 'gen', { prompt: 'cat' }]], ['a.text -> g.prompt']);
    expect(validateWorkflow(wf, fakeRegistry)).toEqual([]);
  });

  it('lists every problem at once, each naming its node and field or port as the editor labels them', () => {
    const wf = workflow(
      [
        ['unknown', 'teleporter'],
        ['join', 'join'], // required input 'a' not connected
        ['g', 'gen', { prompt: '', steps: 99, colour: 'red' }], // three parameter problems
        ['r', 'restyle'], // fed text where it takes an image
        ['s', 'source'],
        ['x', 'slow'],
        ['y', 'slow'],
      ],
      [
        's.text -> r.image',
        's.nothing -> x.in', // no such output
        's.text -> join.zzz', // no such input
        'ghost.text -> y.in', // no such node
        'x.text -> y.in',
        'y.text -> x.in', // x ↔ y is a cycle
      ],
    );
    const problems = validateWorkflow(wf, fakeRegistry);
    const by = (nodeId: string) => problems.filter((p) => p.nodeId === nodeId);

    expect(by('unknown')).toEqual([{ nodeId: 'unknown', message: expect.stringMatching(/unknown node type 'teleporter'/) as string }]);
    expect(by('join')).toEqual(expect.arrayContaining([
      { nodeId: 'join', port: 'a', message: "input 'A' is required but not connected" },
      { nodeId: 'join', port: 'zzz', message: expect.stringMatching(/has no input 'zzz'.*inputs: a, b/) as string },
    ]));
    expect(by('g').map((p) => p.field).sort()).toEqual(['colour', 'prompt', 'steps']);
    expect(by('g').find((p) => p.field === 'prompt')?.message).toBe('Prompt: must not be empty');
    expect(by('g').find((p) => p.field === 'steps')?.message).toMatch(/steps: .*50/);
    expect(by('r')).toEqual([{ nodeId: 'r', port: 'image', message: "input 'Image' takes image, but output 'Text' of 'Source' gives text" }]);
    expect(by('s')).toEqual([{ nodeId: 's', port: 'nothing', message: expect.stringMatching(/has no output 'nothing'/) as string }]);
    expect(by('y')).toEqual(expect.arrayContaining([
      { nodeId: 'y', port: 'in', message: expect.stringMatching(/comes from node 'ghost', which does not exist/) as string },
      { nodeId: 'y', message: expect.stringMatching(/cycle: Slow → Slow → Slow;/) as string },
    ]));
    expect(by('x')).toContainEqual({ nodeId: 'x', message: expect.stringMatching(/cycle: Slow → Slow → Slow;/) as string });
    expect(problems.map(formatProblem)).toContain("node 'r': input 'Image' takes image, but output 'Text' of 'Source' gives text");
  });

  it("runs the definition's own cross-field check and names the field", () => {
    const wf = workflow([['g', 'gen', { prompt: 'a forbidden cat' }]]);
    expect(validateWorkflow(wf, fakeRegistry)).toEqual([{ nodeId: 'g', field: 'prompt', message: 'Prompt: may not say forbidden' }]);
  });

  it('does not hold the form against a parameter a connected port will supply', () => {
    const wf = workflow([['s', 'source'], ['g', 'gen', { prompt: '' }]], ['s.text -> g.prompt']);
    expect(validateWorkflow(wf, fakeRegistry)).toEqual([]);
  });

  it('refuses two connections into one input and duplicate node ids', () => {
    const wf = workflow([['a', 'source'], ['b', 'source'], ['j', 'join'], ['a', 'source']], ['a.text -> j.a', 'b.text -> j.a']);
    const problems = validateWorkflow(wf, fakeRegistry);
    expect(problems).toContainEqual({ nodeId: 'j', port: 'a', message: expect.stringMatching(/more than one connection/) as string });
    expect(problems).toContainEqual({ nodeId: 'a', message: expect.stringMatching(/same id 'a'/) as string });
  });

  it('checks ports that depend on parameters against the parameters', () => {
    const wf = workflow([['s', 'source'], ['t', 'template', { names: ['who'] }]], ['s.text -> t.who', 's.text -> t.what']);
    expect(validateWorkflow(wf, fakeRegistry)).toEqual([
      { nodeId: 't', port: 'what', message: expect.stringMatching(/has no input 'what'.*inputs: who/) as string },
    ]);
  });

  it('reports a self-loop as a cycle', () => {
    const wf = workflow([['x', 'slow']], ['x.text -> x.in']);
    wf.nodes[0]!.title = 'Loop';
    expect(validateWorkflow(wf, fakeRegistry)).toEqual([{ nodeId: 'x', message: expect.stringMatching(/cycle: Loop → Loop;/) as string }]);
  });

  it('allows wires the value module converts (number into text)', () => {
    const wf = workflow([['g', 'gen', { prompt: 'p' }], ['s', 'source'], ['j', 'join']], ['s.text -> j.a', 'g.image -> j.b']);
    expect(validateWorkflow(wf, fakeRegistry)).toEqual([
      { nodeId: 'j', port: 'b', message: "input 'B' takes text, but output 'Image' of 'Generate' gives image" },
    ]);
  });
});
