import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import type { NodeDefinition } from '../../nodes/types';
import { passThroughOf } from '../../workers/bypass';
import { createExecutor } from '../../workers/executor';
import { planRun } from '../../workers/plan';
import type { NodeRegistry } from '../../workers/validate';
import { eventLog, fakeChatClient, fakeDefinitions, fakeImageB64, fakeImageClient, testSettings, workflow } from './fakes';

/** Gives an empty list of images: nothing a bypassed image input can take its first image from. */
const emptyListNode: NodeDefinition<Record<string, never>> = {
  type: 'empty-list', version: 1, title: 'Empty list', category: 'input', description: 'No images.',
  params: z.strictObject({}),
  inputs: [],
  outputs: [{ name: 'images', kind: 'images', label: 'Images' }],
  run: () => Promise.resolve({ images: { kind: 'images', value: [] } }),
};
/** Reads a number from its text. */
const toNumberNode: NodeDefinition<Record<string, never>> = {
  type: 'to-number', version: 1, title: 'To number', category: 'text', description: 'Text to a number.',
  params: z.strictObject({}),
  inputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  outputs: [{ name: 'number', kind: 'number', label: 'Number' }],
  run: ({ inputs }) => Promise.resolve({ number: { kind: 'number', value: Number(inputs.text?.value) } }),
};
const fakes: NodeRegistry = { get: (type) => [...fakeDefinitions, emptyListNode, toNumberNode].find((d) => d.type === type) };

function setup(reg: NodeRegistry = fakes) {
  const image = fakeImageClient();
  const chat = fakeChatClient();
  const executor = createExecutor({ registry: reg, api: { image: image.client, chat: chat.client }, settings: testSettings });
  return { executor, image, chat };
}

const bypassed = (wf: ReturnType<typeof workflow>, ...ids: string[]) => {
  for (const node of wf.nodes) if (ids.includes(node.id)) node.bypass = true;
  return wf;
};

describe('passThroughOf', () => {
  const port = (name: string, kind: 'text' | 'number' | 'image' | 'images') => ({ name, kind, label: name });

  it('takes for each output the first connected input whose kind converts to it', () => {
    const inputs = [port('n', 'number'), port('pic', 'image'), port('prompt', 'text')];
    const through = passThroughOf('x', [port('image', 'image'), port('images', 'images'), port('text', 'text')], inputs, new Set(['n', 'pic', 'prompt']));
    // number converts to text and comes first; an image converts to a list of one.
    expect(Object.fromEntries(through.passed)).toEqual({ image: 'pic', images: 'pic', text: 'n' });
    expect(through.unavailable.size).toBe(0);
  });

  it('ignores unconnected inputs and names the kind it lacks', () => {
    const through = passThroughOf('gen', [port('image', 'image')], [port('pic', 'image'), port('prompt', 'text')], new Set(['prompt']));
    expect(Object.fromEntries(through.unavailable)).toEqual({ image: "bypassed 'gen' has no image input to pass through" });
  });
});

describe('bypass: validation', () => {
  it("does not judge a bypassed node's parameters or unconnected required inputs", () => {
    // gen: prompt is required and may not say 'forbidden'; restyle needs an image and has none.
    const wf = bypassed(workflow([['g', 'gen', { prompt: 'forbidden', steps: 999 }], ['r', 'restyle']]), 'g', 'r');
    expect(planRun(wf, fakes)).toMatchObject({ ok: true });
    wf.nodes[0]!.bypass = false;
    const again = planRun(wf, fakes);
    expect(again.ok ? [] : again.problems.map((p) => p.nodeId)).toContain('g');
  });

  it('still reports a wire of the wrong kind into a bypassed node', () => {
    const wf = bypassed(workflow([['s', 'source'], ['r', 'restyle']], ['s.text -> r.image']), 'r');
    const plan = planRun(wf, fakes);
    expect(plan.ok ? [] : plan.problems).toEqual([expect.objectContaining({ nodeId: 'r', port: 'image', message: "input 'Image' takes image, but output 'Text' of 'Source' gives text" })]);
  });
});

describe('bypass: running', () => {
  it('passes the input on without running the node: queued → bypassed, no request', async () => {
    const { executor, image } = setup();
    const log = eventLog();
    const wf = bypassed(workflow([['g', 'gen', { prompt: 'fox', seed: 2 }], ['r', 'restyle'], ['r2', 'restyle', { prompt: 'final' }]], ['g.image -> r.image', 'r.image -> r2.image']), 'r');
    const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });

    expect(summary).toMatchObject({ status: 'succeeded', apiCalls: 2, nodes: { planned: 3, done: 2, bypassed: 1 } });
    expect(log.of('r')).toEqual(['node-queued', 'node-bypassed']);
    expect(log.events.find((e) => e.type === 'node-bypassed')).toMatchObject({ nodeId: 'r', passed: { image: 'image' }, unavailable: {} });
    expect(image.calls.map((c) => c.request.prompt)).toEqual(['fox', 'final']);
    expect(image.calls[1]!.request.init_image).toBe(fakeImageB64('sdxl|fox|2|'));
  });

  it('skips what an output with nothing to pass feeds, with the reason, all the way down', async () => {
    const { executor, image } = setup();
    const log = eventLog();
    const wf = bypassed(
      workflow([['s', 'source', { text: 'fox' }], ['g', 'gen', { seed: 1 }], ['r', 'restyle'], ['r2', 'restyle'], ['other', 'gen', { prompt: 'owl', seed: 3 }]],
        ['s.text -> g.prompt', 'g.image -> r.image', 'r.image -> r2.image']),
      'g',
    );
    const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    // Named as the canvas shows the node (its type's title here), not by its id.
    const reason = "bypassed 'Generate' has no image input to pass through";
    expect(log.events.find((e) => e.type === 'node-bypassed')).toMatchObject({ nodeId: 'g', passed: {}, unavailable: { image: reason, images: "bypassed 'Generate' has no images input to pass through" } });
    expect(log.events.filter((e) => e.type === 'node-skipped')).toEqual([
      { type: 'node-skipped', runId: summary.runId, nodeId: 'r', because: 'g', reason },
      { type: 'node-skipped', runId: summary.runId, nodeId: 'r2', because: 'g', reason },
    ]);
    expect(summary).toMatchObject({ status: 'succeeded', nodes: { done: 2, bypassed: 1, skipped: 2 } });
    expect(image.calls.map((c) => c.request.prompt)).toEqual(['owl']);
  });

  it('carries the first bypassed node’s reason through a second bypassed node', async () => {
    const { executor } = setup();
    const log = eventLog();
    const wf = bypassed(workflow([['g', 'gen', { prompt: 'x', seed: 1 }], ['r', 'restyle'], ['r2', 'restyle']], ['g.image -> r.image', 'r.image -> r2.image']), 'g', 'r');
    await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(log.events.find((e) => e.type === 'node-bypassed' && e.nodeId === 'r')).toMatchObject({ unavailable: { image: "bypassed 'Generate' has no image input to pass through" } });
    expect(log.events.find((e) => e.type === 'node-skipped')).toMatchObject({ nodeId: 'r2', because: 'g' });
  });

  it('passes a list on as a list, as the node would have run once per item: an empty one skips what it feeds', async () => {
    const { executor } = setup();
    const log = eventLog();
    const wf = bypassed(workflow([['e', 'empty-list'], ['r', 'restyle'], ['r2', 'restyle']], ['e.images -> r.image', 'r.image -> r2.image']), 'r');
    wf.nodes[1]!.title = 'Watercolour';
    await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(log.events.find((e) => e.type === 'node-bypassed')).toMatchObject({ nodeId: 'r', passed: { image: 'image' }, unavailable: {} });
    const skipped = log.events.find((e) => e.type === 'node-skipped');
    expect(skipped).toMatchObject({ nodeId: 'r2', because: 'r', reason: "input 'Image' got an empty list from 'r': nothing to run" });
  });

  it('makes an output unavailable when its value does not convert (a text list has no single number)', async () => {
    const { executor } = setup();
    const log = eventLog();
    const wf = bypassed(workflow([['s', 'list'], ['n', 'to-number'], ['g', 'gen', { prompt: 'x' }]], ['s.items -> n.text', 'n.number -> g.seed']), 'n');
    wf.nodes[1]!.title = 'Seed';
    await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(log.events.find((e) => e.type === 'node-skipped')).toMatchObject({
      nodeId: 'g', because: 'n', reason: expect.stringMatching(/^bypassed 'Seed' cannot pass 'Text' on as 'Number': .*list of 3 items has no single number/) as unknown,
    });
  });
});

describe('bypass with the real catalogue', () => {
  it('image to image bypassed: its image and images outputs carry the image it was given', async () => {
    const { executor, image } = setup(registry);
    const log = eventLog();
    const wf = bypassed(workflow(
      [['t', 'text-to-image', { prompt: 'a lighthouse', seed: 4 }], ['i', 'image-to-image', { prompt: '' }], ['p', 'preview'], ['p2', 'preview']],
      ['t.image -> i.image', 'i.images -> p.value', 'i.image -> p2.value'],
    ), 'i');
    const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(summary).toMatchObject({ status: 'succeeded', apiCalls: 1, nodes: { bypassed: 1 } });
    const made = fakeImageB64('sdxl|a lighthouse|4|');
    const shown = (id: string) => log.events.find((e) => e.type === 'node-done' && e.nodeId === id);
    expect(shown('p')).toMatchObject({ outputs: { shown: { kind: 'images', value: [{ b64: made }] } } });
    expect(shown('p2')).toMatchObject({ outputs: { shown: { kind: 'image', value: { b64: made } } } });
    expect(image.calls).toHaveLength(1);
  });

  it('chat prompt writer bypassed: its text output carries the text wired into its placeholder', async () => {
    const { executor, image, chat } = setup(registry);
    const wf = bypassed(workflow(
      [['s', 'text', { text: 'a red kite over dunes' }], ['c', 'chat-prompt-writer', { user: 'Describe {{subject}}' }], ['t', 'text-to-image', { seed: 1 }]],
      ['s.text -> c.subject', 'c.text -> t.prompt'],
    ), 'c');
    const summary = await executor.run(wf);
    expect(summary).toMatchObject({ status: 'succeeded', apiCalls: 1 });
    expect(chat.calls).toBe(0);
    expect(image.calls[0]!.request.prompt).toBe('a red kite over dunes');
  });
});
