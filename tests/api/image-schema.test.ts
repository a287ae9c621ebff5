import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ENGINES, PREMIUM_SAMPLERS, PUBLIC_CONTROLNETS, REGULAR_SAMPLERS, RESOLUTIONS, STYLE_PRESETS, TOKEN_LIMITS,
  formatResolution, isPremiumSampler, samplerPriceUnits, type EngineId,
} from '../../api/catalog';
import {
  ImageRequestSchema, ImageResponseSchema, SDXL_ONLY_FIELDS, formatIssues, imageDefaults, imageMode,
  validateImageRequest, type FieldIssue, type ResolvedImageRequest,
} from '../../api/image';

let jpeg = '';
let png = '';
beforeAll(async () => {
  const pixels = sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } });
  jpeg = (await pixels.clone().jpeg().toBuffer()).toString('base64');
  png = (await pixels.clone().png().toBuffer()).toString('base64');
});

function accepted(engine: string, body: Record<string, unknown>): ResolvedImageRequest {
  const result = validateImageRequest(engine, body);
  if (!result.ok) throw new Error(`refused: ${formatIssues(result.issues)}`);
  return result.value;
}

function refused(engine: string, body: unknown): FieldIssue[] {
  const result = validateImageRequest(engine, body);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(body).slice(0, 200)}`);
  return result.issues;
}

const paths = (issues: FieldIssue[]) => issues.map((i) => i.path);
const issueAt = (issues: FieldIssue[], path: string) => issues.find((i) => i.path === path)?.message ?? '';
const controlnet = () => ({ prompt: 'a cabin', controlnet: 'svc:canny_sdxl', controlnet_image: jpeg });

describe('the catalogue matches the interface word for word', () => {
  it('has the engines, samplers (premium marked), style presets and public ControlNets of 2.2, 2.4, 2.5', () => {
    expect(ENGINES).toEqual(['sdxl', 'sd', 'controlnet-sdxl']);
    expect(REGULAR_SAMPLERS).toEqual(['DDIM', 'DDPM', 'DPM_PLUS_PLUS_2M_KARRAS', 'DPM_SINGLE', 'DPM_SOLVER_MULTISTEP', 'K_EULER', 'K_EULER_ANCESTRAL', 'PNDM', 'UNI_PC']);
    expect(PREMIUM_SAMPLERS).toEqual(['DPM_2', 'DPM_2_ANCESTRAL', 'DPM_PLUS_PLUS_SDE_KARRAS', 'HEUN', 'KLMS']);
    expect(REGULAR_SAMPLERS.map(samplerPriceUnits)).toEqual(REGULAR_SAMPLERS.map(() => 1));
    expect(PREMIUM_SAMPLERS.map(samplerPriceUnits)).toEqual(PREMIUM_SAMPLERS.map(() => 2));
    expect(isPremiumSampler('heun')).toBe(false);
    const presets = 'base, 3d-model, Abstract, Advertising, Alien, analog-film, anime, Architectural, cinematic, Collage, comic-book, Craft Clay, Cubist, digital-art, Disco, Dreamscape, Dystopian, enhance, Fairy Tale, fantasy-art, Fighting Game, Film Noir, Flat Papercut, Food Photography, Gothic, Graffiti, Grunge, HDR, Horror, Hyperrealism, Impressionist, isometric, Kirigami, line-art, Long Exposure, low-poly, Minimalist, modeling-compound, Monochrome, Nautical, Neon Noir, neon-punk, origami, Paper Mache, Paper Quilling, Papercut Collage, Papercut Shadow Box, photographic, pixel-art, Pointillism, Pop Art, Psychedelic, Real Estate, Renaissance, Retro Arcade, Retro Game, RPG Fantasy Game, Silhouette, Space, Stacked Papercut, Stained Glass, Steampunk, Strategy Game, Surrealist, Techwear Fashion, Thick Layered Papercut, tile-texture, Tilt-Shift, Tribal, Typography, Watercolor, Zentangle';
    expect(STYLE_PRESETS).toEqual(presets.split(', '));
    expect(PUBLIC_CONTROLNETS).toEqual(['svc:canny_sdxl', 'svc:depth_sdxl', 'svc:openpose_sdxl', 'svc:canny_sd15', 'svc:depth_sd15', 'svc:inpaint_sd15', 'svc:ip2p_sd15', 'svc:lineart_sd15', 'svc:openpose_sd15', 'svc:scribble_sd15', 'svc:tile_sd15']);
    expect(TOKEN_LIMITS).toEqual({ sdxl: 77, sd15: 231 });
  });

  it('has the resolution pairs of section 8, width x height', () => {
    expect(RESOLUTIONS.sdxl.map(formatResolution)).toEqual(['1024x1024', '896x1152', '832x1216', '768x1344', '640x1536', '1536x640', '1344x768', '1216x832', '1152x896']);
    expect(RESOLUTIONS.sd15.map(formatResolution)).toEqual(['512x512', '640x512', '768x512', '512x704', '512x768', '576x768', '640x768', '576x1024', '1024x576']);
  });
});

describe('defaults per engine (2.1)', () => {
  it('fills SDXL defaults: 1024x1024, cfg 12, 30 steps, DDIM, strength 0.8, high_noise_frac 0.8', () => {
    for (const [engine, body] of [['sdxl', { prompt: 'a cabin' }], ['controlnet-sdxl', controlnet()]] as const) {
      expect(accepted(engine, body)).toMatchObject({
        engine, width: 1024, height: 1024, cfg_scale: 12, steps: 30, sampler: 'DDIM', strength: 0.8,
        high_noise_frac: 0.8, num_images: 1, use_refiner: false, prompt: 'a cabin',
      });
    }
    expect(accepted('sdxl', { prompt: 'keywords' }).prompt_2).toBeUndefined();
    expect(accepted('sdxl', { prompt: 'keywords', prompt_2: 'a description' }).prompt_2).toBe('a description');
  });

  it('fills SD 1.5 defaults: 512x512 and the same cfg, steps, sampler and strength, without prompt_2', () => {
    const sd = accepted('sd', { prompt: 'a cabin' });
    expect(sd).toMatchObject({ engine: 'sd', width: 512, height: 512, cfg_scale: 12, steps: 30, sampler: 'DDIM', strength: 0.8 });
    expect(sd.prompt_2).toBeUndefined();
    expect(imageDefaults('sd')).toMatchObject({ width: 512, height: 512 });
  });

  it('keeps what the request sets, seed null included', () => {
    const body = { prompt: 'x', width: 832, height: 1216, cfg_scale: 7.5, steps: 50, sampler: 'HEUN', num_images: 4, seed: null, use_refiner: true, high_noise_frac: 0.7 };
    expect(accepted('sdxl', body)).toMatchObject(body);
    expect(accepted('sdxl', { prompt: 'x', seed: 0 }).seed).toBe(0);
  });
});

describe('resolutions (section 8)', () => {
  const cases: [EngineId, 'sdxl' | 'sd15'][] = [['sdxl', 'sdxl'], ['controlnet-sdxl', 'sdxl'], ['sd', 'sd15']];
  it.each(cases)('accepts every %s pair', (engine, family) => {
    const extra = engine === 'controlnet-sdxl' ? controlnet() : { prompt: 'x' };
    for (const { width, height } of RESOLUTIONS[family]) {
      expect(accepted(engine, { ...extra, width, height })).toMatchObject({ width, height });
    }
  });

  it('refuses a pair of the other engine or a swapped pair, listing the allowed ones', () => {
    const sdxl = refused('sdxl', { prompt: 'x', width: 512, height: 512 });
    expect(sdxl).toEqual([{ path: 'width', message: expect.stringContaining('512x512 is not a supported SDXL resolution') as string }]);
    for (const pair of RESOLUTIONS.sdxl) expect(sdxl[0]?.message).toContain(formatResolution(pair));
    const sd = refused('sd', { prompt: 'x', width: 704, height: 512 });
    expect(issueAt(sd, 'width')).toContain('704x512 is not a supported SD 1.5 resolution');
    for (const pair of RESOLUTIONS.sd15) expect(issueAt(sd, 'width')).toContain(formatResolution(pair));
    expect(paths(refused('sd', { prompt: 'x', width: 1024, height: 1024 }))).toEqual(['width']);
  });

  it('asks for the missing half of a lone width or height', () => {
    expect(paths(refused('sdxl', { prompt: 'x', width: 1024 }))).toEqual(['height']);
    expect(paths(refused('sd', { prompt: 'x', height: 512 }))).toEqual(['width']);
  });
});

describe('fields that only some engines take', () => {
  it('refuses each SDXL-only field on sd, naming it, and takes them on both SDXL engines', () => {
    const values = { prompt_2: 'a', negative_prompt_2: 'b', use_refiner: true, high_noise_frac: 0.5, style_preset: 'anime' };
    expect(Object.keys(values)).toEqual([...SDXL_ONLY_FIELDS]);
    const issues = refused('sd', { prompt: 'x', ...values });
    expect(paths(issues)).toEqual([...SDXL_ONLY_FIELDS]);
    for (const issue of issues) expect(issue.message).toContain('applies only to SDXL engines');
    accepted('sdxl', { prompt: 'x', ...values });
    accepted('controlnet-sdxl', { ...controlnet(), ...values });
  });

  it('accepts every sampler and refuses any other spelling', () => {
    for (const sampler of [...REGULAR_SAMPLERS, ...PREMIUM_SAMPLERS]) accepted('sd', { prompt: 'x', sampler });
    for (const sampler of ['ddim', 'EULER', 'K_EULER_A', '']) {
      const issues = refused('sdxl', { prompt: 'x', sampler });
      expect(paths(issues)).toEqual(['sampler']);
      expect(issues[0]?.message).toContain('DPM_PLUS_PLUS_SDE_KARRAS');
    }
  });

  it('takes style presets in their exact case only', () => {
    for (const style_preset of STYLE_PRESETS) accepted('sdxl', { prompt: 'x', style_preset });
    for (const style_preset of ['Anime', 'film noir', 'Cinematic', 'hdr', 'anime ']) {
      expect(paths(refused('sdxl', { prompt: 'x', style_preset }))).toEqual(['style_preset']);
    }
    expect(issueAt(refused('sdxl', { prompt: 'x', style_preset: 'Anime' }), 'style_preset')).toContain('exact case');
    expect(issueAt(refused('sdxl', { prompt: 'x', style_preset: 'Anime' }), 'style_preset')).toContain("did you mean 'anime'?");
    expect(issueAt(refused('sdxl', { prompt: 'x', style_preset: 'film noir' }), 'style_preset')).toContain("did you mean 'Film Noir'?");
    // Nothing close: the whole list, so the fix is in the message.
    const far = issueAt(refused('sdxl', { prompt: 'x', style_preset: 'zzz' }), 'style_preset');
    for (const preset of STYLE_PRESETS) expect(far).toContain(preset);
  });
});

describe('prompt token limits (section 8)', () => {
  const words = (n: number) => 'cat '.repeat(n).trim();
  it('allows 77 tokens on SDXL and 231 on SD 1.5, refusing one more', () => {
    accepted('sdxl', { prompt: words(77) });
    expect(refused('sdxl', { prompt: words(78) })).toEqual([{ path: 'prompt', message: 'has 78 tokens, over the SDXL limit of 77 (weighting syntax does not count)' }]);
    accepted('sd', { prompt: words(231) });
    expect(issueAt(refused('sd', { prompt: words(232) }), 'prompt')).toContain('has 232 tokens, over the SD 1.5 limit of 231');
  });

  it('does not count weighting syntax', () => {
    accepted('sdxl', { prompt: '((cat: 1.2)) '.repeat(77) });
    accepted('sdxl', { prompt: `(${words(76)}) (cat:0.9)` });
  });

  it('checks every prompt field, negative ones included', () => {
    const long = words(80);
    expect(paths(refused('sdxl', { prompt: 'x', prompt_2: long, negative_prompt: long, negative_prompt_2: long }))).toEqual(['prompt_2', 'negative_prompt', 'negative_prompt_2']);
    expect(paths(refused('sd', { prompt: 'x', negative_prompt: words(240) }))).toEqual(['negative_prompt']);
  });

  it('refuses text longer than 20,000 characters before counting', () => {
    expect(issueAt(refused('sd', { prompt: 'a'.repeat(20_001) }), 'prompt')).toContain('longer than 20000 characters');
  });
});

describe('images', () => {
  it('accepts real JPEG and PNG base64 in every image field', () => {
    expect(accepted('sdxl', { prompt: 'x', init_image: jpeg, mask_image: png }).mode).toBe('inpainting');
    accepted('controlnet-sdxl', { ...controlnet(), controlnet_image: png });
    accepted('sd', { prompt: 'a photo of sks', transfer_images: { sks: [jpeg, png] } });
  });

  it('refuses a mask without init_image', () => {
    expect(refused('sdxl', { prompt: 'x', mask_image: jpeg })).toEqual([{ path: 'mask_image', message: expect.stringContaining('needs init_image') as string }]);
  });

  it('refuses a data: URL, bad base64 and base64 that is not an image, naming the field', () => {
    const cases: [string, string][] = [
      [`data:image/jpeg;base64,${jpeg}`, 'bare base64, not a data: URL'],
      ['', 'not an empty string'],
      ['not base64 at all!', 'not valid base64'],
      [jpeg.slice(0, 40).replace(/\+/g, '-').replace(/\//g, '_') + '-_', 'URL-safe'],
      [`${jpeg.slice(0, 40)}\n${jpeg.slice(40)}`, 'line breaks'],
      [`${jpeg.slice(0, 41)}`, 'length does not make whole bytes'],
      ['abcde=', 'length does not make whole bytes'],
      [Buffer.from('just some text, not pixels').toString('base64'), 'not a JPEG, PNG'],
      ['AAAA', 'not a JPEG, PNG'],
    ];
    for (const [value, message] of cases) {
      expect(issueAt(refused('sdxl', { prompt: 'x', init_image: value }), 'init_image'), value.slice(0, 30)).toContain(message);
    }
    expect(paths(refused('sdxl', { prompt: 'a sks', transfer_images: { sks: [jpeg, 'AAAA'] } }))).toEqual(['transfer_images.sks.1']);
    const both = refused('controlnet-sdxl', { prompt: 'x', controlnet: 'svc:canny_sdxxl', controlnet_image: 'AAAA' });
    expect(paths(both)).toEqual(['controlnet_image', 'controlnet']);
  });

  it('accepts strength without init_image (unused, as the service leaves it) and refuses it out of range', () => {
    accepted('sdxl', { prompt: 'x', strength: 0.3 });
    expect(accepted('sdxl', { prompt: 'x', init_image: jpeg, strength: 0 }).strength).toBe(0);
    expect(paths(refused('sdxl', { prompt: 'x', init_image: jpeg, strength: 1.01 }))).toEqual(['strength']);
  });
});

describe('numbers out of range name their field and the range', () => {
  const cases: [string, unknown, string][] = [
    ['cfg_scale', -1, 'from 0 to 50'], ['cfg_scale', 51, 'from 0 to 50'], ['cfg_scale', '7', 'a number'],
    ['steps', 0, 'whole number from 1 to 150'], ['steps', 151, 'from 1 to 150'], ['steps', 2.5, 'whole number'],
    ['num_images', 0, 'from 1 to 16'], ['num_images', 17, 'from 1 to 16'], ['num_images', 1.5, 'whole number'],
    ['seed', -1, 'from 0 to 4294967295'], ['seed', 2 ** 32, 'from 0 to 4294967295'], ['seed', 3.5, 'whole number'],
    ['high_noise_frac', 1.5, 'from 0 to 1'], ['high_noise_frac', -0.1, 'from 0 to 1'],
    ['strength', -0.1, 'from 0 to 1'],
    ['width', 0, 'positive'], ['width', 512.5, 'whole number'], ['height', -512, 'positive'],
    ['use_refiner', 'yes', 'true or false'],
  ];
  it.each(cases)('%s = %j', (field, value, message) => {
    const body = { prompt: 'x', [field]: value, ...(field === 'strength' ? { init_image: jpeg } : {}) };
    const issues = refused('sdxl', body);
    expect(issueAt(issues, field)).toContain(message);
  });

  it('checks LoRA weights and asset names', () => {
    expect(issueAt(refused('sdxl', { prompt: 'x', loras: { 'svc:film': 11 } }), 'loras.svc:film')).toContain('from -10 to 10');
    accepted('sdxl', { prompt: 'x', loras: { 'svc:film': -0.5, my_lora: 1 }, textual_inversions: { 'svc:ti': 'trigger' }, checkpoint: 'svc:sdxl_base', vae: 'my_vae' });
    expect(issueAt(refused('sdxl', { prompt: 'x', checkpoint: 'svc:' }), 'checkpoint')).toContain("no asset after the 'svc:' prefix");
    expect(issueAt(refused('sdxl', { prompt: 'x', vae: ' my_vae' }), 'vae')).toContain('spaces');
    expect(paths(refused('sdxl', { prompt: 'x', loras: { '': 1 } }))).toEqual(['loras.']);
  });
});

describe('ControlNet rules', () => {
  it('runs the three public SDXL checkpoints with a control image', () => {
    for (const name of ['svc:canny_sdxl', 'svc:depth_sdxl', 'svc:openpose_sdxl']) {
      expect(accepted('controlnet-sdxl', { ...controlnet(), controlnet: name, controlnet_preprocess: false }).mode).toBe('controlnet');
    }
  });

  it('refuses an unknown public checkpoint and an SD 1.5 one, naming controlnet', () => {
    expect(issueAt(refused('controlnet-sdxl', { ...controlnet(), controlnet: 'svc:canny_sdxxl' }), 'controlnet')).toContain("unknown public ControlNet checkpoint 'svc:canny_sdxxl'");
    const sd15 = refused('controlnet-sdxl', { ...controlnet(), controlnet: 'svc:canny_sd15' });
    expect(sd15).toEqual([{ path: 'controlnet', message: expect.stringContaining('is an SD 1.5 checkpoint') as string }]);
  });

  it('needs controlnet_image for a private checkpoint, where preprocessing does not apply', () => {
    expect(refused('controlnet-sdxl', { prompt: 'x', controlnet: 'my_edges' })).toEqual([
      { path: 'controlnet_image', message: expect.stringContaining("private ControlNet checkpoint ('my_edges')") as string },
    ]);
    accepted('controlnet-sdxl', { prompt: 'x', controlnet: 'my_edges', controlnet_image: jpeg, controlnet_preprocess: false });
    expect(paths(refused('controlnet-sdxl', { prompt: 'x', controlnet: 'my_edges', controlnet_image: jpeg, controlnet_preprocess: true }))).toEqual(['controlnet_preprocess']);
  });

  it('needs a checkpoint and an image on controlnet-sdxl', () => {
    expect(paths(refused('controlnet-sdxl', { prompt: 'x' }))).toEqual(['controlnet']);
    expect(paths(refused('controlnet-sdxl', { prompt: 'x', controlnet: 'svc:depth_sdxl' }))).toEqual(['controlnet_image']);
  });

  it('refuses ControlNet fields on sdxl and sd, each by name', () => {
    for (const engine of ['sdxl', 'sd']) {
      const issues = refused(engine, { prompt: 'x', controlnet: 'svc:canny_sdxl', controlnet_preprocess: true, controlnet_image: jpeg });
      expect(paths(issues)).toEqual(['controlnet', 'controlnet_preprocess', 'controlnet_image']);
      expect(issues[0]?.message).toContain(`not to '${engine}'`);
    }
  });
});

describe('mode selection by the fields present (2.1)', () => {
  it('picks text-to-image, image-to-image, inpainting, ControlNet and subject transfer', () => {
    expect(accepted('sdxl', { prompt: 'x' }).mode).toBe('text-to-image');
    expect(accepted('sdxl', { prompt: 'x', init_image: jpeg }).mode).toBe('image-to-image');
    expect(accepted('sd', { prompt: 'x', init_image: jpeg, mask_image: jpeg }).mode).toBe('inpainting');
    expect(accepted('controlnet-sdxl', controlnet()).mode).toBe('controlnet');
    expect(accepted('sdxl', { prompt: 'a photo of SKS', transfer_images: { sks: [jpeg] } }).mode).toBe('subject-transfer');
    expect(imageMode({ mask_image: 'x' })).toBe('text-to-image');
  });

  it('refuses fields of two modes at once, naming the second', () => {
    expect(paths(refused('sdxl', { prompt: 'a sks', init_image: jpeg, transfer_images: { sks: [jpeg] } }))).toEqual(['init_image']);
    const three = refused('controlnet-sdxl', { ...controlnet(), prompt: 'a sks', init_image: jpeg, transfer_images: { sks: [jpeg] } });
    expect(paths(three)).toEqual(['transfer_images', 'init_image']);
    expect(three[0]?.message).toContain('cannot be combined with controlnet');
  });

  it('needs the trigger word of transfer_images in a prompt, and at most 8 samples', () => {
    expect(refused('sdxl', { prompt: 'a dog', transfer_images: { zq: [jpeg] } })).toEqual([
      { path: 'transfer_images.zq', message: expect.stringContaining("'zq' does not appear in the prompt") as string },
    ]);
    accepted('sdxl', { prompt: 'a dog', prompt_2: 'a photo of zq', transfer_images: { zq: [jpeg] } });
    expect(paths(refused('sdxl', { prompt: 'zq', transfer_images: { zq: Array<string>(9).fill(jpeg) } }))).toEqual(['transfer_images.zq']);
    // JSON.parse makes __proto__ an own key; it is refused by name, not lost on the way.
    const proto = JSON.parse(`{"prompt":"a __proto__","transfer_images":{"__proto__":["${jpeg}"]}}`) as Record<string, unknown>;
    expect(refused('sdxl', proto)).toEqual([{ path: 'transfer_images.__proto__', message: expect.stringContaining('cannot use __proto__ as a trigger word') as string }]);
    expect(paths(refused('sdxl', { prompt: 'zq', transfer_images: { zq: [] } }))).toEqual(['transfer_images.zq']);
    expect(paths(refused('sdxl', { prompt: 'zq', transfer_images: {} }))).toEqual(['transfer_images']);
  });
});

describe('requests that are not requests', () => {
  it('refuses an unknown engine, listing the engines', () => {
    expect(refused('sdxl-turbo', { prompt: 'x' })).toEqual([{ path: 'engine_id', message: "unknown engine 'sdxl-turbo'; use one of sdxl, sd, controlnet-sdxl" }]);
  });

  it('refuses unknown fields one by one, suggesting the field probably meant', () => {
    const issues = refused('sdxl', { prompt: 'x', negative_promt: 'y', sampler_name: 'DDIM', colour: 'red' });
    expect(issues).toEqual([
      { path: 'negative_promt', message: "is not a field of this request; did you mean 'negative_prompt'?" },
      { path: 'sampler_name', message: 'is not a field of this request' },
      { path: 'colour', message: 'is not a field of this request' },
    ]);
    expect(issueAt(refused('sdxl', { prompt: 'x', Steps: 3 }), 'Steps')).toContain("did you mean 'steps'");
  });

  it('asks for the prompt and refuses a body that is not an object', () => {
    expect(refused('sdxl', { steps: 3 })).toEqual([{ path: 'prompt', message: 'is required' }]);
    expect(refused('sdxl', { prompt: 42 })).toEqual([{ path: 'prompt', message: 'must be a string' }]);
    for (const body of [null, [], 'a cat', 3]) expect(paths(refused('sdxl', body))).toEqual(['(body)']);
    expect(issueAt(refused('sdxl', []), '(body)')).toBe('must be an object, not an array');
  });

  it('names a known field in every issue it reports', () => {
    const known = new Set([...Object.keys(ImageRequestSchema.shape), 'engine_id', '(body)']);
    const bodies: [string, unknown][] = [
      ['sd', { prompt: 'x', prompt_2: 'y', width: 5, height: 5, steps: -1, sampler: 'X' }],
      ['controlnet-sdxl', { prompt: 'x', controlnet: 'svc:nope', mask_image: 'AAAA', transfer_images: { q: [jpeg] } }],
      ['sdxl', { prompt: 'cat '.repeat(100), seed: 'random', loras: { a: 'x' } }],
    ];
    for (const [engine, body] of bodies) {
      for (const issue of refused(engine, body)) {
        expect(known, issue.path).toContain(issue.path.split('.')[0]);
        expect(issue.message.length).toBeGreaterThan(5);
      }
    }
    expect(formatIssues([{ path: 'width', message: 'is wrong' }, { path: 'steps', message: 'too' }])).toBe('width: is wrong\nsteps: too');
  });
});

describe('the image response (2.6)', () => {
  it('takes images[].image_b64 with the hosted service fields, keeping unknown ones', () => {
    const body = { images: [{ image_b64: jpeg, seed: 7, removed_for_safety: false, finish: 'ok' }], prediction_time_ms: 812, request_id: 'r1' };
    expect(ImageResponseSchema.parse(body)).toEqual(body);
    expect(ImageResponseSchema.safeParse({ images: [{ seed: 1 }] }).success).toBe(false);
    expect(ImageResponseSchema.safeParse({}).success).toBe(false);
  });
});
