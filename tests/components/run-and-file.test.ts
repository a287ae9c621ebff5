/** Components through the executor (cache per inner node, errors named through the instance) and through the file. */
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../workers/executor';
import { planRun } from '../../workers/plan';
import { loadWorkflow } from '../../workflow/load';
import { serializeWorkflow } from '../../workflow/serialize';
import { eventLog, fakeChatClient, fakeImageClient, fakeRegistry, testSettings, workflow } from '../workers/fakes';
import { component, shout, withComponents } from './helpers';

/** "Paint": gen → restyle, its prompt shown as 'prompt'. */
const paint = () => component({
  id: 'paint', name: 'Paint',
  nodes: workflow([['draw', 'gen', { seed: 3, prompt: 'a lake' }], ['style', 'restyle']]).nodes,
  edges: workflow([], ['draw.image -> style.image']).edges,
  inputs: [], outputs: [{ name: 'image', source: { node: 'style', port: 'image' } }],
  params: [{ name: 'prompt', label: 'Prompt', node: 'draw', param: 'prompt' }],
});

describe('running components', () => {
  it('serves another instance with the same inputs from the cache, node by inner node', async () => {
    const image = fakeImageClient();
    const executor = createExecutor({ registry: fakeRegistry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings });
    await executor.run(withComponents([paint()], [['p1', 'component:paint']]), { mode: 'all' });
    const log = eventLog();
    const wf = withComponents([paint()], [['p2', 'component:paint'], ['p3', 'component:paint', { prompt: 'a hill' }]]);
    const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(summary).toMatchObject({ status: 'succeeded', apiCalls: 2, apiCallsSaved: 2, nodes: { planned: 4, cached: 2 } });
    expect(log.of('p2/draw')).toContain('node-cached');
    expect(image.calls.map((c) => c.request.prompt)).toEqual(['a lake', 'restyle', 'a hill', 'restyle']);
  });

  it('names a failing inner node through its instance', async () => {
    const image = fakeImageClient();
    const executor = createExecutor({ registry: fakeRegistry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings });
    const wf = withComponents([component({ ...shout(), id: 'oops', name: 'Oops', nodes: workflow([['bad', 'fail', { message: 'boom' }]]).nodes, edges: [], inputs: [], outputs: [], params: [] })],
      [['o', 'component:oops']]);
    wf.nodes[0]!.title = 'Restyle';
    const summary = await executor.run(wf, { mode: 'all' });
    expect(summary.status).toBe('failed');
    expect(summary.failures[0]).toMatchObject({ nodeId: 'o/bad', error: { message: 'boom' } });
    const planned = planRun(wf, fakeRegistry);
    expect(planned.ok && planned.plan.nodes[0]!.title).toBe('Restyle › Fail');
  });
});

describe('components in the file', () => {
  it('saves a file with components as version 2 and reads it back the same', () => {
    const wf = withComponents([shout()], [['s', 'component:shout', { sep: '?' }]]);
    const text = serializeWorkflow(wf);
    expect(text).toContain('"version": 2,');
    const again = loadWorkflow(text);
    expect(again.warnings).toEqual([]);
    expect(again.workflow.components).toEqual([shout()]);
    expect(serializeWorkflow(again.workflow)).toBe(text);
  });

  it('puts right a hash edited by hand, saying so', () => {
    const text = JSON.stringify(withComponents([{ ...shout(), hash: '0'.repeat(64) }], [['s', 'component:shout']]));
    const result = loadWorkflow(text);
    expect(result.warnings).toMatchObject([{ code: 'component-hash-fixed', path: 'components[0].hash' }]);
    expect(result.workflow.components![0]!.hash).toBe(shout().hash);
  });

  it('refuses components that contain themselves, directly or through another, and a face naming no inner node', () => {
    const a = component({ ...shout(), id: 'a', nodes: [...shout().nodes, ...withComponents([], [['b1', 'component:b']]).nodes] });
    const b = component({ ...shout(), id: 'b', nodes: [...shout().nodes, ...withComponents([], [['a1', 'component:a']]).nodes] });
    const me = component({ ...shout(), id: 'me', nodes: [...shout().nodes, ...withComponents([], [['m', 'component:me']]).nodes] });
    const text = JSON.stringify(withComponents([a, b, me], []));
    expect(() => loadWorkflow(text)).toThrow(/component 'a' contains itself through 'a' › 'b' › 'a'[\s\S]*component 'me' contains an instance of itself/);
    const ghost = JSON.stringify(withComponents([{ ...shout(), outputs: [{ name: 'out', source: { node: 'ghost', port: 'text' } }] }], []));
    expect(() => loadWorkflow(ghost)).toThrow(/components\[0\]\.outputs\[0\]\.source\.node: no inner node 'ghost'/);
  });

  it('opens an instance whose definition is missing as a placeholder that keeps its data', () => {
    const text = JSON.stringify(withComponents([shout()], [['s', 'component:shout'], ['lost', 'component:elsewhere', { sep: 'x' }]]));
    const result = loadWorkflow(text, { knownTypes: new Set(['component:shout']) });
    expect(result.warnings).toMatchObject([{ code: 'unknown-node-type', nodeId: 'lost' }]);
    expect(result.workflow.nodes[1]).toMatchObject({ type: 'component:elsewhere', params: { sep: 'x' } });
  });
});
