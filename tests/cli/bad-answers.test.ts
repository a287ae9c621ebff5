/**
 * Services that answer 200 with something wrong: an image API whose images are not images (the
 * node fails naming what arrived, and no file is written as if it were a picture), and chat
 * answers the model did not finish cleanly (filtered, cut at max_tokens, empty).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startMisbehavingServer, startStream, streamFrames, type MisbehavingServer } from '../helpers/misbehaving-server';
import { example, onlyRunDir, readManifest, runCli } from './helpers';

let upstream: MisbehavingServer;
beforeAll(async () => {
  upstream = await startMisbehavingServer();
});
afterAll(() => upstream.close());

const random = Buffer.alloc(4096);
for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
random.set([0x3f, 0x2a], 0);
const noise = Buffer.alloc(128 * 128 * 3);
for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;

describe('an image API that answers 200 with no image', () => {
  it.each([
    ['random bytes', random.toString('base64'), /draw: the sdxl engine answered HTTP 200 but image 1 is not a JPEG\/PNG\/WebP: 4,096 bytes starting 3f 2a/],
    ['invalid base64', '%%% not base64 %%%', /draw: the sdxl engine answered HTTP 200 but image 1 is not valid base64/],
    // A real JPEG cut after its first 3,000 bytes, as a dropped proxy connection leaves it.
    ['a truncated JPEG', 'jpeg-cut', /draw: the sdxl engine answered HTTP 200 but image 1 is a truncated JPEG \(3,000 bytes: no end-of-image marker at its end\)/],
  ])('%s: exits 1 naming the node, and writes no image file', async (_what, imageB64, message) => {
    const b64 = imageB64 === 'jpeg-cut' ? (await sharp(noise, { raw: { width: 128, height: 128, channels: 3 } }).jpeg().toBuffer()).subarray(0, 3000).toString('base64') : imageB64;
    upstream.handle((_req, res) => sendJson(res, 200, { images: [{ image_b64: b64, seed: 7 }] }));
    const { code, stderr, cwd } = await runCli(['run', example('chat-to-image'), '--image-base-url', upstream.url]);
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(message);
    const dir = onlyRunDir(cwd);
    expect(readdirSync(dir).filter((f) => !f.endsWith('.txt') && f !== 'manifest.json')).toEqual([]);
    const m = readManifest(dir);
    expect(m.nodes.draw).toMatchObject({ status: 'failed', error: { kind: 'invalid-response' } });
    expect(m.nodes.preview).toMatchObject({ status: 'skipped', skippedBecause: 'draw' });
  });
});

describe('a chat answer the model did not finish cleanly', () => {
  const chat = (pieces: string[], finish: string) => upstream.handle((_req, res) => {
    startStream(res, streamFrames(pieces.length === 0 ? [''] : pieces, { finish }));
    res.end();
  });
  const runChat = () => runCli(['run', example('chat-to-image'), '--text-base-url', upstream.url, '--model', 'mixtral-8x7b-instruct']);

  it('cut at max_tokens: used, and marked on its progress line, in a warning and in the manifest', async () => {
    chat(['A lighthouse on a cliff ', 'at dusk, its beam'], 'length');
    const { code, stderr, cwd } = await runChat();
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/ {2}done {6}writer {2}[\d.]+ m?s {2}\(stopped at max_tokens: 120\)\n/);
    expect(stderr).toContain("warning: node 'writer': stopped at max_tokens: 120");
    const dir = onlyRunDir(cwd);
    expect(readFileSync(join(dir, 'writer-text.txt'), 'utf8')).toBe('A lighthouse on a cliff at dusk, its beam');
    const m = readManifest(dir);
    expect(m.nodes.writer).toMatchObject({ status: 'done', notes: ['stopped at max_tokens: 120'] });
    expect(m.nodes.draw).not.toHaveProperty('notes');
    expect(m.warnings).toContain("node 'writer': stopped at max_tokens: 120");
  });

  it('stopped by the content filter: the node fails saying so, and neither its text nor a picture is written', async () => {
    chat(['A dark alley ', 'where the'], 'content_filter');
    const { code, stderr, cwd } = await runChat();
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/writer: the chat model's content filter stopped the answer after 22 characters of text had arrived/);
    const dir = onlyRunDir(cwd);
    expect(readdirSync(dir).filter((f) => f !== 'manifest.json').sort()).toEqual(['subject-text.txt']);
    expect(readManifest(dir).nodes.writer).toMatchObject({ status: 'failed', error: { kind: 'content-filter' } });
  });

  it('empty: the image node it feeds stops before sending, naming its prompt input', async () => {
    chat([], 'stop');
    const { code, stderr, cwd } = await runChat();
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/draw: input 'Prompt' got an empty text from 'writer': the engine gets no prompt to follow, so nothing was sent/);
    const m = readManifest(onlyRunDir(cwd));
    expect(m.nodes.writer).toMatchObject({ status: 'done', notes: ['the answer was empty'] });
    expect(m.nodes.draw).toMatchObject({ status: 'failed', requests: [] });
  });
});
