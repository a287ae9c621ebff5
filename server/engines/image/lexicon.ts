/**
 * What words mean to the stand-in image engine: colours, light, mood, and the objects a scene is
 * built from. Words not listed here still shape the picture (prompt-field.ts hashes them into a
 * colour and, sometimes, a shape), so this table only has to get the common words right.
 */
import { hex, type RGB } from './color';

export type ObjectKind =
  | 'sun' | 'moon' | 'planet' | 'stars' | 'cloud' | 'mountain' | 'tree' | 'building' | 'house' | 'figure' | 'animal'
  | 'flower' | 'glow' | 'blob';

export interface WordTraits {
  /** A colour the word adds to the palette. */
  colour?: RGB;
  /** Pulls the sky (upper background) toward this colour. */
  sky?: RGB;
  /** Pulls the ground (lower background) toward this colour. */
  ground?: RGB;
  /** -1 dark (night) .. +1 bright (snow). */
  light?: number;
  /** -1 cool .. +1 warm. */
  warm?: number;
  /** -1 muted .. +1 vivid. */
  sat?: number;
  /** -1 flat (fog) .. +1 punchy. */
  contrast?: number;
  /** Preferred horizon height, 0 (top) .. 1 (bottom). */
  horizon?: number;
  /** The ground is water: waves and reflections. */
  water?: boolean;
  /** Removes the horizon: a close-up or an abstract field. */
  closeUp?: boolean;
  object?: ObjectKind;
  count?: number;
}

const table = new Map<string, WordTraits>();

function def(words: string, traits: WordTraits): void {
  for (const w of words.split(' ')) table.set(w, traits);
}

// Plain colour words: the palette, nothing else.
const COLOURS: [string, string][] = [
  ['red crimson scarlet', '#d42a2a'], ['ruby cherry', '#b0103a'], ['maroon burgundy wine', '#6e1423'],
  ['orange tangerine', '#f07a1a'], ['amber', '#f2a31b'], ['yellow lemon', '#f5d622'], ['gold golden', '#d9a521'],
  ['green', '#2f9e44'], ['emerald jade', '#1f8f5f'], ['lime', '#8fd13f'], ['olive', '#7a7d2a'], ['mint', '#8fe0b8'],
  ['blue', '#2d5fd0'], ['azure', '#3a8ee6'], ['navy', '#172a6b'], ['cyan aqua', '#2ec4d6'], ['teal turquoise', '#1e9c9c'],
  ['cobalt sapphire', '#1d45a8'], ['indigo', '#3b2a8f'], ['purple', '#7b3fb0'], ['violet lavender lilac', '#a27ad8'],
  ['magenta fuchsia', '#d8349b'], ['pink rose', '#f08cb4'], ['peach apricot', '#f7b08a'], ['coral salmon', '#f0765f'],
  ['brown chocolate', '#6b4226'], ['tan beige khaki', '#cdb48a'], ['ochre rust copper bronze', '#b0622c'],
  ['white ivory', '#f4f4f0'], ['cream', '#f3e6c4'], ['black ebony', '#141414'], ['grey gray', '#808080'],
  ['silver chrome metallic', '#b8bec6'], ['charcoal', '#3a3a3e'],
];
for (const [words, code] of COLOURS) def(words, { colour: hex(code) });

// Time of day and light.
def('sunset dusk', { colour: hex('#f26b3a'), sky: hex('#f59a4a'), ground: hex('#5a3340'), light: -0.15, warm: 0.9, sat: 0.5, horizon: 0.62, object: 'sun' });
def('sunrise dawn', { colour: hex('#f7a46b'), sky: hex('#f9c28a'), ground: hex('#4d5a6e'), light: 0.1, warm: 0.6, sat: 0.3, horizon: 0.64, object: 'sun' });
def('golden_hour', { colour: hex('#f0b04a'), sky: hex('#f6c26b'), warm: 0.8, light: 0.1 });
def('noon day daylight sunny', { sky: hex('#79b4ec'), light: 0.35, warm: 0.2, sat: 0.2, object: 'sun' });
def('sun', { colour: hex('#ffd24a'), warm: 0.4, light: 0.2, object: 'sun' });
def('night midnight', { colour: hex('#1a2245'), sky: hex('#0b1030'), ground: hex('#10142a'), light: -0.85, warm: -0.5, object: 'stars' });
def('moon moonlight lunar', { colour: hex('#d8dcf0'), sky: hex('#1a2550'), light: -0.5, warm: -0.4, object: 'moon' });
def('star stars starry', { sky: hex('#0e1238'), light: -0.6, object: 'stars' });
def('dark gloomy shadow shadows', { light: -0.6, contrast: 0.2, sat: -0.2 });
def('bright light sunlit luminous', { light: 0.5, contrast: 0.1 });
def('glow glowing lantern lamp candle candles fire fireplace', { colour: hex('#ffae42'), warm: 0.7, object: 'glow' });
def('neon cyberpunk', { colour: hex('#ff2fb0'), sky: hex('#1a0b3a'), light: -0.4, sat: 0.9, contrast: 0.5, object: 'glow' });
def('fog foggy mist misty haze hazy', { colour: hex('#c9ced3'), sky: hex('#c4c9cf'), sat: -0.6, contrast: -0.6, light: 0.15 });
def('rain rainy storm stormy thunder', { colour: hex('#5c6673'), sky: hex('#4a525e'), sat: -0.5, light: -0.3, warm: -0.3, object: 'cloud' });
def('cloud clouds cloudy overcast', { sky: hex('#aeb8c4'), sat: -0.2, object: 'cloud', count: 3 });
def('sky', { sky: hex('#6fa8e8'), horizon: 0.7 });

// Seasons and weather.
def('snow snowy winter ice icy frozen frost arctic', { colour: hex('#eef4fa'), ground: hex('#f2f6fb'), sky: hex('#cfdcea'), light: 0.75, warm: -0.6, sat: -0.3 });
def('autumn fall', { colour: hex('#d2691e'), ground: hex('#8a4b22'), warm: 0.6, sat: 0.3, object: 'tree' });
def('spring blossom cherry_blossom', { colour: hex('#f6b6cf'), ground: hex('#8cc96b'), light: 0.3, sat: 0.2, object: 'flower' });
def('summer tropical', { colour: hex('#2fb7c8'), sky: hex('#5fb0f0'), light: 0.4, warm: 0.4, sat: 0.5 });

// Places and landscapes.
def('ocean sea seascape waves wave surf underwater', { colour: hex('#1f6fb0'), ground: hex('#1c5f9a'), sky: hex('#8cc2ee'), warm: -0.7, horizon: 0.5, water: true });
def('lake river pond water reflection', { colour: hex('#3d86b8'), ground: hex('#3b7fae'), warm: -0.4, water: true });
def('beach shore coast', { colour: hex('#e8d3a2'), ground: hex('#e2cc98'), sky: hex('#8cc8f0'), light: 0.3, horizon: 0.55 });
def('forest woods jungle trees tree pine woodland', { colour: hex('#2e6b34'), ground: hex('#2c4f25'), warm: -0.1, object: 'tree', count: 5 });
def('grass meadow field fields prairie', { colour: hex('#6aa84f'), ground: hex('#5f9b45'), horizon: 0.58 });
def('garden flower flowers rose roses tulip tulips', { colour: hex('#e0457b'), ground: hex('#4f8a3a'), sat: 0.3, object: 'flower', count: 6 });
def('mountain mountains peak peaks alps alpine hills hill valley', { colour: hex('#5b6b82'), ground: hex('#4a5a3a'), horizon: 0.66, object: 'mountain' });
def('desert dune dunes sand sandy canyon', { colour: hex('#d9a55b'), ground: hex('#d39a52'), sky: hex('#9cc6e8'), warm: 0.6, light: 0.3, horizon: 0.55 });
def('volcano lava magma inferno', { colour: hex('#e0401a'), sky: hex('#3a1a14'), light: -0.3, warm: 1, sat: 0.6, object: 'glow' });
def('city cityscape skyline skyscraper skyscrapers downtown urban metropolis street', { colour: hex('#6d7684'), ground: hex('#3b3f46'), horizon: 0.7, object: 'building', count: 6 });
def('house cabin cottage hut barn home farmhouse', { colour: hex('#8a5a3c'), warm: 0.3, object: 'house' });
def('village town', { colour: hex('#9a6a4c'), warm: 0.2, object: 'house', count: 4 });
def('castle tower cathedral church temple palace', { colour: hex('#8d8a86'), object: 'building', count: 1 });
def('space galaxy nebula cosmos cosmic universe', { colour: hex('#5a2b8c'), sky: hex('#0a0820'), ground: hex('#0a0820'), light: -0.7, sat: 0.4, closeUp: true, object: 'stars' });
def('planet planets saturn jupiter mars exoplanet', { colour: hex('#b07a4a'), sky: hex('#0a0820'), light: -0.4, object: 'planet' });
def('cave underground dungeon', { colour: hex('#3a3430'), light: -0.6, warm: 0.1, closeUp: true, object: 'glow' });
def('room interior kitchen library bedroom cafe', { colour: hex('#b08a64'), warm: 0.4, closeUp: true });

// Subjects.
def('portrait face headshot selfie', { colour: hex('#d9a07c'), closeUp: true, object: 'figure' });
def('person man woman girl boy child character warrior knight wizard witch astronaut people', { colour: hex('#d9a07c'), object: 'figure' });
def('cat kitten dog puppy fox wolf bear horse deer lion tiger bird owl dragon animal creature', { colour: hex('#a8703e'), object: 'animal' });
def('robot mech android cyborg', { colour: hex('#9aa3ad'), object: 'figure', sat: -0.1 });
def('fruit apple food cake', { colour: hex('#d8432c'), closeUp: true, object: 'blob', count: 3 });

// Words prompt writers reach for (the local chat engine's among them).
def('twilight evening', { colour: hex('#8a6fb0'), sky: hex('#6d5a9e'), light: -0.3, warm: 0.1, horizon: 0.62 });
def('sunlight sunbeam sunbeams rays godrays', { colour: hex('#ffe08a'), light: 0.35, warm: 0.4, object: 'sun' });
def('firelight firelit torch torches bonfire campfire', { colour: hex('#ff9a3c'), light: -0.2, warm: 0.8, object: 'glow' });
def('streetlight streetlights lanterns lantern lamplight', { colour: hex('#ffc36b'), warm: 0.5, object: 'glow', count: 3 });
def('lightning thunderstorm', { colour: hex('#c8d0ff'), sky: hex('#2c3140'), light: -0.4, contrast: 0.6, object: 'cloud', count: 3 });
def('drizzle rainy wet puddle puddles', { colour: hex('#6f7b88'), sat: -0.3, light: -0.15, warm: -0.3 });
def('holographic hologram synthwave vaporwave', { colour: hex('#2ee6ff'), sky: hex('#2a0e4a'), sat: 0.8, light: -0.3, object: 'glow' });
def('magic magical arcane mystical enchanted spell', { colour: hex('#8f5cff'), sat: 0.4, object: 'glow' });
def('bioluminescent glowworm fireflies firefly', { colour: hex('#3cffc8'), light: -0.4, object: 'glow', count: 4 });
def('milky_way aurora', { colour: hex('#5fe0a8'), sky: hex('#0c1a33'), light: -0.6, object: 'stars' });
def('leaf leaves foliage canopy fern ferns moss mossy', { colour: hex('#4f8f3a'), ground: hex('#3d6b2c'), object: 'tree', count: 3 });
def('road alley pavement avenue', { colour: hex('#55585e'), ground: hex('#46484d'), object: 'building', count: 3 });
def('lighthouse windmill bridge ruins ruin', { colour: hex('#c9c2b4'), object: 'building' });
def('waterfall stream harbor harbour bay lagoon', { colour: hex('#4b9cc8'), ground: hex('#3f8fbd'), water: true });
def('island cliff cliffs rocks rocky', { colour: hex('#8b7d6b'), ground: hex('#7a6d5a'), horizon: 0.55, object: 'mountain' });
def('boat ship sailboat car train', { colour: hex('#a0522d'), object: 'blob' });
def('crystal crystals gem gems jewel', { colour: hex('#7fd4ff'), sat: 0.4, object: 'blob', count: 3 });

// Mood and rendering words.
def('vibrant colorful colourful vivid saturated rainbow', { sat: 0.8, contrast: 0.2 });
def('pastel soft gentle', { sat: -0.3, light: 0.35, contrast: -0.3 });
def('muted faded washed', { sat: -0.6, contrast: -0.3 });
def('vintage retro sepia old antique', { colour: hex('#b08a5a'), warm: 0.5, sat: -0.4 });
def('warm cozy cosy', { warm: 0.6 });
def('cold cool chilly', { warm: -0.6 });
def('dramatic epic cinematic moody', { contrast: 0.6, light: -0.2 });
def('calm serene peaceful tranquil', { contrast: -0.2, sat: -0.1 });
def('horror creepy eerie spooky haunted', { colour: hex('#3b0d0d'), light: -0.6, sat: -0.3, contrast: 0.4 });

/** English plurals and a few suffixes folded so 'mountains' and 'mountain' agree. */
function stem(word: string): string[] {
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s')) forms.push(word.slice(0, -1));
  return forms;
}

/** The traits of a lower-case word, or undefined for a word this table does not know. */
export function lookupWord(word: string): WordTraits | undefined {
  for (const form of stem(word)) {
    const traits = table.get(form);
    if (traits) return traits;
  }
  return undefined;
}

/** Two-word phrases that mean more together, joined with '_' before lookup. */
export const PHRASES = new Set(['golden_hour', 'cherry_blossom', 'milky_way']);
