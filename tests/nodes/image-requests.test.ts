import { describe, expect, it } from 'vitest';
import { SDXL_ONLY_FIELDS } from '../../api/image';
import { controlNetNode } from '../../nodes/controlnet';
import { ParamIssuesError } from '../../nodes/errors';
import { imageToImageNode } from '../../nodes/image-to-image';
import { inpaintNode } from '../../nodes/inpaint';
import { mergeNode } from '../../nodes/merge';
import { textToImageNode } from '../../nodes/text-to-image';
import type { AnyNodeDefinition, Value } from '../../nodes/types';
import { imageValue, imagesValue } from '../../nodes/values';
import { PNG_B64, fakeContext, fakeJpeg, type FakeContext } from './fakes';

const img = (n: number): Value => imageValue({ b64: fakeJpeg(100 + n), mime: 'image/jpeg' });

async function sent(def: AnyNodeDefinition, params: unknown, inputs: Record<string, Value> = {}, ctx: FakeContext = fakeContext()) {
  await def.run({ params: def.params.parse(params), inputs, ctx });
  expect(ctx.imageCalls).toHaveLength(1);
  return ctx.imageCalls[0]!;
}

const everySdxlField = {
  prompt: 'a fox', prompt_2: 'a red fox in snow', negative_prompt: 'blur', negative_prompt_2: 'a blurry photo',
  sampler: 'K_EULER', width: 832, height: 1216, cfg_scale: 7, steps: 40, num_images: 2, seed: 5,
  use_refiner: true, high_noise_frac: 0.7, checkpoint: 'svc:dreamshaper', loras: { 'svc:film': 0.6 },
  textual_inversions: { mine: 'tok' }, vae: 'myvae', style_preset: 'cinematic',
};

describe('text to image requests', () => {
  it('sends the SDXL defaults explicitly and only the fields that apply', async () => {
    const call = await sent(textToImageNode, { prompt: 'a fox' });
    expect(call.engine).toBe('sdxl');
    // The seed field is empty (random): the node sends the seed its context picked.
    expect(call.request).toEqual({
      prompt: 'a fox', sampler: 'DDIM', height: 1024, width: 1024, cfg_scale: 12, steps: 30, num_images: 1, seed: 424242, use_refiner: false,
    });
  });

  it('sends every SDXL field that is set, in the API names', async () => {
    const call = await sent(textToImageNode, everySdxlField);
    expect(call.request).toEqual(everySdxlField);
  });

  it('never sends SDXL-only fields to sd, and uses the SD 1.5 default size', async () => {
    const { width: _w, height: _h, ...rest } = everySdxlField;
    const call = await sent(textToImageNode, { ...rest, engine: 'sd' });
    expect(call.engine).toBe('sd');
    for (const field of SDXL_ONLY_FIELDS) expect(call.request).not.toHaveProperty(field);
    expect(call.request).toEqual({
      prompt: 'a fox', negative_prompt: 'blur', sampler: 'K_EULER', height: 512, width: 512, cfg_scale: 7, steps: 40,
      num_images: 2, seed: 5, checkpoint: 'svc:dreamshaper', loras: { 'svc:film': 0.6 }, textual_inversions: { mine: 'tok' }, vae: 'myvae',
    });
  });

  it('sends high_noise_frac only with the refiner, leaves out empty fields, and sends a random seed it picked', async () => {
    const call = await sent(textToImageNode, {
      prompt: 'x', prompt_2: '', negative_prompt: '', checkpoint: '', vae: '', loras: {}, textual_inversions: {}, seed: null, high_noise_frac: 0.5,
    }, {}, fakeContext({ randomSeed: 9001 }));
    expect(call.request).toEqual({ prompt: 'x', sampler: 'DDIM', height: 1024, width: 1024, cfg_scale: 12, steps: 30, num_images: 1, seed: 9001, use_refiner: false });
  });

  it('passes the abort signal and reports progress 0 then 1', async () => {
    const ctx = fakeContext();
    const call = await sent(textToImageNode, { prompt: 'x' }, {}, ctx);
    expect(call.options?.signal).toBe(ctx.signal);
    expect(ctx.progressCalls).toEqual([0, 1]);
  });
});

describe('image inputs', () => {
  it('image to image sends init_image and the default strength', async () => {
    const call = await sent(imageToImageNode, { prompt: 'x', engine: 'sd' }, { image: img(1) });
    expect(call.request).toMatchObject({ init_image: fakeJpeg(101), strength: 0.8, width: 512 });
    expect(call.request).not.toHaveProperty('mask_image');
  });

  it('inpaint sends init_image and mask_image, and no strength', async () => {
    const call = await sent(inpaintNode, { prompt: 'x' }, { image: img(1), mask: img(2) });
    expect(call.request).toMatchObject({ init_image: fakeJpeg(101), mask_image: fakeJpeg(102) });
    expect(call.request).not.toHaveProperty('strength');
  });

  it('controlnet runs on controlnet-sdxl with the checkpoint, preprocessing and control image', async () => {
    const call = await sent(controlNetNode, { prompt: 'x', style_preset: 'anime' }, { control_image: img(3) });
    expect(call.engine).toBe('controlnet-sdxl');
    expect(call.request).toMatchObject({
      controlnet: 'svc:canny_sdxl', controlnet_preprocess: true, controlnet_image: fakeJpeg(103), style_preset: 'anime', width: 1024,
    });
  });

  it('controlnet leaves preprocessing out for a private checkpoint', async () => {
    const call = await sent(controlNetNode, { prompt: 'x', controlnet: 'my_lineart' }, { control_image: img(3) });
    expect(call.request.controlnet).toBe('my_lineart');
    expect(call.request).not.toHaveProperty('controlnet_preprocess');
  });

  it('merge sends every connected sample under the trigger word, list first', async () => {
    const call = await sent(mergeNode, { prompt: 'zq on a beach', trigger_word: 'zq' }, {
      sample_2: img(2),
      samples: imagesValue([{ b64: fakeJpeg(10), mime: 'image/jpeg' }, { b64: fakeJpeg(11), mime: 'image/jpeg' }]),
    });
    expect(call.request.transfer_images).toEqual({ zq: [fakeJpeg(10), fakeJpeg(11), fakeJpeg(102)] });
    expect(call.request).not.toHaveProperty('init_image');
  });

  it('merge refuses no samples and more than the API takes, naming samples', async () => {
    const p = mergeNode.params.parse({});
    await expect(mergeNode.run({ params: p, inputs: {}, ctx: fakeContext() })).rejects.toThrow('samples: no sample images arrived');
    const nine = imagesValue(Array.from({ length: 6 }, (_, i) => ({ b64: fakeJpeg(i), mime: 'image/jpeg' })));
    const inputs = { samples: nine, sample_1: img(1), sample_2: img(2), sample_3: img(3) };
    await expect(mergeNode.run({ params: p, inputs, ctx: fakeContext() })).rejects.toThrow('9 sample images arrived; one request takes at most 8');
  });
});

describe('exact field sets per node and engine', () => {
  const base = ['prompt', 'sampler', 'height', 'width', 'cfg_scale', 'steps', 'num_images', 'seed'];
  const cases: [string, AnyNodeDefinition, string, Record<string, Value>, string[]][] = [
    ['text to image', textToImageNode, 'sd', {}, []],
    ['text to image', textToImageNode, 'sdxl', {}, ['use_refiner']],
    ['image to image', imageToImageNode, 'sd', { image: img(1) }, ['init_image', 'strength']],
    ['image to image', imageToImageNode, 'sdxl', { image: img(1) }, ['use_refiner', 'init_image', 'strength']],
    ['inpaint', inpaintNode, 'sd', { image: img(1), mask: img(2) }, ['init_image', 'mask_image']],
    ['inpaint', inpaintNode, 'sdxl', { image: img(1), mask: img(2) }, ['use_refiner', 'init_image', 'mask_image']],
    ['controlnet', controlNetNode, 'controlnet-sdxl', { control_image: img(1) }, ['use_refiner', 'controlnet', 'controlnet_preprocess', 'controlnet_image']],
    ['merge', mergeNode, 'sd', { sample_1: img(1) }, ['transfer_images']],
    ['merge', mergeNode, 'sdxl', { sample_1: img(1) }, ['use_refiner', 'transfer_images']],
  ];
  it.each(cases)('%s on %s sends exactly its fields, with the API defaults', async (_name, def, engine, inputs, extra) => {
    const call = await sent(def, { engine }, inputs);
    expect(call.engine).toBe(engine);
    expect(Object.keys(call.request).sort()).toEqual([...base, ...extra].sort());
    const size = engine === 'sd' ? 512 : 1024;
    expect(call.request).toMatchObject({ sampler: 'DDIM', width: size, height: size, cfg_scale: 12, steps: 30, num_images: 1 });
    if ('strength' in call.request) expect(call.request.strength).toBe(0.8);
  });
});

describe('outputs and seeds', () => {
  it('outputs the first image and all images, with mime from the bytes and the requested size', async () => {
    const ctx = fakeContext({ respond: () => ({ images: [{ image_b64: PNG_B64, seed: 77 }, { image_b64: fakeJpeg(1), seed: 78 }] }) });
    const out = await textToImageNode.run({ params: textToImageNode.params.parse({ prompt: 'x', num_images: 2, engine: 'sd', width: 768, height: 512 }), inputs: {}, ctx });
    const first = { b64: PNG_B64, mime: 'image/png', seed: 77, width: 768, height: 512 };
    expect(out.image).toEqual(imageValue(first));
    expect(out.images).toEqual(imagesValue([first, { b64: fakeJpeg(1), mime: 'image/jpeg', seed: 78, width: 768, height: 512 }]));
  });

  it('gives the first image the seed sent when the service reports none, and guesses none for the others', async () => {
    const out = await textToImageNode.run({ params: textToImageNode.params.parse({ prompt: 'x', num_images: 3, seed: 40 }), inputs: {}, ctx: fakeContext() });
    expect(out.images?.kind === 'images' && out.images.value.map((i) => i.seed)).toEqual([40, undefined, undefined]);
  });

  it('knows a random seed without the service reporting it: it picked and sent it', async () => {
    const ctx = fakeContext({ randomSeed: 31337 });
    const out = await textToImageNode.run({ params: textToImageNode.params.parse({ prompt: 'x' }), inputs: {}, ctx });
    expect(ctx.imageCalls[0]!.request.seed).toBe(31337);
    expect(out.image?.kind === 'image' && out.image.value.seed).toBe(31337);
  });

  it('fails clearly when the service answers with no images', async () => {
    const ctx = fakeContext({ respond: () => ({ images: [] }) });
    await expect(textToImageNode.run({ params: textToImageNode.params.parse({ prompt: 'x' }), inputs: {}, ctx })).rejects.toThrow('answered with no images');
  });

  it('is cacheable only with a pinned seed', () => {
    for (const def of [textToImageNode, imageToImageNode, inpaintNode, controlNetNode, mergeNode] as AnyNodeDefinition[]) {
      expect(def.cacheable?.(def.params.parse({ seed: 3 }))).toBe(true);
      expect(def.cacheable?.(def.params.parse({}))).toBe(false);
    }
  });

  it('refuses, before sending, a request a connected value made invalid', async () => {
    const ctx = fakeContext();
    // The executor merges a connected prompt or seed into params; those bypass the form.
    const base = textToImageNode.params.parse({});
    const longPrompt = textToImageNode.run({ params: { ...base, prompt: 'castle '.repeat(120) }, inputs: {}, ctx });
    await expect(longPrompt).rejects.toBeInstanceOf(ParamIssuesError);
    await expect(longPrompt).rejects.toThrow(/prompt: has \d+ tokens, over the SDXL limit of 77/);
    const halfSeed = textToImageNode.run({ params: { ...base, seed: 1.5 }, inputs: {}, ctx });
    await expect(halfSeed).rejects.toThrow('seed: must be a whole number');
    expect(ctx.imageCalls).toHaveLength(0);
  });
});
