/**
 * The fixed vocabularies of the image API (docs/service-interface.md, sections 2.2, 2.4, 2.5, 4 and 8),
 * written once here and used by the schemas, the local engines and the editor's forms.
 */

/** Engines selectable in the path `POST {image_base_url}/generate/{engine_id}`. */
export const ENGINES = ['sdxl', 'sd', 'controlnet-sdxl'] as const;
export type EngineId = (typeof ENGINES)[number];

/** The model family each engine runs, which decides defaults, resolutions and token limits. */
export type ModelFamily = 'sdxl' | 'sd15';
export const ENGINE_FAMILY: Record<EngineId, ModelFamily> = {
  sdxl: 'sdxl',
  sd: 'sd15',
  'controlnet-sdxl': 'sdxl',
};

export const ENGINE_LABEL: Record<EngineId, string> = {
  sdxl: 'SDXL v1.0',
  sd: 'SD v1.5',
  'controlnet-sdxl': 'ControlNet on SDXL',
};

export function isSdxlEngine(engine: EngineId): boolean {
  return ENGINE_FAMILY[engine] === 'sdxl';
}

/** A supported output size, width by height (section 8). */
export interface Resolution {
  readonly width: number;
  readonly height: number;
}

const pairs = (list: readonly (readonly [number, number])[]): readonly Resolution[] =>
  list.map(([width, height]) => ({ width, height }));

export const RESOLUTIONS: Record<ModelFamily, readonly Resolution[]> = {
  sdxl: pairs([
    [1024, 1024], [896, 1152], [832, 1216], [768, 1344], [640, 1536],
    [1536, 640], [1344, 768], [1216, 832], [1152, 896],
  ]),
  sd15: pairs([
    [512, 512], [640, 512], [768, 512], [512, 704], [512, 768],
    [576, 768], [640, 768], [576, 1024], [1024, 576],
  ]),
};

export function isSupportedResolution(family: ModelFamily, width: number, height: number): boolean {
  return RESOLUTIONS[family].some((r) => r.width === width && r.height === height);
}

export function formatResolution(r: Resolution): string {
  return `${r.width}x${r.height}`;
}

/** Samplers (section 2.2). Premium samplers cost twice as much as regular ones. */
export const REGULAR_SAMPLERS = [
  'DDIM', 'DDPM', 'DPM_PLUS_PLUS_2M_KARRAS', 'DPM_SINGLE', 'DPM_SOLVER_MULTISTEP',
  'K_EULER', 'K_EULER_ANCESTRAL', 'PNDM', 'UNI_PC',
] as const;
export const PREMIUM_SAMPLERS = ['DPM_2', 'DPM_2_ANCESTRAL', 'DPM_PLUS_PLUS_SDE_KARRAS', 'HEUN', 'KLMS'] as const;
export const SAMPLERS = [...REGULAR_SAMPLERS, ...PREMIUM_SAMPLERS] as const;
export type Sampler = (typeof SAMPLERS)[number];

export function isPremiumSampler(sampler: string): boolean {
  return (PREMIUM_SAMPLERS as readonly string[]).includes(sampler);
}

/** Relative price of one image with this sampler: a regular-sampler image is 1 (section 1, 8). */
export function samplerPriceUnits(sampler: string): number {
  return isPremiumSampler(sampler) ? 2 : 1;
}

/** Style presets, exact and case as given (section 2.4). SDXL engines only. */
export const STYLE_PRESETS = [
  'base', '3d-model', 'Abstract', 'Advertising', 'Alien', 'analog-film', 'anime', 'Architectural',
  'cinematic', 'Collage', 'comic-book', 'Craft Clay', 'Cubist', 'digital-art', 'Disco', 'Dreamscape',
  'Dystopian', 'enhance', 'Fairy Tale', 'fantasy-art', 'Fighting Game', 'Film Noir', 'Flat Papercut',
  'Food Photography', 'Gothic', 'Graffiti', 'Grunge', 'HDR', 'Horror', 'Hyperrealism', 'Impressionist',
  'isometric', 'Kirigami', 'line-art', 'Long Exposure', 'low-poly', 'Minimalist', 'modeling-compound',
  'Monochrome', 'Nautical', 'Neon Noir', 'neon-punk', 'origami', 'Paper Mache', 'Paper Quilling',
  'Papercut Collage', 'Papercut Shadow Box', 'photographic', 'pixel-art', 'Pointillism', 'Pop Art',
  'Psychedelic', 'Real Estate', 'Renaissance', 'Retro Arcade', 'Retro Game', 'RPG Fantasy Game',
  'Silhouette', 'Space', 'Stacked Papercut', 'Stained Glass', 'Steampunk', 'Strategy Game',
  'Surrealist', 'Techwear Fashion', 'Thick Layered Papercut', 'tile-texture', 'Tilt-Shift', 'Tribal',
  'Typography', 'Watercolor', 'Zentangle',
] as const;
export type StylePreset = (typeof STYLE_PRESETS)[number];

/** Public ControlNet checkpoints (section 2.5). */
export const PUBLIC_CONTROLNETS = [
  'svc:canny_sdxl', 'svc:depth_sdxl', 'svc:openpose_sdxl',
  'svc:canny_sd15', 'svc:depth_sd15', 'svc:inpaint_sd15', 'svc:ip2p_sd15', 'svc:lineart_sd15',
  'svc:openpose_sd15', 'svc:scribble_sd15', 'svc:tile_sd15',
] as const;
export type PublicControlNet = (typeof PUBLIC_CONTROLNETS)[number];

/** Public checkpoints built for SDXL, the ones the `controlnet-sdxl` engine runs. */
export const SDXL_CONTROLNETS = PUBLIC_CONTROLNETS.filter((c) => c.endsWith('_sdxl'));

/** Prefix of asset names from the public asset library. Private names carry none. */
export const PUBLIC_ASSET_PREFIX = 'svc:';

export function isPublicAsset(name: string): boolean {
  return name.startsWith(PUBLIC_ASSET_PREFIX);
}

/** Prompt token limits (section 8); weighting syntax does not count. */
export const TOKEN_LIMITS: Record<ModelFamily, number> = { sdxl: 77, sd15: 231 };

/** Roles a chat message may have (section 2.7). */
export const CHAT_ROLES = ['system', 'assistant', 'user'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];
