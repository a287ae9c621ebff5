/**
 * Chat answers the model did not finish cleanly, through the real chat client and a server that
 * sends those finish reasons, streamed and as one JSON answer: a filtered answer fails its node,
 * a capped one is marked on it and in the run's warnings, and an empty one reaching an image
 * node's prompt stops that node before it sends anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatClient } from '../../api/chat-client';
import type { ChatClient } from '../../api/client-types';
import { registry } from '../../nodes/index';
import { createExecutor } from '../../workers/executor';
import { cappedNote, ContentFilterError, nodeApi } from '../../workers/node-api';
import type { Workflow } from '../../workflow/schema';
import { completionBody, sendJson, startMisbehavingServer, startStream, streamFrames, type MisbehavingServer } from '../helpers/misbehaving-server';
import { eventLog, fakeImageClient, testSettings } from './fakes';

let server: MisbehavingServer;
beforeAll(async () => {
  server = await startMisbehavingServer();
});
afterAll(() => server.close());

const flow: Workflow = {
  format: 'atelier.workflow', version: 1,
  metadata: { title: 'finish', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
  nodes: [
    { id: 'writer', type: 'chat-prompt-writer', position: { x: 0, y: 0 }, params: { user: 'a lighthouse', max_tokens: 50 } },
    { id: 'draw', type: 'text-to-image', position: { x: 300, y: 0 }, params: { engine: 'sdxl', seed: 1 } },
  ],
  edges: [{ id: 'a', source: { node: 'writer', port: 'text' }, target: { node: 'draw', port: 'prompt' } }],
};

/** Answers every chat request with `pieces`, finished by `finish`: streamed, or as one JSON completion. */
function answer(pieces: string[], finish: string, streamed: boolean) {
  server.handle((_req, res) => {
    if (!streamed) return sendJson(res, 200, completionBody(pieces.join(''), finish));
    startStream(res, pieces.length === 0 ? [...streamFrames([''], { finish })] : streamFrames(pieces, { finish }));
    res.end();
  });
}

async function run() {
  const image = fakeImageClient();
  const chat = createChatClient({ baseUrl: server.url, retry: { maxAttempts: 1 } });
  const executor = createExecutor({ registry, api: { image: image.client, chat }, settings: testSettings });
  const log = eventLog();
  const summary = await executor.run(flow, { mode: 'all', onEvent: log.onEvent });
  return { summary, log, image };
}

describe.each([['streamed', true], ['one JSON answer', false]] as const)('a chat answer (%s)', (_how, streamed) => {
  it('stopped by the content filter after some text fails its node saying so, and nothing is drawn from it', async () => {
    answer(['A dark alley ', 'where the'], 'content_filter', streamed);
    const { summary, log, image } = await run();
    expect(summary.failures).toEqual([{
      nodeId: 'writer',
      error: { kind: 'content-filter', message: "the chat model's content filter stopped the answer after 22 characters of text had arrived; that text is not used" },
    }]);
    expect(log.events.find((e) => e.type === 'node-skipped')).toMatchObject({ nodeId: 'draw', because: 'writer' });
    expect(image.calls).toEqual([]);
  });

  it('stopped by the content filter before any text fails its node too', async () => {
    answer([], 'content_filter', streamed);
    const { summary } = await run();
    expect(summary.failures[0]?.error.message).toBe("the chat model's content filter stopped the answer before any text arrived; that text is not used");
  });

  it('cut at max_tokens is used, and marked on the node and in the run summary', async () => {
    answer(['A lighthouse on a cliff ', 'at dusk, its beam cutting'], 'length', streamed);
    const { summary, log, image } = await run();
    expect(summary.status).toBe('succeeded');
    expect(log.events.find((e) => e.type === 'node-done' && e.nodeId === 'writer')).toMatchObject({ notes: ['stopped at max_tokens: 50'] });
    expect(log.events.find((e) => e.type === 'node-done' && e.nodeId === 'draw')).not.toHaveProperty('notes');
    expect(summary.warnings).toEqual(["node 'writer': stopped at max_tokens: 50"]);
    expect(image.calls.map((c) => c.request.prompt)).toEqual(['A lighthouse on a cliff at dusk, its beam cutting']);
  });

  it('empty, though finished cleanly, is marked, and the image node it feeds stops before sending', async () => {
    answer([], 'stop', streamed);
    const { summary, log, image } = await run();
    expect(log.events.find((e) => e.type === 'node-done' && e.nodeId === 'writer')).toMatchObject({ notes: ['the answer was empty'] });
    expect(summary.failures).toEqual([{
      nodeId: 'draw',
      error: { port: 'prompt', message: "input 'Prompt' got an empty text from 'writer': the engine gets no prompt to follow, so nothing was sent" },
    }]);
    expect(image.calls).toEqual([]);
  });
});

describe('a capped answer served from the cache', () => {
  it('is still marked, on its node and in the run summary', async () => {
    answer(['A lighthouse ', 'at dusk'], 'length', true);
    const chat = createChatClient({ baseUrl: server.url, retry: { maxAttempts: 1 } });
    const executor = createExecutor({ registry, api: { image: fakeImageClient().client, chat }, settings: testSettings });
    await executor.run(flow);
    const log = eventLog();
    const again = await executor.run(flow, { mode: 'all', onEvent: log.onEvent });
    expect(log.events.find((e) => e.type === 'node-done' && e.nodeId === 'writer')).toMatchObject({ cached: true, notes: ['stopped at max_tokens: 50'] });
    expect(again.warnings).toEqual(["node 'writer': stopped at max_tokens: 50"]);
  });
});

describe('a capped answer of one item of a fan-out', () => {
  it('is marked on the item and, naming the item, on the node', async () => {
    server.handle((req, res) => {
      const capped = req.body.includes('heron');
      startStream(res, streamFrames(['A bird ', capped ? 'standing in' : 'asleep.'], { finish: capped ? 'length' : 'stop' }));
      res.end();
    });
    const fan: Workflow = {
      ...flow,
      nodes: [
        { id: 'list', type: 'text', position: { x: 0, y: 0 }, params: { text: 'an owl\na heron' } },
        { id: 'split', type: 'split-text', position: { x: 0, y: 200 }, params: {} },
        { id: 'writer', type: 'chat-prompt-writer', position: { x: 300, y: 0 }, params: { user: 'draw {{bird}}', max_tokens: 50 } },
      ],
      edges: [
        { id: 'a', source: { node: 'list', port: 'text' }, target: { node: 'split', port: 'text' } },
        { id: 'b', source: { node: 'split', port: 'items' }, target: { node: 'writer', port: 'bird' } },
      ],
    };
    const chat = createChatClient({ baseUrl: server.url, retry: { maxAttempts: 1 } });
    const log = eventLog();
    const summary = await createExecutor({ registry, api: { image: fakeImageClient().client, chat }, settings: testSettings }).run(fan, { mode: 'all', onEvent: log.onEvent });
    expect(summary.status).toBe('succeeded');
    const items = log.events.filter((e) => e.type === 'node-item-done').sort((a, b) => (a as { item: number }).item - (b as { item: number }).item);
    expect(items.map((e) => (e as { notes?: string[] }).notes)).toEqual([undefined, ['stopped at max_tokens: 50']]);
    expect(log.events.find((e) => e.type === 'node-done' && e.nodeId === 'writer')).toMatchObject({ notes: ['item 2: stopped at max_tokens: 50'] });
    expect(summary.warnings).toEqual(["node 'writer' item 2: stopped at max_tokens: 50"]);
  });
});

describe('a whole completion (complete) as a node sees it', () => {
  const client = (finish: string, content: string): ChatClient => ({
    complete: () => Promise.resolve(completionBody(content, finish) as never),
    stream: () => { throw new Error('not used'); },
  });
  const request = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }], max_tokens: 12 };

  it('throws on a filtered answer and notes a capped one', async () => {
    const notes: string[] = [];
    const hooks = { onCall: () => undefined, onRetry: () => undefined, onNote: (n: string) => notes.push(n) };
    const filtered = nodeApi({ image: fakeImageClient().client, chat: client('content_filter', 'par') }, new AbortController().signal, hooks);
    await expect(filtered.chat.complete(request)).rejects.toBeInstanceOf(ContentFilterError);
    const capped = nodeApi({ image: fakeImageClient().client, chat: client('length', 'partial answer') }, new AbortController().signal, hooks);
    await expect(capped.chat.complete(request)).resolves.toMatchObject({ choices: [{ finish_reason: 'length' }] });
    expect(notes).toEqual(['stopped at max_tokens: 12']);
    expect(cappedNote({})).toBe("stopped at the model's own token limit (max_tokens not set)");
  });
});
