/**
 * Node ids, edge ids and port names that are names every object answers to (`__proto__`,
 * `constructor`, `toString`, `hasOwnProperty`, `prototype`…) run like any others on the
 * executor, against the local engines, and leave Object.prototype and its functions untouched:
 * as they are (the executor's own records are Maps and prototype-less objects) and as the loader
 * renames them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatClient } from '../../api/chat-client';
import { createImageClient } from '../../api/image-client';
import { registry } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import { createAtelierServer } from '../../server/app';
import { localEnginesConfig } from '../../server/config';
import { LOCAL_CHAT_MODELS } from '../../server/engines/text';
import { silentLogger } from '../../server/log';
import { createMemoryCache } from '../../workers/cache';
import { estimateRun } from '../../workers/estimate';
import type { ExecutorEvent, NodeOutputs } from '../../workers/events';
import { createExecutor } from '../../workers/executor';
import { loadWorkflow } from '../../workflow/load';
import type { Workflow } from '../../workflow/schema';
import { HOSTILE_RESULTS, hostileWorkflow, prototypeSnapshot } from '../helpers/prototype-ids';

let server: Awaited<ReturnType<typeof createAtelierServer>>;
const settings = { chatModel: LOCAL_CHAT_MODELS[0]! };

beforeAll(async () => {
  server = await createAtelierServer(localEnginesConfig(), { logger: silentLogger });
});

afterAll(async () => {
  await server.close();
});

function executor() {
  return createExecutor({
    registry,
    api: { image: createImageClient({ baseUrl: `${server.url}/local/image` }), chat: createChatClient({ baseUrl: `${server.url}/local/text` }) },
    settings,
    cache: createMemoryCache(),
  });
}

/** The outputs of each node that finished, by node id, from the run's events. */
function outputsOf(events: readonly ExecutorEvent[]): Map<string, NodeOutputs> {
  const done = new Map<string, NodeOutputs>();
  for (const e of events) if (e.type === 'node-done') done.set(e.nodeId, e.outputs);
  return done;
}

/** Checks the results of a run of the hostile workflow; `id` maps a file id to the id it ran under. */
function expectRightResults(events: readonly ExecutorEvent[], id: (fileId: string) => string): void {
  const done = outputsOf(events);
  expect(done.get(id('constructor'))?.text).toEqual({ kind: 'text', value: HOSTILE_RESULTS.constructor });
  const image = done.get(id('prototype'))?.shown;
  expect(image).toMatchObject({ kind: 'image', value: { mime: 'image/jpeg', width: 512, height: 512, seed: HOSTILE_RESULTS.seed } });
  expect(done.get(id('valueOf'))?.shown).toEqual({ kind: 'text', value: HOSTILE_RESULTS.valueOf });
  expect(done.get(id('__lookupSetter__'))?.shown).toEqual({ kind: 'texts', value: HOSTILE_RESULTS.__lookupSetter__ });
  // Only what each node made: no output answers to a name it does not hold.
  for (const outputs of done.values()) expect(Object.keys(outputs).every((name) => Object.hasOwn(outputs, name))).toBe(true);
  const bypassed = events.find((e) => e.type === 'node-bypassed');
  expect(bypassed).toMatchObject({ nodeId: id('isPrototypeOf'), passed: { text: 'propertyIsEnumerable' } });
}

describe('ids and port names that objects answer to on their own', () => {
  it('run as they are on the executor, with the right results, and change no built-in object', async () => {
    const before = prototypeSnapshot();
    // Straight to the executor, past the loader that would rename them.
    const workflow = JSON.parse(JSON.stringify(hostileWorkflow())) as Workflow;
    const exec = executor();
    const events: ExecutorEvent[] = [];
    const summary = await exec.run(workflow, { mode: 'all', onEvent: (e) => events.push(e) });
    expect(summary.failures).toEqual([]);
    expect(summary.problems).toEqual([]);
    expect(summary).toMatchObject({ status: 'succeeded', apiCalls: 1, nodes: { planned: 11, bypassed: 1, failed: 0, skipped: 0 } });
    expectRightResults(events, (id) => id);
    expect(prototypeSnapshot()).toBe(before);
    expect(({} as Record<string, unknown>).status).toBeUndefined();

    // Again, from the cache, and from the node called 'toString': the same, and still nothing changed.
    const again: ExecutorEvent[] = [];
    const cached = await exec.run(workflow, { mode: 'from', nodeId: 'toString', onEvent: (e) => again.push(e) });
    expect(cached).toMatchObject({ status: 'succeeded' });
    expect(outputsOf(again).get('prototype')?.shown).toMatchObject({ kind: 'image', value: { seed: HOSTILE_RESULTS.seed } });
    const estimate = await estimateRun(workflow, registry, { mode: 'all' }, { cache: exec.cache, settings });
    expect(estimate.ok).toBe(true);
    if (estimate.ok) expect(estimate.nodes.find((n) => n.nodeId === 'toString')).toMatchObject({ status: 'cached' });
    expect(prototypeSnapshot()).toBe(before);
  });

  it('load renamed and run under their new ids, with the same results', async () => {
    const before = prototypeSnapshot();
    const loaded = loadWorkflow(JSON.stringify(hostileWorkflow()), catalogueLoadOptions(registry));
    const id = (fileId: string) => loaded.renamedIds.get(fileId) ?? fileId;
    expect(id('toString')).toBe('toString-1');
    const events: ExecutorEvent[] = [];
    const summary = await executor().run(loaded.workflow, { mode: 'all', onEvent: (e) => events.push(e) });
    expect(summary.failures).toEqual([]);
    expect(summary.status).toBe('succeeded');
    expectRightResults(events, id);
    expect(prototypeSnapshot()).toBe(before);
  });
});
