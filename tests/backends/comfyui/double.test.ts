/**
 * The ComfyUI double is as strict as ComfyUI (execution.py validate_prompt / validate_inputs,
 * server.py routes): these pin the refusals the backend's error mapping is written against.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startComfyDouble, type ComfyDouble } from '../../helpers/doubles/comfyui';

let comfy: ComfyDouble;
beforeEach(async () => { comfy = await startComfyDouble(); });
afterEach(async () => { await comfy.close(); });

const post = (path: string, body: unknown) => fetch(`${comfy.url}${path}`, { method: 'POST', body: JSON.stringify(body) });

const valid = () => ({
  '1': { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd_xl_base_1.0.safetensors' } },
  '2': { class_type: 'CLIPTextEncode', inputs: { text: 'a cat', clip: ['1', 1] } },
  '3': { class_type: 'EmptyLatentImage', inputs: { width: 64, height: 64, batch_size: 1 } },
  '4': { class_type: 'KSampler', inputs: { model: ['1', 0], seed: 1, steps: 1, cfg: 7, sampler_name: 'euler', scheduler: 'normal', positive: ['2', 0], negative: ['2', 0], latent_image: ['3', 0], denoise: 1 } },
  '5': { class_type: 'VAEDecode', inputs: { samples: ['4', 0], vae: ['1', 2] } },
  '6': { class_type: 'SaveImage', inputs: { images: ['5', 0], filename_prefix: 'x' } },
});

async function refusal(prompt: unknown) {
  const response = await post('/prompt', { prompt });
  expect(response.status).toBe(400);
  return await response.json() as { error: { type: string; message: string; details: string }; node_errors: Record<string, { errors: { type: string; message: string; details: string; extra_info: Record<string, unknown> }[]; class_type: string; dependent_outputs: string[] }> };
}

describe('the ComfyUI double refuses what ComfyUI refuses', () => {
  it('queues a valid prompt and answers with its id and number', async () => {
    const response = await post('/prompt', { prompt: valid(), client_id: 'c1', prompt_id: 'p-1' });
    expect(await response.json()).toEqual({ prompt_id: 'p-1', number: 0, node_errors: {} });
    await comfy.until(() => comfy.history.has('p-1'));
    expect(comfy.history.get('p-1')?.status.status_str).toBe('success');
  });

  it('an unknown class_type', async () => {
    const prompt = { ...valid(), '7': { class_type: 'IPAdapterApply', inputs: {} } };
    expect(await refusal(prompt)).toEqual({ error: { type: 'invalid_prompt', message: 'Cannot execute because node IPAdapterApply does not exist.', details: "Node ID '#7'", extra_info: {} }, node_errors: {} });
  });

  it('a missing required input, reported on its node with the output that depends on it', async () => {
    const prompt = valid();
    delete (prompt['4'].inputs as Partial<typeof prompt['4']['inputs']>).steps;
    const body = await refusal(prompt);
    expect(body.error).toEqual({ type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} });
    expect(body.node_errors).toEqual({ '4': { errors: [{ type: 'required_input_missing', message: 'Required input is missing', details: 'steps', extra_info: { input_name: 'steps' } }], dependent_outputs: ['6'], class_type: 'KSampler' } });
  });

  it('a value not in a combo list, with the list when short and without it when long', async () => {
    const prompt = valid();
    prompt['1'].inputs.ckpt_name = 'nope.safetensors';
    const error = (await refusal(prompt)).node_errors['1']?.errors[0];
    expect(error).toEqual({
      type: 'value_not_in_list', message: 'Value not in list',
      details: "ckpt_name: 'nope.safetensors' not in ['sd_xl_base_1.0.safetensors', 'sd_xl_refiner_1.0.safetensors', 'v1-5-pruned-emaonly.safetensors']",
      extra_info: {
        input_name: 'ckpt_name', received_value: 'nope.safetensors',
        input_config: [['sd_xl_base_1.0.safetensors', 'sd_xl_refiner_1.0.safetensors', 'v1-5-pruned-emaonly.safetensors'], { tooltip: 'The name of the checkpoint (model) to load.' }],
      },
    });
    const sampler = valid();
    sampler['4'].inputs.sampler_name = 'k_euler';
    const long = (await refusal(sampler)).node_errors['4']?.errors[0];
    expect(long).toMatchObject({ details: "sampler_name: 'k_euler' not in (list of length 42)", extra_info: { input_config: null } });
  });

  it('a link to a missing node (a KeyError) and to an output index the node lacks (an IndexError), on the node holding the link', async () => {
    const missing = valid();
    missing['4'].inputs.latent_image = ['99', 0];
    const keyError = (await refusal(missing)).node_errors['4']?.errors[0];
    expect(keyError).toMatchObject({ type: 'exception_during_inner_validation', message: 'Exception when validating inner node', details: "'99'" });
    const index = valid();
    index['5'].inputs.vae = ['1', 5];
    expect((await refusal(index)).node_errors['5']?.errors[0]).toMatchObject({ type: 'exception_during_inner_validation', details: 'tuple index out of range' });
    // In the output node itself, nothing above it catches the exception but validate_prompt.
    const inOutput = valid();
    inOutput['6'].inputs.images = ['5', 3];
    const body = await refusal(inOutput);
    expect(body.node_errors['6']?.errors[0]).toMatchObject({ type: 'exception_during_validation', message: 'Exception when validating node', details: 'tuple index out of range' });
    expect(body.error.details).toBe('Exception when validating node: tuple index out of range');
  });

  it('a link of the wrong type, a value out of bounds, a value that is not a number', async () => {
    const prompt = valid();
    prompt['5'].inputs.vae = ['1', 1];
    prompt['3'].inputs.width = 8;
    (prompt['4'].inputs as Record<string, unknown>).cfg = 'high';
    const body = await refusal(prompt);
    expect(body.node_errors['5']?.errors[0]).toMatchObject({ type: 'return_type_mismatch', details: 'vae, received_type(CLIP) mismatch input_type(VAE)' });
    expect(body.node_errors['3']?.errors[0]).toMatchObject({ type: 'value_smaller_than_min', message: 'Value 8 smaller than min of 16', details: 'width' });
    expect(body.node_errors['4']?.errors[0]).toMatchObject({ type: 'invalid_input_type', message: 'Failed to convert an input value to a FLOAT value', details: "cfg, 'high', could not convert string to float: 'high'" });
  });

  it('a prompt with no output node, and a body with no prompt', async () => {
    const prompt: Record<string, unknown> = valid();
    delete prompt['6'];
    expect((await refusal(prompt)).error).toMatchObject({ type: 'prompt_no_outputs', message: 'Prompt has no outputs' });
    const response = await post('/prompt', { client_id: 'x' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} }, node_errors: {} });
  });

  it('a LoadImage of a file not in the input folder fails its own validation', async () => {
    const prompt = { '7': { class_type: 'LoadImage', inputs: { image: 'absent.png' } }, '8': { class_type: 'SaveImage', inputs: { images: ['7', 0], filename_prefix: 'y' } } };
    expect((await refusal(prompt)).node_errors['7']?.errors[0]).toMatchObject({ type: 'custom_validation_failed', details: 'image - Invalid image file: absent.png' });
  });

  it('an upload without a file is a 400; with one, it lands in the input folder under its name', async () => {
    expect((await fetch(`${comfy.url}/upload/image`, { method: 'POST', body: new FormData() })).status).toBe(400);
    const text = new FormData();
    text.append('image', 'not a file');
    expect((await fetch(`${comfy.url}/upload/image`, { method: 'POST', body: text })).status).toBe(400);
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array([1, 2, 3])]), 'a.png');
    const response = await fetch(`${comfy.url}/upload/image`, { method: 'POST', body: form });
    expect(await response.json()).toEqual({ name: 'a.png', subfolder: '', type: 'input' });
    const other = new FormData();
    other.append('image', new Blob([new Uint8Array([9])]), 'a.png');
    expect(await (await fetch(`${comfy.url}/upload/image`, { method: 'POST', body: other })).json()).toMatchObject({ name: 'a (1).png' });
  });

  it('/view refuses a path outside its folders and 404s a missing file', async () => {
    expect((await fetch(`${comfy.url}/view?filename=../x.png`)).status).toBe(400);
    expect((await fetch(`${comfy.url}/view?filename=x.png&type=models`)).status).toBe(400);
    expect((await fetch(`${comfy.url}/view?filename=x.png`)).status).toBe(404);
  });
});
