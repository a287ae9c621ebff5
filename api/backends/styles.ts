/**
 * style_preset in words, for every backend that has no such presets of its own. The service
 * renders a preset its own way; a backend can only approximate it, so each preset here is written
 * for what its name makes people expect: a template around the prompt, a few words for the
 * negative prompt, and a short phrase for prompts that read as plain sentences. ComfyUI users know
 * the template shape from the SDXL Prompt Styler custom node; AUTOMATIC1111's own `styles` are
 * names kept on its server (styles.csv), so a workflow cannot count on any being there. `base` is
 * the service's "no style" and adds nothing.
 */
import type { StylePreset } from '../catalog';

export interface Style {
  /**
   * The prompt in the style: `{prompt}` (once) is where it goes. The words after the first comma
   * that follows it are detail words, kept when the prompt is blank.
   */
  template: string;
  /** What the style steers away from, added to the negative prompt. */
  negative: string;
  /**
   * The style in a few words, read after the prompt ("a fox, anime style"): the whole style for
   * backends that take one plain prompt (OpenAI Images), and what leads a blank prompt.
   */
  phrase: string;
}

const PHOTO_NEG = 'drawing, painting, illustration, cartoon, anime';
const PAPER = 'layered cut paper, paper craft, soft shadows';
const PAPER_NEG = 'photo of a real scene, 3d render, blurry';

const s = (template: string, negative: string, phrase: string): Style => ({ template, negative, phrase });

export const STYLES: Record<StylePreset, Style> = {
  base: s('{prompt}', '', ''),
  '3d-model': s('3d model of {prompt}, octane render, volumetric studio lighting, highly detailed', 'painting, sketch, flat, 2d', '3D model style'),
  Abstract: s('abstract art of {prompt}, non-representational shapes and colours, bold expressive composition', 'realistic, photographic, detailed figures', 'abstract art style'),
  Advertising: s('advertising photo of {prompt}, product focus, professional studio lighting, polished, eye-catching', 'amateur, cluttered, dull, noisy', 'polished advertising photo style'),
  Alien: s('{prompt} on an alien world, bioluminescent, strange forms, science fiction', 'earthly, ordinary, mundane', 'otherworldly alien style'),
  'analog-film': s('analog film photo of {prompt}, 35mm, film grain, faded colours, vignette', 'digital, cgi, painting, drawing', 'analog film photo style'),
  anime: s('anime artwork of {prompt}, anime style, key visual, vibrant colours, studio quality', 'photo, realism, 3d render', 'anime style'),
  Architectural: s('architectural photograph of {prompt}, clean lines, striking geometry, balanced composition, natural light', 'people, clutter, distorted perspective', 'architectural photography style'),
  cinematic: s('cinematic film still of {prompt}, shallow depth of field, dramatic lighting, film grain, moody', 'cartoon, anime, painting, flat lighting', 'cinematic film still style'),
  Collage: s('mixed media collage of {prompt}, cut-out pieces, layered textures and patterns', 'plain, uniform, single medium', 'mixed media collage style'),
  'comic-book': s('comic book panel of {prompt}, bold ink outlines, halftone shading, vibrant colours', 'photo, realism, blurry', 'comic book style'),
  'Craft Clay': s('clay sculpture of {prompt}, claymation, handmade craft look, soft studio light', 'photo of a real scene, sleek, digital, flat', 'handmade clay craft style'),
  Cubist: s('cubist painting of {prompt}, fragmented geometric planes, multiple viewpoints', 'photorealistic, smooth, realistic anatomy', 'cubist painting style'),
  'digital-art': s('digital art of {prompt}, detailed digital painting, vivid colours', 'photo, film grain, realism', 'digital art style'),
  Disco: s('disco-themed {prompt}, mirror ball lights, glitter, vibrant 1970s glamour', 'muted, dull, monochrome', '1970s disco style'),
  Dreamscape: s('dreamscape of {prompt}, surreal, ethereal atmosphere, soft glowing light', 'mundane, harsh lighting, realistic', 'ethereal dreamscape style'),
  Dystopian: s('dystopian {prompt}, bleak, oppressive atmosphere, decayed city, gritty', 'cheerful, bright, utopian', 'bleak dystopian style'),
  enhance: s('breathtaking {prompt}, highly detailed, sharp focus, professional quality', 'blurry, low quality, noisy', 'enhanced detail, sharp focus'),
  'Fairy Tale': s('fairy tale illustration of {prompt}, whimsical, enchanted, storybook magic', 'gritty, realistic photo, horror', 'storybook fairy tale style'),
  'fantasy-art': s('fantasy art of {prompt}, epic, magical, detailed painterly illustration', 'photo, mundane, modern', 'fantasy art style'),
  'Fighting Game': s('fighting game art of {prompt}, dynamic action pose, arcade character art, vibrant', 'static, dull, realistic photo', 'fighting game style'),
  'Film Noir': s('film noir still of {prompt}, black and white, high contrast, hard shadows, 1940s mood', 'colour, bright, cheerful', 'film noir style'),
  'Flat Papercut': s(`flat papercut art of {prompt}, clean silhouettes, simple shapes, ${PAPER}`, PAPER_NEG, 'flat papercut style'),
  'Food Photography': s('food photograph of {prompt}, appetising, close-up, soft natural light, shallow depth of field', `unappetising, messy, ${PHOTO_NEG}`, 'food photography style'),
  Gothic: s('gothic {prompt}, dark, ornate, moody, dramatic shadows', 'bright, cheerful, pastel', 'dark gothic style'),
  Graffiti: s('graffiti art of {prompt}, spray paint, street art on an urban wall, bold colours', 'photorealistic, clean, minimal', 'graffiti street art style'),
  Grunge: s('grunge {prompt}, gritty, distressed textures, dark muted tones', 'clean, polished, bright', 'gritty grunge style'),
  HDR: s('HDR photo of {prompt}, high dynamic range, vivid detail in highlights and shadows', 'flat, washed out, low contrast', 'HDR style'),
  Horror: s('horror scene of {prompt}, eerie, unsettling, dark atmosphere', 'cheerful, bright, cute', 'eerie horror style'),
  Hyperrealism: s('hyperrealistic {prompt}, extremely detailed, lifelike textures, sharp focus', 'cartoon, drawing, painting, stylised', 'hyperrealistic style'),
  Impressionist: s('impressionist painting of {prompt}, loose visible brushstrokes, light and colour, plein air', 'photo, sharp lines, digital render', 'impressionist painting style'),
  isometric: s('isometric view of {prompt}, clean geometry, detailed miniature scene', 'perspective distortion, blurry', 'isometric style'),
  Kirigami: s(`kirigami of {prompt}, intricate cut and folded paper, ${PAPER}`, PAPER_NEG, 'kirigami paper art style'),
  'line-art': s('line art drawing of {prompt}, clean lines, minimal, monochrome', 'photo, colour fill, shading, painterly', 'line art style'),
  'Long Exposure': s('long exposure photo of {prompt}, motion blur, light trails, smooth water', 'frozen motion, static, flat', 'long exposure photo style'),
  'low-poly': s('low poly {prompt}, faceted geometric shapes, flat shading, polygon art', 'smooth, high detail, photo', 'low poly style'),
  Minimalist: s('minimalist {prompt}, simple, clean composition, lots of negative space', 'cluttered, busy, ornate', 'minimalist style'),
  'modeling-compound': s('{prompt} made of modeling clay, plasticine, play dough sculpture, handmade, soft clay texture', 'photo of a real scene, sleek, drawing', 'modeling clay style'),
  Monochrome: s('monochrome {prompt}, black and white, strong tonal contrast', 'colour, vibrant', 'monochrome style'),
  Nautical: s('nautical {prompt}, sea, ships, maritime atmosphere', 'desert, urban, landlocked', 'nautical style'),
  'Neon Noir': s('neon noir {prompt}, dark city at night, neon lights, moody, cinematic', 'daylight, bright, pastel', 'neon noir style'),
  'neon-punk': s('neonpunk {prompt}, cyberpunk, vaporwave, glowing neon colours, vibrant', 'muted colours, daylight, dull', 'neon punk style'),
  origami: s(`origami {prompt}, folded paper art, ${PAPER}`, PAPER_NEG, 'origami style'),
  'Paper Mache': s('papier-mache {prompt}, paper mache sculpture, handmade, paper texture', PAPER_NEG, 'papier-mache style'),
  'Paper Quilling': s(`paper quilling art of {prompt}, rolled and shaped paper strips, intricate, ${PAPER}`, PAPER_NEG, 'paper quilling style'),
  'Papercut Collage': s(`papercut collage of {prompt}, mixed textures, ${PAPER}`, PAPER_NEG, 'papercut collage style'),
  'Papercut Shadow Box': s(`papercut shadow box of {prompt}, layered paper depth, backlit, ${PAPER}`, PAPER_NEG, 'papercut shadow box style'),
  photographic: s('photograph of {prompt}, 35mm, natural lighting, sharp focus, detailed', PHOTO_NEG, 'photographic style'),
  'pixel-art': s('pixel art of {prompt}, low resolution, retro 8-bit sprite, limited palette', 'smooth, photorealistic, blurry', 'pixel art style'),
  Pointillism: s('pointillism painting of {prompt}, made of small dots of colour', 'smooth gradients, photo', 'pointillism style'),
  'Pop Art': s('pop art of {prompt}, bold flat colours, halftone dots, graphic', 'muted, realistic, photo', 'pop art style'),
  Psychedelic: s('psychedelic art of {prompt}, swirling vivid colours, trippy patterns', 'muted, monochrome, dull', 'psychedelic style'),
  'Real Estate': s('real estate photo of {prompt}, bright inviting interior, wide angle', 'dark, cluttered, distorted', 'real estate photography style'),
  Renaissance: s('renaissance painting of {prompt}, classical composition, oil on canvas, chiaroscuro', 'modern, digital, photo', 'renaissance painting style'),
  'Retro Arcade': s('retro arcade game art of {prompt}, 8-bit, neon, 1980s arcade', 'modern, photorealistic', 'retro arcade style'),
  'Retro Game': s('retro video game art of {prompt}, 16-bit, pixelated, classic console graphics', 'modern, photorealistic', 'retro video game style'),
  'RPG Fantasy Game': s('RPG fantasy game art of {prompt}, heroic, epic, detailed game illustration', 'photo, modern setting', 'RPG fantasy game style'),
  Silhouette: s('silhouette of {prompt}, backlit, dark shapes against a bright sky, high contrast', 'front lighting, detailed faces', 'silhouette style'),
  Space: s('{prompt} in outer space, stars, nebula, cosmic scale', 'earthly, indoor, daylight sky', 'set in outer space'),
  'Stacked Papercut': s(`stacked papercut art of {prompt}, many layers, ${PAPER}`, PAPER_NEG, 'stacked papercut style'),
  'Stained Glass': s('stained glass window of {prompt}, coloured glass pieces, lead lines, backlit, vibrant', 'photo, smooth gradients', 'stained glass style'),
  Steampunk: s('steampunk {prompt}, brass and copper machinery, Victorian gears', 'modern, minimal, digital', 'steampunk style'),
  'Strategy Game': s('strategy game art of {prompt}, top-down view, detailed map-like scene', 'close-up portrait, photo', 'strategy game style'),
  Surrealist: s('surrealist painting of {prompt}, dreamlike, impossible scene', 'ordinary, realistic photo', 'surrealist style'),
  'Techwear Fashion': s('techwear fashion {prompt}, functional futuristic clothing, urban, sleek', 'vintage, rustic, formal', 'techwear fashion style'),
  'Thick Layered Papercut': s(`thick layered papercut art of {prompt}, deep paper layers, ${PAPER}`, PAPER_NEG, 'thick layered papercut style'),
  'tile-texture': s('{prompt} as a seamless tiling texture, repeating pattern, flat', 'perspective, objects, borders, vignette', 'seamless tile texture'),
  'Tilt-Shift': s('tilt-shift photo of {prompt}, miniature effect, selective focus', 'everything in focus, flat, drawing', 'tilt-shift miniature style'),
  Tribal: s('tribal art of {prompt}, indigenous patterns, bold symbolic shapes', 'modern, photorealistic', 'tribal art style'),
  Typography: s('typographic design of {prompt}, letterforms, bold type, graphic layout', 'photo, cluttered', 'typographic style'),
  Watercolor: s('watercolor painting of {prompt}, soft washes of colour, paper texture', 'photo, photorealistic, sharp, digital', 'watercolor style'),
  Zentangle: s('zentangle of {prompt}, intricate black ink patterns, meditative doodle art', 'photo, colour, blurry', 'zentangle style'),
};

/** The prompt in the preset's template; a blank prompt becomes the phrase and the detail words. */
function styledPrompt(style: Style, prompt: string): string {
  // A function replacement: a `$` in the prompt must stay a `$`.
  if (prompt.trim() !== '') return style.template.replace('{prompt}', () => prompt);
  // "pixel art of" with nothing after it reads as noise; the phrase says the same on its own.
  const comma = style.template.indexOf(', ', style.template.indexOf('{prompt}'));
  return comma < 0 ? style.phrase : `${style.phrase}${style.template.slice(comma)}`;
}

/** The prompt and negative prompt with the preset's words around and after them. */
export function applyStyle(preset: StylePreset, prompt: string, negative: string): { prompt: string; negative: string } {
  if (preset === 'base') return { prompt, negative };
  const style = STYLES[preset];
  return {
    prompt: styledPrompt(style, prompt),
    negative: [negative, style.negative].filter((part) => part.trim() !== '').join(', '),
  };
}
