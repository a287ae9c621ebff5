import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { imageCodec } from '../../../api/backends/comfyui/images';
import { startComfyDouble, type ComfyDouble } from '../../helpers/doubles/comfyui';
import { comfyOn, imageBase64 } from './helpers';

let comfy: ComfyDouble;
beforeEach(async () => { comfy = await startComfyDouble(); });
afterEach(async () => {
  vi.restoreAllMocks();
  await comfy.close();
});

async function pixel(b64: string) {
  const { data, info } = await sharp(Buffer.from(b64, 'base64')).raw().toBuffer({ resolveWithObject: true });
  return { rgb: [data[0], data[1], data[2]], width: info.width, height: info.height };
}

describe('ComfyUI generate against the double', () => {
  it('queues the graph with a client id, reports each step over the WebSocket, and returns the saved PNGs', async () => {
    const progress: [number, string | undefined][] = [];
    const response = await comfyOn(comfy).generate('sdxl', { prompt: 'a lighthouse', seed: 66_051, steps: 4, num_images: 2, width: 832, height: 1216 }, {
      onProgress: (fraction, message) => progress.push([fraction, message]),
    });
    expect(response.images).toHaveLength(2);
    expect(response.images.map((i) => i.seed)).toEqual([66_051, 66_051]);
    const first = await pixel(response.images[0]!.image_b64);
    // The double paints a PNG whose colour is the seed's bytes: 66051 = 0x010203.
    expect(first).toEqual({ rgb: [3, 2, 1], width: 832, height: 1216 });
    expect((await pixel(response.images[1]!.image_b64)).rgb).not.toEqual(first.rgb);

    const [sent] = comfy.received.prompts;
    expect(sent).toMatchObject({ client_id: expect.any(String) as unknown, prompt_id: expect.any(String) as unknown });
    expect(comfy.received.requests.map((r) => r.path).filter((p) => p.startsWith('/ws'))).toEqual([`/ws?clientId=${String(sent?.client_id)}`]);
    expect(progress).toEqual([
      [0, 'queued in ComfyUI'], [0, 'started in ComfyUI'],
      [0.25, 'step 1 of 4'], [0.5, 'step 2 of 4'], [0.75, 'step 3 of 4'], [1, 'step 4 of 4'], [1, 'done'],
    ]);
    expect(comfy.received.requests.some((r) => r.path.startsWith('/view?filename=Atelier_'))).toBe(true);
  });

  it('counts steps across the base and the refiner', async () => {
    const steps: string[] = [];
    await comfyOn(comfy).generate('sdxl', { prompt: 'a fox', use_refiner: true, high_noise_frac: 0.5, steps: 4, seed: 1 }, {
      onProgress: (_f, message) => { if (message?.startsWith('step')) steps.push(message); },
    });
    expect(steps).toEqual(['step 1 of 4', 'step 2 of 4', 'step 3 of 4', 'step 4 of 4']);
  });

  it('takes progress without a prompt_id (older ComfyUI) from its own socket', async () => {
    await comfy.close();
    comfy = await startComfyDouble({ progressWithoutPromptId: true });
    const steps: string[] = [];
    await comfyOn(comfy).generate('sd', { prompt: 'x', steps: 2, seed: 1 }, { onProgress: (_f, m) => { if (m?.startsWith('step')) steps.push(m); } });
    expect(steps).toEqual(['step 1 of 2', 'step 2 of 2']);
  });

  it('does not queue a prompt twice when the answer to POST /prompt is lost', async () => {
    let lost = false;
    const losing: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!lost && init?.method === 'POST' && String(input).endsWith('/prompt')) {
        lost = true;
        await response.arrayBuffer();
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
      }
      return response;
    };
    const backend = comfyOn(comfy, { fetch: losing, retry: { maxAttempts: 2, sleep: () => Promise.resolve() } });
    const response = await backend.generate('sd', { prompt: 'x', steps: 1, seed: 1 });
    expect(response.images).toHaveLength(1);
    expect(comfy.received.prompts).toHaveLength(1);
  });

  it('polls the queue and the history when there is no WebSocket constructor', async () => {
    const messages: string[] = [];
    const response = await comfyOn(comfy, { WebSocket: undefined }).generate('sd', { prompt: 'a cat', steps: 3, seed: 3 }, {
      onProgress: (_f, message) => messages.push(message ?? ''),
    });
    expect(response.images).toHaveLength(1);
    expect(comfy.received.requests.some((r) => r.path.startsWith('/ws'))).toBe(false);
    expect(comfy.received.requests.filter((r) => r.path === '/queue').length).toBeGreaterThan(0);
    expect(messages.at(-1)).toBe('done');
  });

  it('falls back to polling when ComfyUI (or a proxy) refuses the WebSocket', async () => {
    await comfy.close();
    comfy = await startComfyDouble({ webSocket: false });
    const response = await comfyOn(comfy).generate('sd', { prompt: 'a cat', steps: 2, seed: 9 });
    expect(response.images).toHaveLength(1);
    expect(comfy.received.requests.filter((r) => r.path.startsWith('/history/')).length).toBe(1);
  });

  it('uploads each input image once, named by its content, and finds it there on a re-run', async () => {
    const init = await imageBase64('#102030', 'jpeg');
    const mask = await imageBase64('#ffffff');
    const backend = comfyOn(comfy);
    const request = { prompt: 'a door', init_image: init, mask_image: mask, steps: 2, seed: 4, width: 512, height: 512 };
    const decode = vi.spyOn(imageCodec, 'decode');
    await backend.generate('sd', request);
    expect(decode).toHaveBeenCalledTimes(2);
    const names = comfy.received.uploads.map((u) => u.name);
    expect(names).toEqual([expect.stringMatching(/^atelier-[0-9a-f]{32}\.jpg$/), expect.stringMatching(/^atelier-[0-9a-f]{32}\.png$/)]);
    expect(comfy.received.uploads.every((u) => u.type === 'input' && u.overwrite === 'true')).toBe(true);
    // The JPEG is sent as it came: decoded once to bytes, never re-encoded.
    expect(Buffer.from(comfy.received.uploads[0]!.bytes).toString('base64')).toBe(init);
    const loads = Object.values(comfy.received.prompts[0]?.prompt as Record<string, { class_type: string; inputs: { image?: string } }>)
      .filter((n) => n.class_type === 'LoadImage').map((n) => n.inputs.image);
    expect(loads).toEqual(names);

    await backend.generate('sd', request);
    expect(comfy.received.uploads).toHaveLength(2);
    expect(decode).toHaveBeenCalledTimes(4);
  });

  it('uploads an image used twice in one request once', async () => {
    const same = await imageBase64('#445566');
    await comfyOn(comfy).generate('sd', { prompt: 'x', init_image: same, mask_image: same, steps: 1, seed: 1 });
    expect(comfy.received.uploads).toHaveLength(1);
  });

  it('runs a ControlNet request with the Canny preprocessor and a private checkpoint name', async () => {
    const control = await imageBase64('#000000');
    const response = await comfyOn(comfy).generate('controlnet-sdxl', { prompt: 'a house', controlnet: 'svc:canny_sdxl', controlnet_image: control, steps: 2, seed: 2 });
    expect(response.images).toHaveLength(1);
    const classes = Object.values(comfy.received.prompts[0]?.prompt as Record<string, { class_type: string }>).map((n) => n.class_type);
    expect(classes).toEqual(expect.arrayContaining(['Canny', 'ControlNetLoader', 'ControlNetApplyAdvanced']));
  });

  it('sends a random seed when the request leaves it to chance, and reports it', async () => {
    const response = await comfyOn(comfy).generate('sd', { prompt: 'x', steps: 1, seed: null });
    const sampler = Object.values(comfy.received.prompts[0]?.prompt as Record<string, { class_type: string; inputs: { seed?: number } }>).find((n) => n.class_type === 'KSampler');
    expect(typeof sampler?.inputs.seed).toBe('number');
    expect(response.images[0]?.seed).toBe(sampler?.inputs.seed);
  });

  it('sends the credential as a bearer token and never in a URL, the WebSocket\'s included', async () => {
    await comfyOn(comfy, { token: 'tok-comfy' }).generate('sd', { prompt: 'x', steps: 1, seed: 1 });
    const http = comfy.received.requests.filter((r) => !r.path.startsWith('/ws'));
    expect(http.every((r) => r.headers.authorization === 'Bearer tok-comfy')).toBe(true);
    expect(comfy.received.requests.some((r) => r.path.includes('tok-comfy'))).toBe(false);
  });
});
