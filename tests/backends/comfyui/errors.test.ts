import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../helpers/closed-port';
import { startComfyDouble, type ComfyDouble } from '../../helpers/doubles/comfyui';
import { caught, comfyOn, NAMES } from './helpers';

let comfy: ComfyDouble | undefined;
afterEach(async () => { await comfy?.close(); comfy = undefined; });

describe('ComfyUI errors in words', () => {
  it('a ComfyUI that is not running: connection refused, with how to start it', async () => {
    const port = await closedPort();
    const backend = comfyOn({ url: `http://127.0.0.1:${port}` } as ComfyDouble);
    const error = await caught(backend.generate('sdxl', { prompt: 'x' }));
    expect(error.kind).toBe('network');
    expect(error.detail).toBe(`ComfyUI is not running at http://127.0.0.1:${port} (connection refused): start ComfyUI with \`python main.py --port ${port}\`, or correct the ComfyUI address in the backend's settings`);
    const names = await caught(backend.listNames!());
    expect(names.detail).toContain('connection refused');
  });

  it('a checkpoint ComfyUI lacks: the field, the name, a close match and the ones it has', async () => {
    comfy = await startComfyDouble();
    const error = await caught(comfyOn(comfy).generate('sdxl', { prompt: 'x', checkpoint: 'sd_xl_base_1.0.ckpt' }));
    expect(error).toMatchObject({ kind: 'http', status: 400, retryable: false });
    expect(error.detail).toBe("HTTP 400: ComfyUI refused the request: checkpoint: ComfyUI has no checkpoint 'sd_xl_base_1.0.ckpt'; did you mean 'sd_xl_base_1.0.safetensors'? it has: sd_xl_base_1.0.safetensors, sd_xl_refiner_1.0.safetensors, v1-5-pruned-emaonly.safetensors");
    expect(error.serviceMessage).toContain('Prompt outputs failed validation');
    expect(comfy.received.prompts).toHaveLength(1);
  });

  it('the checkpoint from Settings says so; a long list (ComfyUI leaves it out) is fetched from /object_info', async () => {
    const many = Array.from({ length: 25 }, (_, i) => `model-${String(i).padStart(2, '0')}.safetensors`);
    comfy = await startComfyDouble({ checkpoints: many });
    const error = await caught(comfyOn(comfy, { names: { checkpoint: 'gone.safetensors' } }).generate('sdxl', { prompt: 'x' }));
    expect(error.detail).toContain("checkpoint: ComfyUI has no checkpoint 'gone.safetensors' (the checkpoint set for sdxl in the backend's settings); it has: model-00.safetensors,");
    expect(error.detail).toContain('model-24.safetensors');
    expect(comfy.received.requests.some((r) => r.path === '/object_info/CheckpointLoaderSimple')).toBe(true);
  });

  it('a LoRA, a VAE and a ControlNet ComfyUI lacks are each named by their request field, at once', async () => {
    comfy = await startComfyDouble({ loras: [], vaes: [] });
    const error = await caught(comfyOn(comfy).generate('controlnet-sdxl', {
      prompt: 'x', loras: { 'svc:film-grain': 0.5 }, vae: 'my-vae.pt', controlnet: 'my-net.safetensors', controlnet_image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    }));
    expect(error.detail).toContain("loras.svc:film-grain: ComfyUI has no LoRA 'film-grain'; it has none; put the file in ComfyUI's models/loras folder");
    expect(error.detail).toContain("vae: ComfyUI has no VAE 'my-vae.pt'; it has: pixel_space");
    expect(error.detail).toContain("controlnet: ComfyUI has no ControlNet 'my-net.safetensors'; it has: diffusers_xl_canny_full.safetensors");
  });

  it('an older ComfyUI without a node the graph uses', async () => {
    comfy = await startComfyDouble({ without: ['Canny'] });
    const error = await caught(comfyOn(comfy).generate('controlnet-sdxl', {
      prompt: 'x', controlnet: 'svc:canny_sdxl', controlnet_image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    }));
    expect(error.detail).toBe("HTTP 400: ComfyUI refused the request: controlnet_preprocess: this ComfyUI has no 'Canny' node, which Atelier's graph uses: update ComfyUI (the node is one of its core nodes)");
  });

  it('out of memory during sampling: where, and what to change', async () => {
    comfy = await startComfyDouble();
    comfy.failNext({ classType: 'KSampler', kind: 'oom' });
    const error = await caught(comfyOn(comfy).generate('sdxl', { prompt: 'x', num_images: 8, steps: 2 }));
    expect(error).toMatchObject({ kind: 'http', retryable: false });
    expect(error.detail).toMatch(/^ComfyUI ran out of GPU memory in node \d+ \(KSampler, for sampler\): make fewer images at once \(num_images\), a smaller width and height, or start ComfyUI with --lowvram/);
    expect(error.serviceMessage).toContain('CUDA out of memory');
  });

  it('out of memory found from the history when there is no WebSocket', async () => {
    comfy = await startComfyDouble();
    comfy.failNext({ classType: 'VAEDecode', kind: 'oom' });
    const error = await caught(comfyOn(comfy, { WebSocket: undefined }).generate('sdxl', { prompt: 'x', steps: 1 }));
    expect(error.detail).toMatch(/^ComfyUI ran out of GPU memory in node \d+ \(VAEDecode, for vae\)/);
  });

  it('another failure in a node is told with ComfyUI\'s own first line', async () => {
    comfy = await startComfyDouble();
    comfy.failNext({ classType: 'KSampler', kind: 'exception' });
    const error = await caught(comfyOn(comfy).generate('sd', { prompt: 'x', steps: 1 }));
    expect(error.detail).toMatch(/^ComfyUI failed in node \d+ \(KSampler, for sampler\): mat1 and mat2 shapes cannot be multiplied \(154x2048 and 768x320\) \(RuntimeError\)$/);
  });

  it('a page origin ComfyUI refuses (no --enable-cors-header): HTTP 403 with the flag to use', async () => {
    comfy = await startComfyDouble();
    const withOrigin: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: 'http://localhost:8787' } });
    const error = await caught(comfyOn(comfy, { fetch: withOrigin, WebSocket: undefined, pageOrigin: 'http://localhost:8787' }).generate('sd', { prompt: 'x' }));
    expect(error.status).toBe(403);
    expect(error.detail).toBe('ComfyUI refused the request (HTTP 403): it refuses a page from another origin unless started with `--enable-cors-header http://localhost:8787`');
  });

  it('allows that origin when started with --enable-cors-header', async () => {
    comfy = await startComfyDouble({ corsOrigin: 'http://localhost:8787' });
    const withOrigin: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: 'http://localhost:8787' } });
    const response = await comfyOn(comfy, { fetch: withOrigin, WebSocket: undefined }).generate('sd', { prompt: 'x', steps: 1, seed: 1 });
    expect(response.images).toHaveLength(1);
  });

  it('a finished run whose history holds no image is an invalid response, not an empty success', async () => {
    comfy = await startComfyDouble();
    const noOutputs: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).includes('/history/')) return response;
      const body = await response.json() as Record<string, { outputs: unknown }>;
      for (const entry of Object.values(body)) entry.outputs = {};
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    const error = await caught(comfyOn(comfy, { fetch: noOutputs }).generate('sd', { prompt: 'x', steps: 1, seed: 1 }));
    expect(error.kind).toBe('invalid-response');
    expect(error.detail).toMatch(/^ComfyUI finished the run but its history holds no image from the SaveImage node \(\d+\)$/);
  });

  it('refuses before sending when the translation refuses, naming the field', async () => {
    comfy = await startComfyDouble();
    const error = await caught(comfyOn(comfy, { names: {} }).generate('sdxl', { prompt: 'x' }));
    expect(error.detail).toBe('not sent: ComfyUI cannot do this request: checkpoint: needs a checkpoint file: the node names none, and none is set for the sdxl engine in the backend\'s settings (Settings → Image backend in the editor, --checkpoint sdxl=FILE in the CLI)');
    expect(error.retryable).toBe(false);
    expect(comfy.received.requests).toEqual([]);
  });

  it('never puts the credential in an error', async () => {
    comfy = await startComfyDouble();
    const error = await caught(comfyOn(comfy, { token: 'tok-secret-1', names: { ...NAMES, checkpoint: 'tok-secret-1' } }).generate('sdxl', { prompt: 'x' }));
    expect(JSON.stringify(error.toJSON())).not.toContain('tok-secret-1');
    expect(error.detail).toContain('[redacted]');
  });
});
