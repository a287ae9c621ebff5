import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChatClient, type ChatClientConfig } from '../../api/chat-client';
import type { ChatStreamEvent } from '../../api/client-types';
import { ApiError } from '../../api/errors';
import {
  chunkFrame, completionBody, dropConnection, sendJson, sendText, startMisbehavingServer, startStream, streamFrames,
  type MisbehavingServer,
} from '../helpers/misbehaving-server';

const request = { model: 'test-model', messages: [{ role: 'user' as const, content: 'A prompt about a cabin' }] };

let server: MisbehavingServer;
beforeEach(async () => { server = await startMisbehavingServer(); });
afterEach(async () => { await server.close(); });

function client(overrides: Partial<ChatClientConfig> = {}) {
  return createChatClient({
    baseUrl: server.url, timeouts: { headersMs: 2000, idleMs: 2000 }, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...overrides,
  });
}

/** Reads a stream to its end or its error, keeping what arrived before an error. */
async function drain(stream: AsyncIterable<ChatStreamEvent>): Promise<{ events: ChatStreamEvent[]; error?: ApiError }> {
  const events: ChatStreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { events, error };
  }
}

const textOf = (events: ChatStreamEvent[]) => events.map((e) => e.text).join('');
const happyFrames = streamFrames(['A cozy ', 'log cabin', ' at dusk']);

describe('chat client: whole completions', () => {
  it('posts the request with stream false and returns the parsed completion', async () => {
    server.handle((_req, res) => sendJson(res, 200, completionBody('A cabin in the snow')));
    const completion = await client({ token: 'tok-123' }).complete(request);
    expect(completion.choices[0]?.message.content).toBe('A cabin in the snow');
    const [sent] = server.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/chat/completions');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.authorization).toBe('Bearer tok-123');
    expect(JSON.parse(sent?.body ?? '')).toEqual({ ...request, stream: false });
  });

  it('keeps the base path and ignores a trailing slash', async () => {
    server.handle((_req, res) => sendJson(res, 200, completionBody('ok')));
    await client({ baseUrl: `${server.url}/local/text/` }).complete(request);
    expect(server.requests[0]?.url).toBe('/local/text/v1/chat/completions');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('takes the message out of a JSON error body and does not retry a 400', async () => {
    server.handle((_req, res) => sendJson(res, 400, { error: { message: 'temperature: must be between 0 and 2', type: 'invalid_request' } }));
    const error = await client().complete(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', status: 400, serviceMessage: 'temperature: must be between 0 and 2', retryable: false, attempts: 1 });
    expect((error as ApiError).message).toContain(`POST ${server.url}/v1/chat/completions`);
    expect(server.requests).toHaveLength(1);
  });

  it('lists the model names', async () => {
    server.handle((_req, res) => sendJson(res, 200, { object: 'list', data: [{ id: 'local-small', object: 'model' }, { id: 'local-large', object: 'model' }] }));
    expect(await client().listModels()).toEqual(['local-small', 'local-large']);
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/v1/models' });
  });
});

describe('chat client: streams', () => {
  it('yields the role chunk, the text pieces and the finish reason, and ends at [DONE]', async () => {
    server.handle((_req, res) => { startStream(res, happyFrames); res.end(); });
    const { events, error } = await drain(client().stream(request));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { text: '', finishReason: null }, { text: 'A cozy ', finishReason: null },
      { text: 'log cabin', finishReason: null }, { text: ' at dusk', finishReason: 'stop' },
    ]);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ ...request, stream: true });
    expect(server.requests[0]?.headers.accept).toBe('text/event-stream');
  });

  it('parses events split at arbitrary byte boundaries, CRLF line ends included', async () => {
    const whole = happyFrames.join('').replace(/\n/g, '\r\n');
    server.handle(async (_req, res) => {
      startStream(res);
      for (let i = 0; i < whole.length; i += 7) {
        res.write(whole.slice(i, i + 7));
        await new Promise((r) => setImmediate(r));
      }
      res.end();
    });
    const { events, error } = await drain(client().stream(request));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('A cozy log cabin at dusk');
  });

  it('accepts a final [DONE] that lacks only its blank line', async () => {
    server.handle((_req, res) => { startStream(res, [...happyFrames.slice(0, -1), 'data: [DONE]']); res.end(); });
    const { events, error } = await drain(client().stream(request));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('A cozy log cabin at dusk');
  });

  it('reads a stream whose chunk lines end in a single line break (one data: line per chunk, 2.9.1)', async () => {
    const lines = happyFrames.map((frame) => frame.replace(/\n\n$/, '\n'));
    server.handle((_req, res) => { startStream(res, lines); res.end(); });
    const { events, error } = await drain(client().stream(request));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('A cozy log cabin at dusk');
    expect(events.at(-1)?.finishReason).toBe('stop');
  });

  it('keeps the text of single-line-break chunks when such a stream ends without [DONE]', async () => {
    const lines = happyFrames.slice(0, 3).map((frame) => frame.replace(/\n\n$/, '\n'));
    server.handle((_req, res) => { startStream(res, lines); res.end(); });
    const { events, error } = await drain(client().stream(request));
    expect(textOf(events)).toBe('A cozy log cabin');
    expect(error).toMatchObject({ kind: 'protocol', partialText: 'A cozy log cabin' });
    expect(error?.message).toContain('without [DONE]');
  });

  it('turns a stream that ends without [DONE] into a protocol error keeping the partial text', async () => {
    server.handle((_req, res) => { startStream(res, happyFrames.slice(0, 3)); res.end(); });
    const { events, error } = await drain(client().stream(request));
    expect(textOf(events)).toBe('A cozy log cabin');
    expect(error).toMatchObject({ kind: 'protocol', partialText: 'A cozy log cabin', retryable: false });
    expect(error?.message).toContain('without [DONE]');
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the text of a stream that gave its finish_reason and closed without [DONE], with a warning', async () => {
    for (const finish of ['stop', 'length']) {
      server.handle((_req, res) => { startStream(res, streamFrames(['A cozy ', 'log cabin', ' at dusk'], { finish, done: false })); res.end(); });
      const { events, error } = await drain(client().stream(request));
      expect(error).toBeUndefined();
      expect(textOf(events)).toBe('A cozy log cabin at dusk');
      expect(events.filter((e) => e.finishReason !== null).map((e) => e.finishReason)).toEqual([finish]);
      const warnings = events.filter((e) => e.warning !== undefined);
      expect(warnings).toEqual([{ text: '', finishReason: null, warning: expect.stringContaining('without [DONE]') as unknown }]);
      expect(warnings[0]!.warning).toContain(`finish_reason "${finish}"`);
      expect(events.at(-1)).toBe(warnings[0]);
    }
    expect(server.requests).toHaveLength(2);
  });

  it('keeps a finished stream without [DONE] whose last line or event was never ended', async () => {
    const frames = streamFrames(['A cozy ', 'log cabin'], { done: false });
    for (const last of [frames.at(-1)!.replace(/\n\n$/, ''), frames.at(-1)!.replace(/\n\n$/, '\n')]) {
      server.handle((_req, res) => { startStream(res, [...frames.slice(0, -1), last]); res.end(); });
      const { events, error } = await drain(client().stream(request));
      expect(error).toBeUndefined();
      expect(textOf(events)).toBe('A cozy log cabin');
      expect(events.at(-1)?.warning).toContain('without [DONE]');
    }
  });

  it('turns a stream cut in the middle of an event into a protocol error keeping the partial text', async () => {
    const half = chunkFrame('never seen').slice(0, 40);
    server.handle((_req, res) => { startStream(res, [...happyFrames.slice(0, 2), half]); res.end(); });
    const { error } = await drain(client().stream(request));
    expect(error).toMatchObject({ kind: 'protocol', partialText: 'A cozy ' });
    expect(error?.message).toContain('cut in the middle of an event');
  });

  it('refuses a chunk that is not JSON, or not a chunk', async () => {
    server.handle((_req, res) => { startStream(res, [happyFrames[1]!, 'data: {not json\n\n']); res.end(); });
    const notJson = await drain(client().stream(request));
    expect(notJson.error).toMatchObject({ kind: 'protocol', partialText: 'A cozy ' });
    server.handle((_req, res) => { startStream(res, ['data: {"id":"x","choices":"nope"}\n\n']); res.end(); });
    const notChunk = await drain(client().stream(request));
    expect(notChunk.error?.kind).toBe('protocol');
    expect(notChunk.error?.message).toContain('choices');
  });

  it('reports an error object sent inside the stream with the service message', async () => {
    server.handle((_req, res) => { startStream(res, [happyFrames[1]!, 'data: {"error":{"message":"model overloaded"}}\n\n']); res.end(); });
    const { error } = await drain(client().stream(request));
    expect(error).toMatchObject({ kind: 'http', serviceMessage: 'model overloaded', partialText: 'A cozy ' });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a failure that comes before any text: an error status, then a drop after the role chunk', async () => {
    server.handle((req, res) => {
      if (req.index === 1) return sendText(res, 503, 'warming up');
      if (req.index === 2) {
        startStream(res, [happyFrames[0]!]);
        setTimeout(() => dropConnection(res), 20);
        return;
      }
      startStream(res, happyFrames);
      res.end();
    });
    const notices: number[] = [];
    const { events, error } = await drain(client().stream(request, { onRetry: (n) => notices.push(n.attempt) }));
    expect(error).toBeUndefined();
    expect(textOf(events)).toBe('A cozy log cabin at dusk');
    expect(server.requests).toHaveLength(3);
    expect(notices).toEqual([2, 3]);
  });

  it('never retries once text has been produced: the error keeps the text instead', async () => {
    server.handle((_req, res) => {
      startStream(res, happyFrames.slice(0, 2));
      setTimeout(() => dropConnection(res), 20);
    });
    const { events, error } = await drain(client({ retry: { maxAttempts: 5, baseDelayMs: 1 } }).stream(request));
    expect(textOf(events)).toBe('A cozy ');
    expect(error).toMatchObject({ kind: 'network', partialText: 'A cozy ' });
    expect(server.requests).toHaveLength(1);
  });

  it('times out a stream that goes silent, keeping the partial text', async () => {
    server.handle((_req, res) => startStream(res, happyFrames.slice(0, 2)));
    const { error } = await drain(client({ timeouts: { headersMs: 2000, idleMs: 80 } }).stream(request));
    expect(error).toMatchObject({ kind: 'timeout', partialText: 'A cozy ' });
    expect(error?.message).toContain('silent for 80 ms');
    await server.clientHungUp(1);
  });

  it('stops reading when aborted mid-stream, and the server sees the connection close', async () => {
    server.handle((_req, res) => startStream(res, happyFrames.slice(0, 2)));
    const controller = new AbortController();
    const events: ChatStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of client().stream(request, { signal: controller.signal })) {
        events.push(event);
        if (event.text !== '') setTimeout(() => controller.abort(), 10);
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'aborted', partialText: 'A cozy ', retryable: false });
    expect(textOf(events)).toBe('A cozy ');
    await server.clientHungUp(1);
  });

  it('closes the connection when the consumer stops early', async () => {
    server.handle((_req, res) => startStream(res, happyFrames.slice(0, 2)));
    for await (const event of client().stream(request)) {
      if (event.text !== '') break;
    }
    await server.clientHungUp(1);
  });

  it('accepts a whole JSON completion from a server that ignores stream: true', async () => {
    server.handle((_req, res) => sendJson(res, 200, completionBody('All at once', 'length')));
    const { events, error } = await drain(client().stream(request));
    expect(error).toBeUndefined();
    expect(events).toEqual([{ text: 'All at once', finishReason: 'length', usage: { completion_tokens: 3, prompt_tokens: 5, total_tokens: 8 } }]);
  });
});
