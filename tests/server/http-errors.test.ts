/**
 * Contract: every request that breaks the interface gets a non-200 text/plain answer naming the
 * field, and no bad request takes the server down or reaches the log beyond its request line.
 */
import { connect } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { postJson, raw } from './http';

let server: ServerProcess;
let goodJpeg: string;

beforeAll(async () => {
  server = await startServer();
  goodJpeg = (await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } }).jpeg().toBuffer()).toString('base64');
});
afterAll(async () => {
  await server.stop();
});

const IMAGE = '/local/image/generate/sdxl';
const CHAT = '/local/text/v1/chat/completions';

function expectTextError(res: { status: number; headers: Record<string, unknown>; text: string }, status: number, field: string): void {
  expect(res.status, res.text).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^text\/plain/);
  expect(res.text).toContain(field);
}

describe('body and transport errors', () => {
  it('refuses a body that is not JSON, naming body', async () => {
    expectTextError(await postJson(server.url, IMAGE, '{"prompt": "cat",'), 400, 'body: is not valid JSON');
  });
  it('refuses JSON that is not an object', async () => {
    expectTextError(await postJson(server.url, IMAGE, '[1,2]'), 400, 'body: must be a JSON object, not an array');
    expectTextError(await postJson(server.url, CHAT, 'null'), 400, 'body: must be a JSON object, not null');
    expectTextError(await postJson(server.url, CHAT, '"text"'), 400, 'body: must be a JSON object, not string');
  });
  it('refuses an empty body', async () => {
    expectTextError(await postJson(server.url, IMAGE, ''), 400, 'body: is empty');
  });
  it('refuses a Content-Type that is not JSON with 415, and accepts none or JSON with parameters', async () => {
    const res = await raw(server.url, IMAGE, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"prompt":"a cat"}' });
    expectTextError(res, 415, 'Content-Type');
    const none = await raw(server.url, IMAGE, { method: 'POST', body: JSON.stringify({ prompt: 'a cat', steps: 2 }) });
    expect(none.status, none.text).toBe(200);
    const charset = await postJson(server.url, IMAGE, { prompt: 'a cat', steps: 2 }, { 'Content-Type': 'application/json; charset=utf-8' });
    expect(charset.status, charset.text).toBe(200);
  });
  it('answers an unknown path under the API prefixes with 404 naming the path', async () => {
    expectTextError(await raw(server.url, '/local/image/generate'), 404, 'path: nothing at /local/image/generate');
    expectTextError(await postJson(server.url, '/local/text/v2/chat/completions', {}), 404, 'path');
    expectTextError(await raw(server.url, '/api/nope'), 404, 'path');
    expectTextError(await raw(server.url, '/forward/elsewhere/x'), 404, 'path');
  });
  it('answers an unknown engine with 404 naming engine_id and the engines', async () => {
    const res = await postJson(server.url, '/local/image/generate/dalle', { prompt: 'x' });
    expectTextError(res, 404, "engine_id: unknown engine 'dalle'");
    expect(res.text).toContain('sdxl, sd, controlnet-sdxl');
  });
  it('answers a wrong method with 405 and Allow', async () => {
    const get = await raw(server.url, IMAGE);
    expectTextError(get, 405, 'method: GET');
    expect(get.headers.allow).toBe('POST');
    const post = await postJson(server.url, '/local/text/v1/models', {});
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const root = await raw(server.url, '/', { method: 'DELETE' });
    expect(root.status).toBe(405);
    expect(root.headers.allow).toBe('GET, HEAD');
  });
});

describe('image requests that break the interface name their field', () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    ['unsupported resolution', IMAGE, { prompt: 'a cat', width: 512, height: 512 }, 'width: 512x512 is not a supported SDXL resolution'],
    ['unsupported SD 1.5 resolution', '/local/image/generate/sd', { prompt: 'a cat', width: 1024, height: 1024 }, 'width'],
    ['unknown sampler', IMAGE, { prompt: 'a cat', sampler: 'EULER_MAGIC' }, 'sampler'],
    ['style preset in the wrong case', IMAGE, { prompt: 'a cat', style_preset: 'Anime' }, 'style_preset'],
    ['prompt over the token limit', IMAGE, { prompt: Array.from({ length: 90 }, (_, i) => `word${i}`).join(' ') }, 'prompt: has'],
    ['mask without an image', IMAGE, { prompt: 'a cat', mask_image: 'AAAA' }, 'mask_image'],
    ['cfg_scale out of range', IMAGE, { prompt: 'a cat', cfg_scale: 500 }, 'cfg_scale'],
    ['steps not whole', IMAGE, { prompt: 'a cat', steps: 2.5 }, 'steps'],
    ['strength out of range', IMAGE, { prompt: 'a cat', init_image: 'AAAA', strength: 1.5 }, 'strength'],
    ['SDXL-only field on SD 1.5', '/local/image/generate/sd', { prompt: 'a cat', prompt_2: 'a cat' }, 'prompt_2'],
    ['unknown field', IMAGE, { prompt: 'a cat', sampler_name: 'DDIM' }, 'sampler_name'],
    ['missing prompt', IMAGE, { steps: 3 }, 'prompt'],
    ['unknown ControlNet', '/local/image/generate/controlnet-sdxl', { prompt: 'a cat', controlnet: 'svc:canny_sdxxl' }, "controlnet: unknown public ControlNet checkpoint 'svc:canny_sdxxl'"],
    ['private ControlNet without controlnet_image', '/local/image/generate/controlnet-sdxl', { prompt: 'a cat', controlnet: 'my_edges' }, 'controlnet_image'],
    ['data: URL instead of base64', IMAGE, { prompt: 'a cat', init_image: 'data:image/jpeg;base64,AAAA' }, 'init_image'],
  ];
  it.each(cases)('%s', async (_name, path, body, expected) => {
    expectTextError(await postJson(server.url, path, body), 400, expected);
  });

  it('refuses an image that does not decode, naming the field', async () => {
    const notAnImage = Buffer.from('this is not an image at all').toString('base64');
    expectTextError(await postJson(server.url, IMAGE, { prompt: 'a cat', init_image: notAnImage }), 400, 'init_image');
    expectTextError(await postJson(server.url, IMAGE, { prompt: 'a cat', init_image: goodJpeg, mask_image: notAnImage }), 400, 'mask_image');
  });
});

describe('chat requests that break the interface name their field', () => {
  const messages = [{ role: 'user', content: 'Write a prompt about a cabin' }];
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing model', { messages }, 'model'],
    ['missing messages', { model: 'atelier-local' }, 'messages'],
    ['unknown role', { model: 'x', messages: [{ role: 'robot', content: 'hi' }] }, 'messages.0.role'],
    ['temperature out of range', { model: 'x', messages, temperature: 2.5 }, 'temperature'],
    ['top_p out of range', { model: 'x', messages, top_p: 1.2 }, 'top_p'],
    ['frequency_penalty out of range', { model: 'x', messages, frequency_penalty: -0.1 }, 'frequency_penalty'],
    ['stop not a list', { model: 'x', messages, stop: 'END' }, 'stop'],
    ['stream not a boolean', { model: 'x', messages, stream: 'yes' }, 'stream'],
    ['unknown field', { model: 'x', messages, n: 2 }, 'n: is not a field'],
  ];
  it.each(cases)('%s', async (_name, body, expected) => {
    expectTextError(await postJson(server.url, CHAT, body), 400, expected);
  });

  it('still refuses an empty model name, naming model', async () => {
    expectTextError(await postJson(server.url, CHAT, { model: '', messages }), 400, 'model: is required');
  });
});

describe('resilience and the log', () => {
  it('keeps serving after malformed HTTP, cut-off bodies and a barrage of bad requests', async () => {
    await new Promise<void>((resolveSocket) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.end('NOT HTTP AT ALL\r\n\r\n'));
      socket.on('close', () => resolveSocket());
      socket.on('error', () => resolveSocket());
      socket.resume();
    });
    await new Promise<void>((resolveSocket) => {
      const socket = connect(server.port, '127.0.0.1', () => {
        socket.write(`POST ${IMAGE} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"prompt": "a c`);
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolveSocket());
      socket.on('error', () => resolveSocket());
    });
    const bad = await Promise.all(Array.from({ length: 20 }, (_, i) => postJson(server.url, i % 2 ? IMAGE : CHAT, i % 3 ? '{' : { prompt: 7 })));
    for (const res of bad) expect(res.status).toBe(400);
    const ok = await postJson(server.url, IMAGE, { prompt: 'still alive', steps: 2 });
    expect(ok.status).toBe(200);
    expect(server.output()).not.toMatch(/error:/);
  });

  it('logs method, path, status and duration, and nothing of the body, headers or query', async () => {
    const marker = 'zebra-marker-7731';
    await postJson(server.url, `${IMAGE}?note=${marker}`, { prompt: `a ${marker}`, sampler: marker }, { 'X-Note': marker });
    await postJson(server.url, CHAT, `{"model": "${marker}"`);
    const log = await server.waitForOutput(/POST \/local\/text\/v1\/chat\/completions 400 /);
    expect(log).toMatch(/POST \/local\/image\/generate\/sdxl\?… 400 \d+(\.\d+)?ms/);
    expect(log).not.toContain(marker);
  });
});
