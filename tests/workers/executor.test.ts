import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ParamIssuesError } from '../../nodes/errors';
import type { NodeDefinition } from '../../nodes/types';
import { createExecutor, type ExecutorDeps } from '../../workers/executor';
import type { ExecutorEvent } from '../../workers/events';
import { eventLog, fakeChatClient, fakeImageB64, fakeImageClient, fakeRegistry, testSettings, workflow } from './fakes';

function setup(options: { latencyMs?: number } & Partial<ExecutorDeps> = {}) {
  const image = fakeImageClient({ latencyMs: options.latencyMs });
  const chat = fakeChatClient();
  const executor = createExecutor({ registry: fakeRegistry, api: { image: image.client, chat: chat.client }, settings: testSettings, ...options });
  return { executor, image, chat };
}

describe('executor: order and outputs', () => {
  it('runs a chain, passing outputs downstream, and reports each node queued → started → … → done', async () => {
    const { executor, image } = setup();
    const log = eventLog();
    const wf = workflow([['s', 'source', { text: 'a red fox' }], ['g', 'gen', { seed: 5 }], ['r', 'restyle']], ['s.text -> g.prompt', 'g.image -> r.image']);
    const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });

    expect(summary).toMatchObject({ status: 'succeeded', apiCalls: 2, apiCallsSaved: 0, nodes: { planned: 3, done: 3, cached: 0 } });
    expect(log.of('s')).toEqual(['node-queued', 'node-started', 'node-done']);
    expect(log.of('g')).toEqual(['node-queued', 'node-started', 'node-progress', 'node-request', 'node-progress', 'node-done']);
    expect(log.types()[0]).toBe('run-started');
    expect(log.types().at(-1)).toBe('run-finished');
    // The connected prompt port won over the (missing) form value; the image went on as base64.
    expect(image.calls[0]!.request).toEqual({ prompt: 'a red fox', seed: 5, steps: 10 });
    expect(image.calls[1]!.request.init_image).toBe(fakeImageB64('sdxl|a red fox|5|'));
    const done = log.events.find((e) => e.type === 'node-done' && e.nodeId === 'g');
    expect(done).toMatchObject({ cached: false, apiCalls: 1, outputs: { image: { kind: 'image', value: { seed: 5, mime: 'image/jpeg' } } } });
  });

  it('streams partial text from a chat node and reports the request with its image data elided', async () => {
    const { executor } = setup();
    const log = eventLog();
    const wf = workflow([['c', 'chat'], ['g', 'gen', { seed: 1 }], ['r', 'restyle']], ['c.text -> g.prompt', 'g.image -> r.image']);
    await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    const deltas = log.events.flatMap((e) => (e.type === 'node-partial-text' ? [e.delta] : []));
    expect(deltas.join('')).toBe('a quiet cabin in the snowy woods ');
    const requests = log.events.flatMap((e) => (e.type === 'node-request' ? [e] : []));
    expect(requests.map((r) => [r.nodeId, r.call.api, r.call.operation])).toEqual([['c', 'chat', 'stream'], ['g', 'image', 'generate'], ['r', 'image', 'generate']]);
    expect(requests[0]!.call.request).toMatchObject({ model: 'local-chat' });
    expect(requests[1]!.call.request).toEqual({ prompt: 'a quiet cabin in the snowy woods', seed: 1, steps: 10 });
  });

  it('returns an invalid summary listing every problem and sends nothing', async () => {
    const { executor, image } = setup();
    const log = eventLog();
    const summary = await executor.run(workflow([['g', 'gen', { prompt: '' }], ['x', 'nope']]), { mode: 'all', onEvent: log.onEvent });
    expect(summary.status).toBe('invalid');
    expect(summary.problems.map((p) => p.nodeId).sort()).toEqual(['g', 'x']);
    expect(log.types()).toEqual(['run-started', 'run-finished']);
    expect(image.calls).toHaveLength(0);
  });

  it('fails a node whose port-supplied parameter is invalid, naming the field', async () => {
    const { executor, image } = setup();
    const log = eventLog();
    const wf = workflow([['s', 'source', { text: 'forbidden words' }], ['g', 'gen', { prompt: 'fine' }]], ['s.text -> g.prompt']);
    const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(summary.failures).toEqual([{ nodeId: 'g', error: { message: 'invalid parameters: Prompt: may not say forbidden', field: 'prompt' } }]);
    expect(image.calls).toHaveLength(0);
  });

  it("names the fields of a node's own parameter errors by their labels in its form", async () => {
    // As the image nodes do when what arrived at run time breaks a rule of the engine.
    const strict: NodeDefinition<{ negative_prompt: string }> = {
      type: 'strict', version: 1, title: 'Strict', category: 'image', description: 'Refuses its input.',
      params: z.strictObject({ negative_prompt: z.string().default('').meta({ title: 'Negative prompt' }) }),
      inputs: [],
      outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
      run: () => Promise.reject(new ParamIssuesError([{ param: 'negative_prompt', message: 'has 90 tokens, over the SDXL limit of 77' }])),
    };
    const { executor } = setup({ registry: { get: (type) => (type === 'strict' ? strict : fakeRegistry.get(type)) } });
    const summary = await executor.run(workflow([['neg', 'strict']]), { mode: 'all' });
    expect(summary.failures).toEqual([{ nodeId: 'neg', error: { message: 'Negative prompt: has 90 tokens, over the SDXL limit of 77', field: 'negative_prompt' } }]);
  });
});

describe('executor: parallel branches', () => {
  const branches = workflow([['a', 'gen', { prompt: 'a', seed: 1 }], ['b', 'gen', { prompt: 'b', seed: 2 }]]);

  it('overlaps two independent branches with concurrency 2', async () => {
    const { executor, image } = setup({ latencyMs: 40, concurrency: 2 });
    await executor.run(branches);
    const [x, y] = image.calls;
    expect(image.maxInFlight).toBe(2);
    expect(y!.start).toBeLessThan(x!.end!);
  });

  it('runs them one after the other with concurrency 1', async () => {
    const { executor, image } = setup({ latencyMs: 20, concurrency: 1 });
    await executor.run(branches);
    const [x, y] = image.calls;
    expect(image.maxInFlight).toBe(1);
    expect(y!.start).toBeGreaterThanOrEqual(x!.end!);
  });
});

describe('executor: failures', () => {
  it('skips what depends on a failed node, naming it, and still runs independent branches', async () => {
    const { executor } = setup();
    const log = eventLog();
    const wf = workflow(
      [['f', 'fail', { message: 'the service said no' }], ['x', 'slow', { ms: 1 }], ['y', 'join'], ['ok', 'source'], ['ok2', 'slow', { ms: 1 }]],
      ['f.text -> x.in', 'x.text -> y.a', 'ok.text -> ok2.in'],
    );
    const summary = await executor.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(summary.status).toBe('failed');
    expect(summary.nodes).toMatchObject({ done: 2, failed: 1, skipped: 2 });
    expect(summary.failures).toEqual([{ nodeId: 'f', error: { message: 'the service said no', status: 503, kind: 'http' } }]);
    expect(log.events.filter((e) => e.type === 'node-skipped')).toEqual([
      { type: 'node-skipped', runId: summary.runId, nodeId: 'x', because: 'f', reason: "'f' failed" },
      { type: 'node-skipped', runId: summary.runId, nodeId: 'y', because: 'f', reason: "'f' failed" },
    ]);
    expect(log.of('ok2')).toEqual(['node-queued', 'node-started', 'node-done']);
    expect(log.of('f')).toEqual(['node-queued', 'node-started', 'node-failed']);
  });

  it('keeps tokens out of error messages', async () => {
    const image = fakeImageClient();
    image.client.generate = () => Promise.reject(new Error('401 for Authorization: Bearer sk-live-123 with key sk-live-123'));
    const executor = createExecutor({ registry: fakeRegistry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings, secrets: ['sk-live-123'] });
    const log = eventLog();
    const summary = await executor.run(workflow([['g', 'gen', { prompt: 'x', seed: 1 }]]), { mode: 'all', onEvent: log.onEvent });
    expect(JSON.stringify(log.events)).not.toContain('sk-live-123');
    expect(summary.failures[0]!.error.message).toBe('401 for Authorization: Bearer [redacted] with key [redacted]');
  });

  it('reports retries the client makes, and adds the run signal to calls that forgot it', async () => {
    const image = fakeImageClient();
    const seen: (AbortSignal | undefined)[] = [];
    image.client.generate = (_engine, _request, options) => {
      seen.push(options?.signal);
      options?.onRetry?.({ attempt: 2, maxAttempts: 3, delayMs: 250, error: { detail: 'status 503: busy, Bearer abc-123' } as never });
      return Promise.resolve({ images: [{ image_b64: fakeImageB64('x'), seed: 1 }] });
    };
    const executor = createExecutor({ registry: fakeRegistry, api: { image: image.client, chat: fakeChatClient().client }, settings: testSettings });
    const log = eventLog();
    await executor.run(workflow([['g', 'gen', { prompt: 'x', seed: 1 }], ['r', 'restyle']], ['g.image -> r.image']), { mode: 'all', onEvent: log.onEvent });
    expect(log.events.filter((e) => e.type === 'node-retry')).toEqual([
      { type: 'node-retry', runId: 'run-1', nodeId: 'g', attempt: 2, maxAttempts: 3, delayMs: 250, reason: 'status 503: busy, Bearer [redacted]' },
      { type: 'node-retry', runId: 'run-1', nodeId: 'r', attempt: 2, maxAttempts: 3, delayMs: 250, reason: 'status 503: busy, Bearer [redacted]' },
    ]);
    // The restyle fake passes no options at all; it still got a live signal.
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s instanceof AbortSignal)).toBe(true);
  });

  it('survives a listener that throws and reports it', async () => {
    const { executor } = setup();
    const summary = await executor.run(workflow([['s', 'source']]), {
      mode: 'all',
      onEvent: (e) => {
        if (e.type === 'node-started') throw new Error('render bug');
      },
    });
    expect(summary.status).toBe('succeeded');
    expect(summary.warnings).toEqual(["the event listener failed on 'node-started': render bug"]);
  });
});

describe('executor: cancel', () => {
  it('aborts the request in flight, cancels running and waiting nodes, and ends the run', async () => {
    const { executor, image } = setup({ latencyMs: 10_000 });
    const log = eventLog();
    const wf = workflow([['g', 'gen', { prompt: 'p', seed: 1 }], ['r', 'restyle'], ['h', 'gen', { prompt: 'q', seed: 2 }]], ['g.image -> r.image']);
    // Cancel once both independent nodes have their request in flight, whichever sends first.
    const sent = new Set<string>();
    const running = executor.run(wf, {
      mode: 'all',
      onEvent: (e) => {
        log.onEvent(e);
        if (e.type === 'node-request') sent.add(e.nodeId);
        if (e.type === 'node-request' && sent.has('g') && sent.has('h')) executor.cancel();
      },
    });
    const summary = await running;
    expect(summary.status).toBe('cancelled');
    expect(summary.nodes).toMatchObject({ cancelled: 3, done: 0 });
    expect(image.calls.length).toBe(2);
    expect(image.calls.every((c) => c.sawAbort)).toBe(true);
    for (const id of ['g', 'r', 'h']) expect(log.of(id).at(-1)).toBe('node-cancelled');
    expect(log.types().at(-1)).toBe('run-finished');
  });

  it("does not wait for a node that ignores its abort signal", async () => {
    const { executor } = setup();
    const controller = new AbortController();
    const log = eventLog();
    const running = executor.run(workflow([['s', 'stuck']]), {
      mode: 'all',
      signal: controller.signal,
      onEvent: (e: ExecutorEvent) => {
        log.onEvent(e);
        if (e.type === 'node-started') controller.abort();
      },
    });
    await expect(running).resolves.toMatchObject({ status: 'cancelled' });
    expect(log.of('s')).toEqual(['node-queued', 'node-started', 'node-cancelled']);
  });

  it('cancels everything when the signal is already aborted', async () => {
    const { executor, image } = setup();
    const summary = await executor.run(workflow([['g', 'gen', { prompt: 'p', seed: 1 }]]), { mode: 'all', signal: AbortSignal.abort() });
    expect(summary).toMatchObject({ status: 'cancelled', nodes: { cancelled: 1 } });
    expect(image.calls).toHaveLength(0);
  });
});
