/**
 * style_preset as prompt templates. ComfyUI has no style presets: people who run SDXL there wrap
 * the prompt in a style template (the SDXL Prompt Styler custom node's tables are the usual ones:
 * `{prompt}` inside a few style words, plus a negative prompt). These templates are written for
 * Atelier in that shape, so a preset is approximated, never the service's own rendering of it.
 */
import type { StylePreset } from '../../catalog';

export interface StyleTemplate {
  /** Style words after the prompt. */
  positive: string;
  /** What the style steers away from, added to the negative prompt. */
  negative: string;
}

const PHOTO_NEG = 'painting, drawing, illustration, cartoon, anime';
const ART_NEG = 'photo, photorealistic, realism';
const PAPER_NEG = 'photo of a real scene, 3d render, blurry';

const t = (positive: string, negative: string): StyleTemplate => ({ positive, negative });

export const STYLE_TEMPLATES: Record<StylePreset, StyleTemplate> = {
  base: t('', ''),
  '3d-model': t('professional 3d model, octane render, volumetric lighting, highly detailed', 'painting, flat, blurry, low poly'),
  Abstract: t('abstract art, non-representational shapes and colours, bold composition', 'realistic, photographic, detailed figures'),
  Advertising: t('advertising photo, product focus, professional studio lighting, clean, polished', 'amateur, cluttered, dark, noisy'),
  Alien: t('alien world, otherworldly, extraterrestrial atmosphere, science fiction', 'earthly, ordinary, mundane'),
  'analog-film': t('analog film photo, 35mm, film grain, faded colours, vignette', PHOTO_NEG),
  anime: t('anime artwork, anime style, key visual, vibrant colours', 'photo, realism, 3d render'),
  Architectural: t('architectural photography, clean lines, striking geometry, professional composition', 'people, clutter, distorted perspective'),
  cinematic: t('cinematic film still, shallow depth of field, dramatic lighting, film grain', 'cartoon, anime, painting, flat lighting'),
  Collage: t('mixed media collage, cut-out layers, assorted textures and patterns', 'plain, single medium, photorealistic'),
  'comic-book': t('comic book art, bold ink outlines, graphic novel style, vibrant colours', 'photo, realism, blurry'),
  'Craft Clay': t('clay sculpture, claymation, handmade craft look, soft studio light', 'photo of a real scene, drawing, flat'),
  Cubist: t('cubist painting, fragmented geometric planes, multiple viewpoints', 'photorealistic, smooth, realistic anatomy'),
  'digital-art': t('digital art, digital painting, highly detailed illustration', 'photo, film grain, realism'),
  Disco: t('disco era, glitter, mirror ball lights, vibrant 1970s colours', 'muted, dull, monochrome'),
  Dreamscape: t('dreamscape, surreal dream, soft glow, ethereal atmosphere', 'mundane, harsh lighting, realistic'),
  Dystopian: t('dystopian, bleak, oppressive atmosphere, decayed city', 'cheerful, bright, utopian'),
  enhance: t('highly detailed, sharp focus, professional quality', 'blurry, low quality, noisy'),
  'Fairy Tale': t('fairy tale illustration, whimsical, enchanted, storybook magic', 'gritty, realistic, horror'),
  'fantasy-art': t('fantasy art, epic, magical, detailed painterly illustration', 'photo, mundane, modern'),
  'Fighting Game': t('fighting game style, dynamic action pose, arcade character art, vibrant', 'static, realistic photo'),
  'Film Noir': t('film noir, black and white, high contrast, hard shadows, 1940s mood', 'colour, bright, cheerful'),
  'Flat Papercut': t('flat papercut art, layered paper shapes, clean silhouettes', PAPER_NEG),
  'Food Photography': t('food photography, appetising, close-up, soft natural light, shallow depth of field', 'unappetising, messy, dark'),
  Gothic: t('gothic style, dark, ornate, moody architecture, dramatic shadows', 'bright, cheerful, pastel'),
  Graffiti: t('graffiti street art, spray paint, bold colours, urban wall', 'photorealistic, clean, minimal'),
  Grunge: t('grunge style, gritty, distressed textures, dark muted tones', 'clean, polished, bright'),
  HDR: t('HDR photo, high dynamic range, vivid detail in lights and shadows', 'flat, washed out, low contrast'),
  Horror: t('horror style, eerie, unsettling, dark atmosphere', 'cheerful, bright, cute'),
  Hyperrealism: t('hyperrealistic, extremely detailed, lifelike textures, sharp focus', 'cartoon, painting, stylised'),
  Impressionist: t('impressionist painting, visible brushstrokes, light and colour, plein air', 'photo, sharp lines, digital render'),
  isometric: t('isometric view, clean geometry, detailed miniature scene', 'perspective distortion, blurry'),
  Kirigami: t('kirigami, intricate cut and folded paper, paper sculpture', PAPER_NEG),
  'line-art': t('line art drawing, clean lines, minimal shading', 'photo, colour fill, painterly'),
  'Long Exposure': t('long exposure photo, motion blur trails, light streaks', 'frozen motion, flat'),
  'low-poly': t('low poly 3d art, faceted geometric shapes, flat shading', 'smooth, high detail, photo'),
  Minimalist: t('minimalist, simple, clean composition, negative space', 'cluttered, busy, ornate'),
  'modeling-compound': t('made of modeling compound, play dough sculpture, handmade, soft clay texture', 'photo of a real scene, drawing, flat'),
  Monochrome: t('monochrome, black and white, strong tonal contrast', 'colour, vibrant'),
  Nautical: t('nautical theme, sea, ships, maritime atmosphere', 'desert, urban, landlocked'),
  'Neon Noir': t('neon noir, dark city at night, neon lights, moody cinematic', 'daylight, bright, pastel'),
  'neon-punk': t('neonpunk style, cyberpunk, vaporwave, neon colours, vibrant', 'muted colours, daylight, realism'),
  origami: t('origami, folded paper art, paper craft', PAPER_NEG),
  'Paper Mache': t('papier-mache sculpture, handmade, paper texture', PAPER_NEG),
  'Paper Quilling': t('paper quilling art, rolled and shaped paper strips, intricate', PAPER_NEG),
  'Papercut Collage': t('papercut collage, layered cut paper, mixed textures', PAPER_NEG),
  'Papercut Shadow Box': t('papercut shadow box, layered paper depth, backlit', PAPER_NEG),
  photographic: t('photograph, realistic, natural lighting, sharp focus', PHOTO_NEG),
  'pixel-art': t('pixel art, 16-bit, retro video game sprite style', 'smooth, photorealistic, blurry'),
  Pointillism: t('pointillism painting, composed of small dots of colour', 'smooth gradients, photo'),
  'Pop Art': t('pop art, bold flat colours, comic halftone dots, graphic', 'muted, realistic, photo'),
  Psychedelic: t('psychedelic art, swirling vivid colours, trippy patterns', 'muted, monochrome, realistic'),
  'Real Estate': t('real estate photography, bright interior, wide angle, inviting', 'dark, cluttered, distorted'),
  Renaissance: t('renaissance painting, classical composition, oil on canvas, chiaroscuro', 'modern, digital, photo'),
  'Retro Arcade': t('retro arcade game art, 8-bit, neon, 1980s arcade', 'modern, photorealistic'),
  'Retro Game': t('retro video game style, pixelated, classic console graphics', 'modern, photorealistic'),
  'RPG Fantasy Game': t('RPG fantasy game art, heroic, detailed game illustration', 'photo, modern setting'),
  Silhouette: t('silhouette, backlit, strong contrast against a bright sky', 'front lighting, detailed faces'),
  Space: t('outer space, stars, nebula, cosmic scale', 'earthly, indoor, daylight sky'),
  'Stacked Papercut': t('stacked papercut art, layered paper depth', PAPER_NEG),
  'Stained Glass': t('stained glass window, coloured glass pieces, lead lines, backlit', 'photo, smooth gradients'),
  Steampunk: t('steampunk, brass and copper machinery, Victorian gears', 'modern, minimal, digital'),
  'Strategy Game': t('strategy game art, top-down view, detailed map-like scene', 'close-up portrait, photo'),
  Surrealist: t('surrealist painting, dreamlike, impossible scene', 'ordinary, realistic photo'),
  'Techwear Fashion': t('techwear fashion, functional futuristic clothing, urban', 'vintage, formal, casual'),
  'Thick Layered Papercut': t('thick layered papercut art, deep paper layers', PAPER_NEG),
  'tile-texture': t('seamless tiling texture, repeating pattern, flat lay', 'perspective, objects, vignette'),
  'Tilt-Shift': t('tilt-shift photo, miniature effect, selective focus', 'everything in focus, flat'),
  Tribal: t('tribal art, indigenous patterns, bold symbolic shapes', 'modern, photorealistic'),
  Typography: t('typographic art, letterforms as design, bold type', 'photo, cluttered'),
  Watercolor: t('watercolor painting, soft washes of colour, paper texture', ART_NEG),
  Zentangle: t('zentangle, intricate black ink patterns, meditative doodle art', 'photo, colour, blurry'),
};

/** The prompt wrapped in the style: `{prompt}, style words`. */
export function styledPrompt(prompt: string, style: StyleTemplate): string {
  if (style.positive === '') return prompt;
  return prompt.trim() === '' ? style.positive : `${prompt}, ${style.positive}`;
}

/** The negative prompt with the style's negative words added. */
export function styledNegative(negative: string, style: StyleTemplate): string {
  if (style.negative === '') return negative;
  return negative.trim() === '' ? style.negative : `${negative}, ${style.negative}`;
}
