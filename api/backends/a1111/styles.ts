/**
 * style_preset as words in the prompt. AUTOMATIC1111's own `styles` are names of prompt snippets
 * kept on the server (styles.csv), so a workflow cannot count on any being there; instead each
 * preset becomes a template around the prompt and a few words added to the negative prompt,
 * written here for what each name makes people expect. `base` is the service's "no style".
 */
import type { StylePreset } from '../../catalog';

/** `{prompt}` marks where the prompt goes; the second member is added to the negative prompt. */
type Template = readonly [positive: string, negative: string];

const PHOTO_NEG = 'drawing, painting, illustration, cartoon, anime';
const PAPER = 'paper craft, layered paper, cut paper shapes, soft shadows';

export const STYLE_TEMPLATES: Record<StylePreset, Template> = {
  base: ['{prompt}', ''],
  '3d-model': ['3d model of {prompt}, octane render, clean studio lighting, highly detailed', 'flat, 2d, sketch'],
  Abstract: ['abstract art of {prompt}, non-representational shapes, bold colours, expressive composition', 'realistic, photographic'],
  Advertising: ['advertising image of {prompt}, product focus, professional, polished, eye-catching', 'amateur, cluttered, dull'],
  Alien: ['alien world, {prompt}, otherworldly, bioluminescent, strange forms, sci-fi', 'ordinary, mundane'],
  'analog-film': ['analog film photo of {prompt}, film grain, faded colours, vintage look', 'digital, cgi, painting'],
  anime: ['anime artwork of {prompt}, anime style, key visual, vibrant, studio quality', 'photo, realistic, 3d render'],
  Architectural: ['architectural photograph of {prompt}, clean lines, balanced composition, natural light', 'people, clutter, distorted'],
  cinematic: ['cinematic film still of {prompt}, shallow depth of field, dramatic lighting, moody, epic', 'cartoon, drawing, anime'],
  Collage: ['collage of {prompt}, mixed media, cut-out pieces, layered textures', 'plain, uniform'],
  'comic-book': ['comic book panel of {prompt}, bold ink lines, halftone shading, vibrant', 'photo, realistic'],
  'Craft Clay': ['clay sculpture of {prompt}, handmade, claymation, soft textures', 'photo, sleek, digital'],
  Cubist: ['cubist painting of {prompt}, geometric fragments, multiple viewpoints', 'photo, realistic'],
  'digital-art': ['digital art of {prompt}, detailed digital painting, vivid colours', 'photo, film grain'],
  Disco: ['disco-themed {prompt}, mirror ball, colourful lights, 1970s glamour', 'dull, monochrome'],
  Dreamscape: ['dreamscape, {prompt}, surreal, ethereal, soft glowing light', 'mundane, harsh'],
  Dystopian: ['dystopian {prompt}, bleak, oppressive, gritty atmosphere', 'cheerful, bright, colourful'],
  enhance: ['breathtaking {prompt}, highly detailed, sharp focus, best quality', 'blurry, low quality, noisy'],
  'Fairy Tale': ['fairy tale illustration of {prompt}, whimsical, enchanting, storybook', 'gritty, realistic photo'],
  'fantasy-art': ['fantasy art of {prompt}, magical, epic, painterly, detailed', 'photo, mundane'],
  'Fighting Game': ['fighting game style {prompt}, dynamic action pose, vibrant, game art', 'static, dull'],
  'Film Noir': ['film noir still of {prompt}, black and white, high contrast, dramatic shadows', 'colour, bright, cheerful'],
  'Flat Papercut': [`flat papercut of {prompt}, ${PAPER}, simple shapes`, '3d render, photo'],
  'Food Photography': ['food photograph of {prompt}, appetizing, soft natural light, shallow depth of field', PHOTO_NEG],
  Gothic: ['gothic {prompt}, dark, ornate, dramatic, mysterious', 'bright, cheerful'],
  Graffiti: ['graffiti art of {prompt}, spray paint, street art, bold colours, urban wall', 'photo, clean'],
  Grunge: ['grunge style {prompt}, distressed textures, dirty, gritty', 'clean, polished'],
  HDR: ['HDR photo of {prompt}, high dynamic range, vivid detail in shadows and highlights', 'flat, dull, washed out'],
  Horror: ['horror scene of {prompt}, eerie, unsettling, dark atmosphere', 'cheerful, bright'],
  Hyperrealism: ['hyperrealistic {prompt}, extremely detailed, lifelike textures, sharp focus', 'cartoon, drawing, painting'],
  Impressionist: ['impressionist painting of {prompt}, loose visible brushstrokes, light and colour', 'photo, sharp detail'],
  isometric: ['isometric view of {prompt}, isometric style, clean, detailed', 'perspective distortion'],
  Kirigami: [`kirigami of {prompt}, ${PAPER}, intricate folds and cuts`, '3d render, photo'],
  'line-art': ['line art drawing of {prompt}, clean lines, minimal, monochrome', 'colour, shading, photo'],
  'Long Exposure': ['long exposure photo of {prompt}, motion blur, light trails, smooth water', 'static, frozen motion'],
  'low-poly': ['low poly {prompt}, polygon art, faceted geometric shapes', 'smooth, photo, detailed textures'],
  Minimalist: ['minimalist {prompt}, simple, clean, lots of empty space', 'cluttered, busy, detailed'],
  'modeling-compound': ['{prompt} made of modeling clay, plasticine, handmade', 'photo, sleek'],
  Monochrome: ['monochrome {prompt}, black and white, tonal contrast', 'colour'],
  Nautical: ['nautical themed {prompt}, sea, ships, maritime', 'desert, landlocked'],
  'Neon Noir': ['neon noir {prompt}, dark city at night, neon lights, moody', 'daylight, bright'],
  'neon-punk': ['neonpunk style {prompt}, cyberpunk, vibrant neon colours, glowing', 'dull, muted'],
  origami: [`origami {prompt}, folded paper, ${PAPER}`, '3d render, photo'],
  'Paper Mache': ['papier-mache {prompt}, paper mache sculpture, handmade', 'photo, sleek'],
  'Paper Quilling': [`paper quilling art of {prompt}, rolled paper strips, ${PAPER}`, '3d render, photo'],
  'Papercut Collage': [`papercut collage of {prompt}, ${PAPER}, mixed textures`, '3d render, photo'],
  'Papercut Shadow Box': [`papercut shadow box of {prompt}, ${PAPER}, depth, backlit`, '3d render, photo'],
  photographic: ['photograph of {prompt}, natural light, detailed, 35mm', PHOTO_NEG],
  'pixel-art': ['pixel art of {prompt}, low resolution, retro 8-bit, limited palette', 'smooth, photo, blurry'],
  Pointillism: ['pointillism painting of {prompt}, composed of small dots of colour', 'photo, smooth'],
  'Pop Art': ['pop art of {prompt}, bold colours, halftone dots, graphic', 'photo, muted'],
  Psychedelic: ['psychedelic {prompt}, swirling vivid colours, trippy patterns', 'monochrome, dull'],
  'Real Estate': ['real estate photo of {prompt}, bright, wide angle, inviting interior', 'dark, cluttered'],
  Renaissance: ['renaissance painting of {prompt}, classical, oil on canvas, chiaroscuro', 'modern, photo'],
  'Retro Arcade': ['retro arcade style {prompt}, 8-bit, neon, 1980s video game', 'modern, photo'],
  'Retro Game': ['retro game art of {prompt}, 16-bit, pixel art, vintage video game', 'modern, photo'],
  'RPG Fantasy Game': ['RPG fantasy game art of {prompt}, detailed, epic, game illustration', 'photo, modern'],
  Silhouette: ['silhouette of {prompt}, high contrast, backlit, dark shapes on bright background', 'detailed faces, flat lighting'],
  Space: ['{prompt} in outer space, stars, nebula, cosmic', 'earthbound, daylight sky'],
  'Stacked Papercut': [`stacked papercut of {prompt}, ${PAPER}, many layers`, '3d render, photo'],
  'Stained Glass': ['stained glass of {prompt}, coloured glass, lead lines, vibrant, backlit', 'photo, realistic'],
  Steampunk: ['steampunk {prompt}, brass, gears, Victorian machinery', 'modern, minimal'],
  'Strategy Game': ['strategy game art of {prompt}, top-down view, detailed map-like', 'photo, close-up'],
  Surrealist: ['surrealist painting of {prompt}, dreamlike, impossible scene', 'ordinary, realistic photo'],
  'Techwear Fashion': ['techwear fashion {prompt}, futuristic functional clothing, urban, sleek', 'vintage, rustic'],
  'Thick Layered Papercut': [`thick layered papercut of {prompt}, ${PAPER}, deep layers`, '3d render, photo'],
  'tile-texture': ['{prompt}, seamless tileable texture, flat, repeating pattern', 'perspective, objects, borders'],
  'Tilt-Shift': ['tilt-shift photo of {prompt}, miniature effect, selective focus', 'flat focus, drawing'],
  Tribal: ['tribal art of {prompt}, indigenous patterns, bold shapes', 'modern, photo'],
  Typography: ['typographic design of {prompt}, lettering, graphic layout', 'photo, cluttered'],
  Watercolor: ['watercolor painting of {prompt}, soft washes, paper texture', 'photo, sharp, digital'],
  Zentangle: ['zentangle of {prompt}, intricate patterns, black ink, detailed', 'colour, photo'],
};

/** The prompt and negative prompt with the preset's words around them. */
export function applyStyle(preset: StylePreset, prompt: string, negative: string): { prompt: string; negative: string } {
  const [positive, extra] = STYLE_TEMPLATES[preset];
  // A function replacement: a `$` in the prompt must stay a `$`.
  const styled = positive.replace('{prompt}', () => prompt);
  return { prompt: styled, negative: [negative, extra].filter((part) => part.trim() !== '').join(', ') };
}
