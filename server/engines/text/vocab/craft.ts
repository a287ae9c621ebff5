/**
 * Phrase banks for how an image is made: composition, rendering style, lens and finish.
 * Compositions are noun phrases without their article (templates add one in prose); `{head}`
 * stands for the main noun of the subject ("cabin").
 */
import { bank, type StylePhrase } from './bank';

export const COMPOSITIONS = bank([
  ['wide establishing shot with the {head} in the lower third', 'rustic architecture coast mountain winter'],
  ['wide shot, the {head} small against the vast landscape', 'mountain desert epic space coast'],
  ['eye-level medium shot', 'portrait animal'],
  ['tight close-up, eyes in sharp focus', 'portrait animal'],
  ['three-quarter view', 'portrait product'],
  ['low-angle view looking up at the {head}', 'epic architecture fantasy'],
  ['aerial view from high above', 'urban coast desert forest'],
  ['symmetrical, centred composition', 'architecture product minimal'],
  ['view framed by snow-covered branches', 'winter forest'],
  ['view framed by overhanging pine boughs', 'forest rustic'],
  ['view from across a frozen clearing', 'winter forest rustic'],
  ['overhead flat lay', 'food product'],
  ['close shot with shallow depth of field and creamy bokeh', 'portrait animal food product botanical'],
  ['street-level view down a long perspective', 'urban'],
  ['silhouette against the sky', 'dusk dawn epic coast'],
  ['layered composition with clear foreground, midground and background', 'mountain forest water'],
  ['dutch angle that adds tension', 'dark scifi'],
  ['view through the open doorway', 'interior cozy'],
  ['mirror reflection in still water', 'water calm'],
  ['generous negative space around the {head}', 'minimal calm product'],
  ['sweeping panoramic view', 'mountain coast desert epic'],
  ['over-the-shoulder perspective', 'portrait fantasy'],
  ['rule-of-thirds framing with natural leading lines', ''],
  ['balanced composition with a clear focal point', ''],
]);

const styles = (rows: readonly (readonly [string, boolean, string])[]): readonly StylePhrase[] =>
  rows.map(([text, photo, tags]) => ({ text, photo, tags: tags.split(' ').filter(Boolean) }));

export const STYLES = styles([
  ['cinematic photography', true, 'photo cinematic any'],
  ['fine-art landscape photography', true, 'photo mountain coast forest winter desert water calm any'],
  ['editorial portrait photography', true, 'photo portrait'],
  ['wildlife photography', true, 'photo animal'],
  ['food photography', true, 'photo food'],
  ['commercial product photography', true, 'photo product'],
  ['architectural photography', true, 'photo architecture interior'],
  ['street photography', true, 'photo urban'],
  ['analog film photograph on Kodak Portra 400', true, 'photo vintage cozy'],
  ['black-and-white photograph with a rich tonal range', true, 'noir'],
  ['astrophotography', true, 'photo space night'],
  ['moody film still', true, 'cinematic dark rain'],
  ['digital painting with painterly brushwork', false, 'fantasy oil any'],
  ['matte painting', false, 'fantasy epic space oil'],
  ['loose watercolor illustration', false, 'watercolor botanical whimsical'],
  ['oil painting with thick impasto', false, 'oil vintage'],
  ['storybook illustration', false, 'whimsical fantasy animal'],
  ['anime key visual', false, 'anime'],
  ['hand-painted anime background art', false, 'anime whimsical'],
  ['detailed pixel art', false, 'pixel'],
  ['3D render with soft global illumination', false, 'render3d product'],
  ['concept art', false, 'scifi fantasy'],
  ['charcoal sketch', false, 'sketch'],
  ['pencil drawing with fine cross-hatching', false, 'sketch'],
  ['ink line drawing', false, 'ink'],
  ['impressionist painting', false, 'impressionist botanical'],
  ['art nouveau poster', false, 'vintage botanical'],
  ['ukiyo-e woodblock print', false, 'ukiyo'],
  ['low-poly 3D illustration', false, 'lowpoly'],
  ['layered papercut diorama', false, 'papercraft'],
  ['comic book art with bold inks', false, 'comic'],
  ['gothic oil painting', false, 'dark'],
  ['synthwave illustration', false, 'scifi'],
  ['minimalist flat vector illustration', false, 'minimal'],
]);

/** Lenses and camera settings, offered only with a photographic style. */
export const LENSES = bank([
  ['35mm lens at f/2.8', 'rustic urban winter forest'],
  ['24mm wide-angle lens', 'mountain architecture interior coast desert'],
  ['85mm lens at f/1.8', 'portrait'],
  ['50mm lens at f/4', 'food interior'],
  ['100mm macro lens', 'botanical food product'],
  ['200mm telephoto lens', 'animal mountain'],
  ['14mm ultra-wide lens', 'space architecture epic'],
  ['tilt-shift lens', 'urban whimsical'],
  ['anamorphic lens with subtle flares', 'cinematic scifi urban night'],
  ['long exposure on a tripod', 'night water space rain coast'],
  ['50mm lens for a natural perspective', ''],
]);

/** Finishing terms; photographic ones go with photographic styles. */
export const PHOTO_FINISH = bank([
  ['sharp focus', ''],
  ['fine detail', ''],
  ['high dynamic range', 'mountain coast architecture space'],
  ['subtle film grain', 'vintage cinematic dark'],
  ['crisp textures', 'product food'],
  ['natural skin texture', 'portrait'],
]);

export const ART_FINISH = bank([
  ['intricate detail', ''],
  ['rich textures', ''],
  ['soft colour bleeding on textured paper', 'watercolor'],
  ['clean, confident linework', 'ink comic anime minimal'],
  ['visible brushstrokes', 'oil impressionist'],
  ['crisp pixel edges and a limited palette', 'pixel'],
]);
