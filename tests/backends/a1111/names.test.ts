/**
 * Names the server lacks. The double, like AUTOMATIC1111, would quietly use something else for
 * most of them (shown first where it does); the backend asks first and refuses with what it has.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isApiError, type ApiError } from '../../../api/errors';
import { startA1111Double, type A1111Double } from '../../helpers/doubles/a1111';
import { backendFor, imageB64 } from './fixtures';

let double: A1111Double;
afterEach(async () => { await double.close(); });

async function refusedWith(run: Promise<unknown>): Promise<ApiError> {
  const error = await run.then(() => undefined, (e: unknown) => e);
  if (!isApiError(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const generations = () => double.generations.length;

describe('names AUTOMATIC1111 lacks', () => {
  it('the double, like AUTOMATIC1111, drops an unknown checkpoint override and runs the loaded model', async () => {
    double = await startA1111Double();
    const response = await fetch(`${double.url}/sdapi/v1/txt2img`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'x', steps: 1, override_settings: { sd_model_checkpoint: 'sdxl_base.safetensors' } }),
    });
    expect(response.status).toBe(200);
    expect(double.generations[0]).toMatchObject({ checkpointDropped: 'sdxl_base.safetensors', checkpoint: 'sd_xl_base_1.0.safetensors [31e35c80fc]' });
  });

  it('refuses an unknown checkpoint with the list and a guess, sending nothing', async () => {
    double = await startA1111Double();
    const error = await refusedWith(backendFor(double, { names: { checkpoint: 'sd_xl_base_1.0' } }).generate('sdxl', { prompt: 'x', checkpoint: 'sd_xl_base_1.0.ckpt' }));
    expect(error.retryable).toBe(false);
    expect(error.detail).toMatch(/^not sent: checkpoint: AUTOMATIC1111 has no checkpoint 'sd_xl_base_1\.0\.ckpt'; did you mean 'sd_xl_base_1\.0\.safetensors'\? it has: sd_xl_base_1\.0\.safetensors, sd_xl_refiner_1\.0\.safetensors, v1-5-pruned-emaonly\.safetensors$/);
    expect(generations()).toBe(0);
  });

  it('takes a checkpoint by any name AUTOMATIC1111 knows it by', async () => {
    double = await startA1111Double({ checkpoints: [{ name: 'XL/juggernaut_v9.safetensors', shorthash: 'c9e3e68f89' }] });
    const backend = backendFor(double, { names: {} });
    for (const name of ['XL/juggernaut_v9.safetensors', 'juggernaut_v9', 'XL_juggernaut_v9', 'XL/juggernaut_v9.safetensors [c9e3e68f89]', 'c9e3e68f89']) {
      await backend.generate('sdxl', { prompt: 'x', steps: 1, checkpoint: name });
    }
    expect(double.generations.map((g) => g.checkpointDropped)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('refuses a refiner it lacks, which AUTOMATIC1111 would match loosely or fail on after loading', async () => {
    double = await startA1111Double();
    const backend = backendFor(double, { names: { checkpoint: 'sd_xl_base_1.0.safetensors', refiner: 'refiner' } });
    const error = await refusedWith(backend.generate('sdxl', { prompt: 'x', use_refiner: true }));
    expect(error.detail).toContain("use_refiner: AUTOMATIC1111 has no checkpoint 'refiner'");
    expect(generations()).toBe(0);
  });

  it('refuses a LoRA, a VAE and an embedding it lacks, each by its field', async () => {
    double = await startA1111Double({ loras: [{ name: 'detail_tweaker' }], vaes: ['sdxl_vae.safetensors'], embeddings: { loaded: [], skipped: ['easynegative'] } });
    // No checkpoint change: an embedding skipped for the loaded model stays skipped.
    const error = await refusedWith(backendFor(double, { names: {} }).generate('sdxl', {
      prompt: 'x', negative_prompt: 'badword', loras: { 'svc:detail': 0.5, my_style: 1 }, vae: 'sdxl-vae-fp16', textual_inversions: { easynegative: 'badword' },
    }));
    expect(error.detail).toContain("loras.my_style: AUTOMATIC1111 has no LoRA 'my_style'; it has: detail_tweaker");
    expect(error.detail).toContain("loras.svc:detail: AUTOMATIC1111 has no LoRA 'detail'");
    expect(error.detail).toContain("vae: AUTOMATIC1111 has no VAE 'sdxl-vae-fp16'");
    expect(error.detail).toContain("textual_inversions.easynegative: AUTOMATIC1111 skips the embedding 'easynegative'");
  });

  it('refuses LoRAs when the server takes none (its Lora extension off)', async () => {
    double = await startA1111Double({ loraExtensionOff: true });
    const error = await refusedWith(backendFor(double).generate('sdxl', { prompt: 'x', loras: { detail: 1 } }));
    expect(error.detail).toBe('not sent: loras.detail: AUTOMATIC1111 takes no LoRAs here: its built-in Lora extension is turned off');
  });

  it('the double, like AUTOMATIC1111, leaves out a <lora:…> it lacks', async () => {
    double = await startA1111Double({ loras: [{ name: 'detail_tweaker' }] });
    await fetch(`${double.url}/sdapi/v1/txt2img`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ prompt: 'x <lora:nope:1> <lora:detail_tweaker:0.5>', steps: 1 }) });
    expect(double.generations[0]).toMatchObject({ lorasUsed: ['detail_tweaker'], lorasMissing: ['nope'] });
  });

  it('refuses ControlNet when the extension is missing, as AUTOMATIC1111 would answer 422', async () => {
    double = await startA1111Double();
    const control = await imageB64('png');
    const error = await refusedWith(backendFor(double).generate('controlnet-sdxl', { prompt: 'x', controlnet: 'canny_xl', controlnet_image: control }));
    expect(error.detail).toContain('controlnet: AUTOMATIC1111 has no ControlNet: install the sd-webui-controlnet extension');
    const raw = await fetch(`${double.url}/sdapi/v1/txt2img`, { method: 'POST', body: JSON.stringify({ prompt: 'x', alwayson_scripts: { controlnet: { args: [] } } }) });
    expect([raw.status, await raw.json()]).toEqual([422, { error: 'HTTPException', detail: "Script 'controlnet' not found", body: '', errors: '' }]);
  });

  it('refuses a ControlNet model it lacks, which the extension would match loosely', async () => {
    double = await startA1111Double({ controlnetModels: ['control_v11p_sd15_canny [d14c016b]'] });
    const control = await imageB64('png');
    const error = await refusedWith(backendFor(double).generate('controlnet-sdxl', { prompt: 'x', controlnet: 'canny', controlnet_image: control }));
    expect(error.detail).toContain("controlnet: AUTOMATIC1111 has no ControlNet model 'canny'; it has: control_v11p_sd15_canny [d14c016b]");
    const raw = await fetch(`${double.url}/sdapi/v1/txt2img`, {
      method: 'POST', body: JSON.stringify({ prompt: 'x', steps: 1, alwayson_scripts: { controlnet: { args: [{ enabled: true, module: 'none', model: 'canny', image: control }] } } }),
    });
    expect(raw.status).toBe(200);
    expect(double.generations[0]!.controlnet).toEqual({ module: 'none', model: 'control_v11p_sd15_canny [d14c016b]', loose: true });
  });

  it('the double, like the extension, refuses a unit field of the wrong value with a 500', async () => {
    double = await startA1111Double({ controlnetModels: ['canny [d14c016b]'] });
    const control = await imageB64('png');
    const raw = await fetch(`${double.url}/sdapi/v1/txt2img`, {
      method: 'POST', body: JSON.stringify({ prompt: 'x', alwayson_scripts: { controlnet: { args: [{ enabled: true, model: 'canny', image: control, resize_mode: 'Stretch' }] } } }),
    });
    expect([raw.status, ((await raw.json()) as { error: string }).error]).toEqual([500, 'ValidationError']);
  });

  it('refuses to choose a schedule on an AUTOMATIC1111 older than 1.9', async () => {
    double = await startA1111Double({ before19: true });
    const error = await refusedWith(backendFor(double).generate('sdxl', { prompt: 'x' }));
    expect(error.detail).toContain('sampler: this server has no /sdapi/v1/schedulers (AUTOMATIC1111 before 1.9');
  });

  it('the double, like AUTOMATIC1111, replaces an unknown sampler by its default one', async () => {
    double = await startA1111Double();
    await fetch(`${double.url}/sdapi/v1/txt2img`, { method: 'POST', body: JSON.stringify({ prompt: 'x', steps: 1, sampler_name: 'DPM_2', scheduler: 'Sideways' }) });
    expect([double.generations[0]!.sampler, double.generations[0]!.scheduler]).toEqual(['DPM++ 2M', 'Automatic']);
  });
});
