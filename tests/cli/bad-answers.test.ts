/**
 * Services that answer 200 with something wrong: an image API whose images are not images (the
 * node fails naming what arrived, and no file is written as if it were a picture).
 */
import { readdirSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';
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
