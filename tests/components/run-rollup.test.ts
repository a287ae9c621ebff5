/**
 * A run of a workflow with components, as the editor's run side sees it (the real controller and
 * worker API, fake nodes): events of inner nodes (flat ids) show on their instance (status,
 * results borrowed from the inner output), a failure inside names the inner node through the
 * component, and inner statuses stay for an opened component.
 */
import { describe, expect, it } from 'vitest';
import { createRunController } from '../../src/run/controller';
import { imagesOf } from '../../src/results/object-urls';
import { countingUrls, inThreadClient, settings } from '../run/helpers';
import { component, withComponents } from './helpers';

const picture = () => component({
  id: 'pic',
  name: 'Picture',
  nodes: [{ id: 'draw', type: 'gen', position: { x: 0, y: 0 }, params: { prompt: 'x', seed: 5 } }],
  edges: [],
  inputs: [{ name: 'prompt', targets: [{ node: 'draw', port: 'prompt' }] }],
  outputs: [{ name: 'image', source: { node: 'draw', port: 'image' } }],
  params: [{ name: 'seed', label: 'Seed', node: 'draw', param: 'seed' }],
});

const broken = () => component({
  id: 'broken',
  name: 'Restyle',
  nodes: [{ id: 'img2img', type: 'fail', title: 'Image to image', position: { x: 0, y: 0 }, params: { message: 'the service said no' } }],
  edges: [],
  inputs: [],
  outputs: [{ name: 'text', source: { node: 'img2img', port: 'text' } }],
  params: [],
});

function setup() {
  const fake = inThreadClient({ chatAnswer: 'a red fox' });
  const counted = countingUrls();
  let clock = 0;
  const controller = createRunController({ client: fake.client, settings: () => settings, urls: counted.urls, now: () => (clock += 10) });
  return { controller, state: controller.state, live: counted.live };
}

describe('a run with components, on the canvas', () => {
  it('shows each instance done with the pictures of its inner output, and keeps the inner statuses under their flat ids', async () => {
    const { controller, state, live } = setup();
    const wf = withComponents([picture()],
      [['chat', 'chat'], ['one', 'component:pic'], ['two', 'component:pic', { seed: 9 }]],
      ['chat.text -> one.prompt', 'chat.text -> two.prompt']);
    const summary = await controller.run(wf);
    expect(summary?.status).toBe('succeeded');
    for (const id of ['one', 'two']) {
      expect(state.status.get(id)).toMatchObject({ phase: 'done', progress: 1 });
      expect(state.status.get(`${id}/draw`)).toMatchObject({ phase: 'done' });
      const shown = imagesOf(state.results.get(id)!.outputs);
      expect(shown).toHaveLength(1);
      // The same picture (and object URL) as the inner node's: borrowed, not copied.
      expect(shown[0]!.url).toBe(imagesOf(state.results.get(`${id}/draw`)!.outputs)[0]!.url);
    }
    expect(imagesOf(state.results.get('two')!.outputs)[0]!.seed).toBe(9);

    // Deleting an instance forgets it and its inner nodes, releasing each picture once.
    controller.prune(['chat', 'two']);
    expect(state.results.get('one')).toBeUndefined();
    expect(state.results.get('one/draw')).toBeUndefined();
    expect(state.results.get('two/draw')).toBeDefined();
    expect(live.size).toBe(1);
  });

  it('fails the instance with the inner node named through the component', async () => {
    const { controller, state } = setup();
    const wf = withComponents([broken()], [['restyle', 'component:broken']]);
    await controller.run(wf);
    expect(state.status.get('restyle')).toMatchObject({ phase: 'failed' });
    expect(state.status.get('restyle')!.error!.message).toBe('Restyle › Image to image: the service said no');
    expect(state.status.get('restyle/img2img')!.error!.message).toBe('the service said no');
  });
});
