/**
 * A request's backend-side names checked against what the backend listed, before anything is
 * sent: the checkpoint (from the node or the settings), refiner, VAE, LoRAs, embeddings and
 * ControlNet, each a refusal of its field with the suggestion ComfyUI's own refusal makes. A list
 * that is not known is not checked.
 */
import { describe, expect, it } from 'vitest';
import { createBackend, withListedNames, type BackendNames } from '../../api/backends/index';
import type { ImageClient } from '../../api/client-types';

const COMFY_LISTS: BackendNames = {
  checkpoints: ['sd_xl_base_1.0.safetensors', 'sd_xl_refiner_1.0.safetensors'],
  loras: ['detail-tweaker.safetensors'],
  vaes: ['sdxl_vae.safetensors'],
  controlnets: ['diffusers_xl_canny_full.safetensors'],
  embeddings: ['easynegative'],
};

const comfy = (checkpoint: string, listed?: BackendNames, refiner?: string) => createBackend({
  config: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', names: { checkpoint, ...(refiner === undefined ? {} : { refiner }) } },
  ...(listed === undefined ? {} : { listed }),
});

describe('names checked against what the backend listed', async () => {
  it('a checkpoint from the settings that ComfyUI lacks is refused, saying so, with the likely file', async () => {
    const review = (await comfy('sd_xl_base_1.0.ckpt', COMFY_LISTS)).review('sdxl', { prompt: 'a fox' });
    expect(review.refusals).toEqual([{
      path: 'checkpoint',
      message: "it has no checkpoint 'sd_xl_base_1.0.ckpt' (the checkpoint set for sdxl in the backend's settings); did you mean 'sd_xl_base_1.0.safetensors'? it has: sd_xl_base_1.0.safetensors, sd_xl_refiner_1.0.safetensors",
    }]);
    expect(review.translated).toBeUndefined();
  });

  it('without lists, or with the names it has, nothing is refused', async () => {
    expect((await comfy('sd_xl_base_1.0.ckpt')).review('sdxl', { prompt: 'a fox' }).refusals).toEqual([]);
    expect((await comfy('sd_xl_base_1.0.safetensors', COMFY_LISTS)).review('sdxl', { prompt: 'a fox', negative_prompt: 'easynegative', textual_inversions: { easynegative: 'easynegative' } }).refusals).toEqual([]);
    // A list ComfyUI could not give (a node class it lacks) is not a reason to refuse.
    expect((await comfy('sd_xl_base_1.0.safetensors', { checkpoints: COMFY_LISTS.checkpoints! })).review('sdxl', { prompt: 'x', loras: { 'svc:nope': 0.5 } }).refusals).toEqual([]);
  });

  it("the node's own names are refused on their fields: checkpoint, VAE, LoRA, embedding, ControlNet, refiner", async () => {
    const backend = (await comfy('sd_xl_base_1.0.safetensors', COMFY_LISTS, 'refiner.safetensors'));
    const review = backend.review('controlnet-sdxl', {
      prompt: 'a bad-hands fox', checkpoint: 'juggernaut.safetensors', vae: 'sdxl-vae.safetensors', loras: { 'detail-tweeker.safetensors': 0.6 },
      textual_inversions: { 'bad-hands': 'bad-hands' }, use_refiner: true, controlnet: 'canny.safetensors', controlnet_image: '/9j/4AAQ',
    });
    expect(review.refusals.map((r) => r.path)).toEqual(['checkpoint', 'use_refiner', 'vae', 'loras.detail-tweeker.safetensors', 'controlnet', 'textual_inversions.bad-hands']);
    expect(review.refusals[0]!.message).not.toContain("backend's settings");
    expect(review.refusals[1]!.message).toContain("the refiner checkpoint set for controlnet-sdxl in the backend's settings");
    expect(review.refusals[2]!.message).toContain("did you mean 'sdxl_vae.safetensors'?");
    expect(review.refusals[3]!.message).toContain("it has no LoRA 'detail-tweeker.safetensors'; did you mean 'detail-tweaker.safetensors'?");
  });

  it('ComfyUI refuses to send what review refused: nothing reaches it', async () => {
    await expect((await comfy('nope.safetensors', COMFY_LISTS)).generate('sdxl', { prompt: 'x' })).rejects.toThrow(/not sent: ComfyUI cannot do this request: checkpoint: it has no checkpoint 'nope.safetensors'/);
  });

  it('AUTOMATIC1111 takes a checkpoint by title, file name or stem, a LoRA by its alias, and refuses others', async () => {
    const listed: BackendNames = { checkpoints: ['sdxl/base.safetensors'], loras: ['detail_v2', 'detail'], vaes: ['sdxl_vae.safetensors'], embeddings: ['easynegative'] };
    const a1111 = (checkpoint: string) => createBackend({ config: { kind: 'a1111', baseUrl: 'http://127.0.0.1:7860', names: { checkpoint } }, listed });
    expect((await a1111('base')).review('sdxl', { prompt: 'x <lora>', loras: { detail: 0.5 }, vae: 'Automatic' }).refusals).toEqual([]);
    expect((await a1111('sdxl/base.safetensors [31e35c80fc]')).review('sdxl', { prompt: 'x' }).refusals).toEqual([]);
    const refused = (await a1111('bsae')).review('sdxl', { prompt: 'x', loras: { dettail: 0.5 }, vae: 'other.pt' }).refusals;
    expect(refused.map((r) => r.path)).toEqual(['checkpoint', 'vae', 'loras.dettail']);
    expect(refused[0]!.message).toMatch(/^it has no checkpoint 'bsae' \(the checkpoint set for sdxl/);
  });

  it('withListedNames adds the check to a routed client, per engine, and still sends through it', async () => {
    const sent: string[] = [];
    const client: ImageClient = { generate: (engine) => { sent.push(engine); return Promise.resolve({ images: [] }); } };
    const checked = (await withListedNames(client, { sdxl: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', names: { checkpoint: 'x.ckpt' } } }, { sdxl: COMFY_LISTS }));
    expect(checked.review?.('sdxl', { prompt: 'x' })?.refusals[0]?.message).toMatch(/^it has no checkpoint 'x.ckpt'/);
    expect(checked.review?.('sd', { prompt: 'x' })).toBeUndefined();
    await checked.generate('sd', { prompt: 'x' });
    expect(sent).toEqual(['sd']);
    expect((await withListedNames(client, {}, {}))).toBe(client);
  });
});
