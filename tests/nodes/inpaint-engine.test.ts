/**
 * A painted mask through the real path: the executor, the real catalogue and API clients, and
 * the local engines started in this process. The mask is a PNG as the editor's painter saves it
 * (opaque, white where painted on black), and the output must change only where it is white.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatClient } from '../../api/chat-client';
import { createImageClient } from '../../api/image-client';
import type { ImageRequest } from '../../api/image';
import { registry } from '../../nodes/index';
import type { Value } from '../../nodes/types';
import { createAtelierServer } from '../../server/app';
import { localEnginesConfig } from '../../server/config';
import { LOCAL_CHAT_MODELS } from '../../server/engines/text';
import { silentLogger } from '../../server/log';
import { createExecutor } from '../../workers/executor';
import { workflow } from '../workers/fakes';

const W = 512;
const H = 512;
/** The painted stroke: a band across the left part of the image. */
const BAND = { left: 64, top: 192, width: 192, height: 128 };

let server: Awaited<ReturnType<typeof createAtelierServer>>;

beforeAll(async () => {
  server = await createAtelierServer(localEnginesConfig(), { logger: silentLogger });
});

afterAll(async () => {
  await server.close();
});

async function paintedMask(): Promise<string> {
  const white = await sharp({ create: { width: BAND.width, height: BAND.height, channels: 3, background: '#ffffff' } }).png().toBuffer();
  const png = await sharp({ create: { width: W, height: H, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 1 } } })
    .composite([{ input: white, left: BAND.left, top: BAND.top }])
    .png()
    .toBuffer();
  return png.toString('base64');
}

async function grey(value: Value | undefined): Promise<Uint8Array> {
  if (value?.kind !== 'image') throw new Error(`expected an image, got ${value?.kind ?? 'nothing'}`);
  const { data, info } = await sharp(Buffer.from(value.value.b64, 'base64')).greyscale().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([W, H]);
  return data;
}

/** Mean absolute difference of two grey images inside a rectangle. */
function meanDiff(a: Uint8Array, b: Uint8Array, r: { left: number; top: number; width: number; height: number }): number {
  let sum = 0;
  for (let y = r.top; y < r.top + r.height; y++) {
    for (let x = r.left; x < r.left + r.width; x++) sum += Math.abs(a[y * W + x]! - b[y * W + x]!);
  }
  return sum / (r.width * r.height);
}

describe('inpaint with a painted mask on the local engines', () => {
  it('repaints where the mask is white and keeps the rest, sending the painted PNG as it is', async () => {
    const sent: ImageRequest[] = [];
    const image = createImageClient({ baseUrl: `${server.url}/local/image` });
    const exec = createExecutor({
      registry,
      api: {
        image: { generate: (engine, request, options) => { sent.push(request); return image.generate(engine, request, options); } },
        chat: createChatClient({ baseUrl: `${server.url}/local/text` }),
      },
      settings: { chatModel: LOCAL_CHAT_MODELS[0]! },
    });
    const mask = await paintedMask();
    const wf = workflow(
      [
        ['draw', 'text-to-image', { engine: 'sd', prompt: 'a meadow under a pale sky', seed: 3, steps: 4 }],
        ['fix', 'inpaint', { engine: 'sd', prompt: 'a bright red kite', seed: 4, steps: 4, mask_paint: { b64: mask, width: W, height: H } }],
      ],
      ['draw.image -> fix.image'],
    );
    const outputs = new Map<string, Record<string, Value>>();
    const summary = await exec.run(wf, { mode: 'all', onEvent: (e) => { if (e.type === 'node-done') outputs.set(e.nodeId, e.outputs); } });
    expect(summary.status).toBe('succeeded');

    const inpaintRequest = sent.find((r) => r.init_image !== undefined);
    expect(inpaintRequest?.mask_image).toBe(mask);

    const before = await grey(outputs.get('draw')?.image);
    const after = await grey(outputs.get('fix')?.image);
    // Inside the band, shrunk by a few pixels to stay clear of the resize filter's soft edge.
    const inside = meanDiff(before, after, { left: BAND.left + 8, top: BAND.top + 8, width: BAND.width - 16, height: BAND.height - 16 });
    const farRight = meanDiff(before, after, { left: 320, top: 0, width: 192, height: 512 });
    const above = meanDiff(before, after, { left: 0, top: 0, width: 512, height: 160 });
    expect(inside).toBeGreaterThan(12);
    // Outside the band only JPEG re-encoding separates the two.
    expect(farRight).toBeLessThan(3);
    expect(above).toBeLessThan(3);
  });
});
