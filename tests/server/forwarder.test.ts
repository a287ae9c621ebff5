/**
 * Contract: the forwarder sends only to its configured upstream, at fixed paths, with the
 * server's token (never the browser's), passes status, content type and streams through, and
 * says clearly when it is not configured or the upstream cannot be reached.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { startFakeUpstream, UPSTREAM_STREAM, type FakeUpstream } from './fake-upstream';
import { postJson, raw } from './http';

const SERVER_TOKEN = 'server-side-T0ken-4Fw9';
const BROWSER_TOKEN = 'browser-sent-B7x2Qa1';
const image = { prompt: 'a quiet harbour', steps: 4 };
const chat = { model: 'upstream-model', messages: [{ role: 'user', content: 'a prompt about pines' }] };

let upstream: FakeUpstream;
let server: ServerProcess;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  server = await startServer({
    ATELIER_IMAGE_BASE_URL: `${upstream.url}/image-api/`,
    ATELIER_TEXT_BASE_URL: upstream.url,
    ATELIER_TOKEN: SERVER_TOKEN,
  });
});
afterAll(async () => {
  await server.stop();
  await upstream.close();
});

const last = () => upstream.received.at(-1)!;

describe('forwarding image requests', () => {
  it('sends the body to the fixed path with the server\'s token, never the browser\'s headers', async () => {
    const res = await postJson(server.url, '/forward/image/generate/sdxl?target=http://elsewhere.example/x', image, {
      Authorization: `Bearer ${BROWSER_TOKEN}`,
      Cookie: 'session=browser',
      'X-Api-Key': BROWSER_TOKEN,
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.text)).toEqual({ images: [{ image_b64: '/9j/AAAA', seed: 7 }], prediction_time_ms: 12 });
    expect(res.headers['x-request-id']).toBe('req-42');
    expect(res.headers['set-cookie']).toBeUndefined();

    const sent = last();
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/image-api/generate/sdxl');
    expect(sent.headers.authorization).toBe(`Bearer ${SERVER_TOKEN}`);
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers.cookie).toBeUndefined();
    expect(JSON.stringify(sent.headers)).not.toContain(BROWSER_TOKEN);
    expect(JSON.parse(sent.body)).toEqual(image);
  });

  it('passes the upstream status and its headers that matter through', async () => {
    const res = await postJson(server.url, '/forward/image/generate/controlnet-sdxl', image);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('3');
    expect(res.text).toBe('slow down');
  });

  it('takes its own token out of an upstream error that repeats the request', async () => {
    const res = await postJson(server.url, '/forward/image/generate/sd', { prompt: 'echo the request' });
    expect(res.status).toBe(400);
    expect(last().headers.authorization).toBe(`Bearer ${SERVER_TOKEN}`);
    expect(res.text).toContain('bad request; you sent');
    expect(res.text).toContain('[redacted]');
    expect(res.text).not.toContain(SERVER_TOKEN);
  });

  it('with a token that is a word, takes it out of the echoed headers and nowhere else, and logs /local/text as it is', async () => {
    // Local servers take any token: `none` upstream, `text` for the local engines.
    const wordy = await startServer({ ATELIER_IMAGE_BASE_URL: `${upstream.url}/image-api/`, ATELIER_TOKEN: 'none', ATELIER_LOCAL_TOKEN: 'text' });
    try {
      const auth = { Authorization: 'Bearer text' };
      const res = await postJson(wordy.url, '/forward/image/generate/sd', { prompt: 'echo the request: none of the text, please' }, auth);
      expect(res.status).toBe(400);
      expect(last().headers.authorization).toBe('Bearer none');
      expect(res.text).toContain('"authorization":"Bearer [redacted]"');
      expect(res.text).not.toContain('Bearer none');
      expect(res.text).toContain('none of the text, please');
      expect((await raw(wordy.url, '/local/text/v1/models', { headers: auth })).status).toBe(200);
    } finally {
      const { output } = await wordy.stop();
      expect(output).toMatch(/GET \/local\/text\/v1\/models 200/);
      expect(output).not.toContain('[redacted]');
    }
  });

  it('takes nothing but a known engine id from the path', async () => {
    const before = upstream.received.length;
    for (const path of ['/forward/image/generate/dalle', '/forward/image/generate/..%2F..%2Fadmin', '/forward/image/generate/sdxl/extra', '/forward/image/generate/%2F%2Felsewhere.example']) {
      const res = await postJson(server.url, path, image);
      expect(res.status, path).toBe(404);
    }
    expect(upstream.received.length).toBe(before);
  });

  it('forwards only JSON objects', async () => {
    const before = upstream.received.length;
    expect((await postJson(server.url, '/forward/image/generate/sdxl', '[1]')).status).toBe(400);
    expect((await raw(server.url, '/forward/image/generate/sdxl', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' })).status).toBe(415);
    expect(upstream.received.length).toBe(before);
  });
});

describe('forwarding chat requests', () => {
  it('lists the upstream models', async () => {
    const res = await raw(server.url, '/forward/text/v1/models', { headers: { Authorization: `Bearer ${BROWSER_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ data: [{ id: 'upstream-model' }] });
    expect(last()).toMatchObject({ method: 'GET', url: '/v1/models' });
    expect(last().headers.authorization).toBe(`Bearer ${SERVER_TOKEN}`);
  });

  it('passes a stream through event by event, as it arrives', async () => {
    const res = await fetch(`${server.url}/forward/text/v1/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...chat, stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // The upstream holds everything after its first event until released: it must arrive alone.
    while (!text.includes('\n\n')) text += decoder.decode((await reader.read()).value);
    expect(text).toBe(UPSTREAM_STREAM[0]);
    (await upstream.stream(0)).release();
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
    expect(text).toBe(UPSTREAM_STREAM.join(''));
    expect(last().url).toBe('/v1/chat/completions');
    expect(last().headers.authorization).toBe(`Bearer ${SERVER_TOKEN}`);
  });

  it('abandons the upstream request when the browser goes away', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/forward/text/v1/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...chat, stream: true }),
      signal: controller.signal,
    });
    await res.body!.getReader().read();
    const held = await upstream.stream(1);
    controller.abort();
    expect(await held.closed).toEqual({ completed: false });
  });

  it('does not follow an upstream redirect, which could carry the token elsewhere', async () => {
    const res = await postJson(server.url, '/forward/text/v1/chat/completions', chat);
    expect(res.status).toBe(502);
    expect(res.text).toContain('redirect');
    expect(res.text).not.toContain(SERVER_TOKEN);
  });
});

describe('forwarder settings', () => {
  it('answers 503 naming the settings when not configured', async () => {
    const bare = await startServer();
    try {
      const img = await postJson(bare.url, '/forward/image/generate/sdxl', image);
      expect(img.status).toBe(503);
      expect(img.headers['content-type']).toMatch(/^text\/plain/);
      expect(img.text).toContain('forwarder not configured: set ATELIER_IMAGE_BASE_URL');
      const txt = await postJson(bare.url, '/forward/text/v1/chat/completions', chat);
      expect(txt.status).toBe(503);
      expect(txt.text).toContain('ATELIER_TEXT_BASE_URL');
      const info = JSON.parse((await raw(bare.url, '/api/info')).text) as { forwarder: { image: boolean; text: boolean } };
      expect(info.forwarder).toMatchObject({ image: false, text: false });
    } finally {
      await bare.stop();
    }
  });

  it('reads a private config file, refuses its token when others can read it, and lets the environment override it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-config-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ imageBaseUrl: `${upstream.url}/from-file`, textBaseUrl: upstream.url, token: 'file-token-Zx81' }));

    chmodSync(file, 0o600);
    const fromFile = await startServer({ ATELIER_CONFIG: file });
    await postJson(fromFile.url, '/forward/image/generate/sd', image);
    expect(last()).toMatchObject({ url: '/from-file/generate/sd' });
    expect(last().headers.authorization).toBe('Bearer file-token-Zx81');
    const { output } = await fromFile.stop();
    expect(output).not.toContain('file-token-Zx81');

    const overridden = await startServer({ ATELIER_CONFIG: file, ATELIER_TOKEN: SERVER_TOKEN });
    await postJson(overridden.url, '/forward/image/generate/sd', image);
    expect(last().headers.authorization).toBe(`Bearer ${SERVER_TOKEN}`);
    await overridden.stop();

    chmodSync(file, 0o644);
    const exposed = await startServer({ ATELIER_CONFIG: file });
    await postJson(exposed.url, '/forward/image/generate/sd', image);
    expect(last().headers.authorization).toBeUndefined();
    const warned = await exposed.stop();
    expect(warned.output).toContain(`warning: the config file ${file} holds a token but other users can read it`);
    expect(warned.output).toContain('chmod 600');
    expect(warned.output).not.toContain('file-token-Zx81');
  });
});
