/**
 * Topics: the words of a conversation that decide which phrases fit it. Phrase banks tag each
 * phrase with the topics it suits; a subject's topics come from the words below.
 */

/** Topic name to the words (lowercase, spaces for multi-word keys) that signal it. */
export const TOPIC_WORDS: Readonly<Record<string, readonly string[]>> = {
  winter: ['snow', 'snowy', 'snowfall', 'snowbound', 'winter', 'wintry', 'wintery', 'frost', 'frosty', 'frozen',
    'ice', 'icy', 'blizzard', 'christmas', 'sleigh', 'snowman', 'igloo', 'colder', 'icier', 'arctic', 'tundra'],
  autumn: ['autumn', 'autumnal', 'fall foliage', 'harvest', 'pumpkin', 'october', 'maple', 'fallen leaves'],
  spring: ['spring', 'springtime', 'blossom', 'cherry blossom', 'sakura', 'bloom', 'blooming', 'meadow', 'april'],
  summer: ['summer', 'summertime', 'sunny', 'heatwave', 'tropical', 'july'],
  dawn: ['dawn', 'sunrise', 'daybreak', 'morning', 'first light'],
  day: ['noon', 'midday', 'daylight', 'daytime', 'afternoon', 'sunlit'],
  dusk: ['dusk', 'sunset', 'twilight', 'evening', 'golden hour', 'blue hour', 'sundown', 'nightfall'],
  night: ['night', 'nighttime', 'midnight', 'moon', 'moonlit', 'moonlight', 'starry', 'stars', 'nocturnal'],
  cozy: ['cozy', 'cosy', 'cozier', 'cosier', 'warm', 'warmer', 'hearth', 'fireplace', 'snug', 'candle',
    'candlelit', 'homely', 'inviting', 'comfy', 'blanket'],
  rustic: ['cabin', 'cottage', 'barn', 'farmhouse', 'log', 'village', 'hut', 'farm', 'chalet', 'lodge',
    'rustic', 'homestead', 'shack', 'mill'],
  forest: ['wood', 'woods', 'forest', 'tree', 'trees', 'pine', 'pines', 'jungle', 'grove', 'woodland',
    'oak', 'birch', 'fir', 'redwood', 'rainforest', 'clearing'],
  mountain: ['mountain', 'mountains', 'peak', 'peaks', 'alpine', 'alps', 'cliff', 'valley', 'glacier',
    'hill', 'hills', 'ridge', 'summit', 'canyon', 'volcano', 'hiker', 'hiking'],
  coast: ['ocean', 'sea', 'beach', 'coast', 'coastal', 'lighthouse', 'harbor', 'harbour', 'wave', 'waves',
    'island', 'shore', 'pier', 'boat', 'ship', 'sailboat', 'seaside', 'surf', 'cove', 'bay', 'nautical'],
  water: ['lake', 'river', 'waterfall', 'pond', 'stream', 'creek', 'reflection', 'canal', 'fjord', 'lagoon'],
  rain: ['rain', 'rainy', 'storm', 'stormy', 'thunder', 'thunderstorm', 'lightning', 'wet', 'fog', 'foggy',
    'mist', 'misty', 'drizzle', 'overcast', 'cloudy', 'downpour'],
  urban: ['city', 'street', 'streets', 'alley', 'downtown', 'skyline', 'rooftop', 'cafe', 'café', 'subway',
    'tokyo', 'new york', 'paris', 'london', 'market', 'metropolis', 'urban', 'traffic', 'neon', 'taxi'],
  scifi: ['cyberpunk', 'robot', 'robots', 'android', 'cyborg', 'spaceship', 'starship', 'futuristic', 'sci fi',
    'scifi', 'mech', 'hologram', 'holographic', 'dystopian', 'laser', 'neon', 'ai', 'circuit'],
  space: ['space', 'planet', 'planets', 'galaxy', 'nebula', 'astronaut', 'cosmos', 'cosmic', 'orbit',
    'asteroid', 'spacecraft', 'mars', 'saturn', 'milky way', 'outer space', 'universe'],
  fantasy: ['dragon', 'dragons', 'castle', 'wizard', 'witch', 'elf', 'elves', 'knight', 'magic', 'magical',
    'fairy', 'enchanted', 'sorceress', 'kingdom', 'quest', 'mythical', 'unicorn', 'spell', 'dwarf', 'fae',
    'sword', 'medieval', 'rune', 'runes', 'potion'],
  dark: ['horror', 'haunted', 'spooky', 'spookier', 'creepy', 'creepier', 'gothic', 'ghost', 'abandoned',
    'ruins', 'dark', 'darker', 'sinister', 'skull', 'graveyard', 'cemetery', 'eerie', 'gloomy', 'gloomier',
    'moody', 'moodier', 'ominous', 'grim', 'vampire', 'zombie', 'brooding', 'noir'],
  bright: ['bright', 'brighter', 'cheerful', 'happy', 'happier', 'joyful', 'vibrant', 'colorful', 'colourful',
    'sunnier', 'lively', 'playful', 'uplifting'],
  portrait: ['portrait', 'face', 'woman', 'man', 'girl', 'boy', 'child', 'person', 'people', 'fisherman',
    'warrior', 'headshot', 'character', 'lady', 'gentleman', 'elderly', 'grandmother', 'grandfather', 'model',
    'dancer', 'musician', 'chef', 'sailor', 'soldier', 'queen', 'king', 'princess', 'prince', 'farmer'],
  animal: ['cat', 'cats', 'dog', 'dogs', 'fox', 'owl', 'wolf', 'wolves', 'bird', 'birds', 'horse', 'deer',
    'bear', 'lion', 'tiger', 'rabbit', 'bunny', 'animal', 'animals', 'kitten', 'puppy', 'elephant', 'whale',
    'eagle', 'raven', 'crow', 'squirrel', 'hedgehog', 'panda', 'koala', 'butterfly', 'frog', 'moose', 'elk'],
  food: ['food', 'dish', 'cake', 'coffee', 'breakfast', 'sushi', 'pizza', 'bread', 'dessert', 'fruit',
    'soup', 'pasta', 'burger', 'salad', 'cocktail', 'wine', 'meal', 'dinner', 'lunch', 'pastry', 'croissant',
    'ramen', 'noodles', 'chocolate', 'tea', 'bakery', 'kitchen'],
  interior: ['room', 'kitchen', 'library', 'bedroom', 'interior', 'living room', 'studio', 'inside',
    'indoors', 'hallway', 'attic', 'workshop', 'office', 'bookshop', 'bookstore', 'loft'],
  product: ['product', 'bottle', 'watch', 'sneaker', 'sneakers', 'perfume', 'packaging', 'phone',
    'jewelry', 'jewellery', 'headphones', 'cosmetics', 'advert', 'advertisement', 'ad', 'mockup'],
  architecture: ['building', 'tower', 'cathedral', 'temple', 'bridge', 'house', 'architecture', 'skyscraper',
    'palace', 'church', 'mansion', 'villa', 'monastery', 'pagoda', 'facade', 'museum'],
  desert: ['desert', 'dune', 'dunes', 'sand', 'sandy', 'oasis', 'mesa', 'cactus', 'sahara', 'arid'],
  botanical: ['flower', 'flowers', 'garden', 'rose', 'roses', 'plant', 'plants', 'greenhouse', 'botanical',
    'tulip', 'tulips', 'orchid', 'lavender', 'sunflower', 'sunflowers', 'wildflowers', 'petals', 'bouquet'],
  vintage: ['vintage', 'retro', 'victorian', 'antique', 'old fashioned', '1950s', '1920s', '1970s',
    '1980s', 'nostalgic', 'steampunk', 'sepia'],
  calm: ['calm', 'calmer', 'peaceful', 'serene', 'quiet', 'quieter', 'tranquil', 'still', 'gentle',
    'relaxing', 'meditative', 'soft', 'softer', 'dreamy', 'lonely', 'solitary'],
  epic: ['epic', 'vast', 'huge', 'giant', 'colossal', 'battle', 'heroic', 'majestic', 'grand', 'grander',
    'dramatic', 'towering', 'massive', 'legendary'],
  whimsical: ['cute', 'cuter', 'whimsical', 'cartoon', 'kawaii', 'toy', 'childrens', 'storybook', 'adorable',
    'chibi', 'fairytale', 'funny', 'silly'],
  photo: ['photo', 'photograph', 'photography', 'photorealistic', 'realistic', 'hyperrealistic', 'dslr',
    'camera', 'realism', 'lifelike'],
  cinematic: ['cinematic', 'film still', 'movie', 'movie still', 'widescreen', 'blockbuster'],
  watercolor: ['watercolor', 'watercolour', 'aquarelle', 'gouache'],
  oil: ['oil painting', 'oil', 'oils', 'impasto', 'canvas', 'painterly', 'painting', 'painted'],
  anime: ['anime', 'manga', 'ghibli', 'cel shaded', 'cel shading'],
  pixel: ['pixel', 'pixel art', '8 bit', '16 bit', 'sprite'],
  render3d: ['3d', '3d render', 'render', 'blender', 'octane', 'unreal engine', 'cgi', 'claymation', 'clay'],
  sketch: ['sketch', 'pencil', 'charcoal', 'graphite', 'drawing'],
  ink: ['ink', 'line art', 'lineart', 'linework', 'pen and ink'],
  impressionist: ['impressionist', 'impressionism', 'monet', 'plein air'],
  noir: ['black and white', 'monochrome', 'film noir', 'b w', 'grayscale', 'greyscale'],
  minimal: ['minimal', 'minimalist', 'minimalism', 'flat', 'vector', 'simple', 'simpler', 'clean'],
  papercraft: ['paper', 'papercut', 'origami', 'kirigami', 'papercraft', 'paper craft'],
  comic: ['comic', 'comic book', 'graphic novel', 'pop art'],
  ukiyo: ['ukiyo e', 'woodblock', 'woodcut'],
  lowpoly: ['low poly', 'lowpoly', 'isometric'],
};

/** Topics that name a rendering style: a match forces the style slot rather than nudging it. */
export const STYLE_TOPICS: ReadonlySet<string> = new Set([
  'photo', 'cinematic', 'watercolor', 'oil', 'anime', 'pixel', 'render3d', 'sketch', 'ink', 'impressionist',
  'noir', 'minimal', 'papercraft', 'comic', 'ukiyo', 'lowpoly',
]);

/** Groups of mutually exclusive topics: a phrase for dawn does not suit a scene at dusk. */
export const CONFLICT_GROUPS: readonly (readonly string[])[] = [
  ['dawn', 'day', 'dusk', 'night'],
  ['winter', 'spring', 'summer', 'autumn'],
  ['bright', 'dark'],
];

/** Topics that change how a scene looks rather than what is in it: time, season, tone, style. */
export const MODIFIER_TOPICS: ReadonlySet<string> = new Set([...CONFLICT_GROUPS.flat(), ...STYLE_TOPICS,
  'dark', 'bright', 'calm', 'epic', 'cozy', 'whimsical', 'vintage', 'rain']);

const singleWords = new Map<string, string[]>();
const multiWords: [string, string][] = [];
for (const [topic, words] of Object.entries(TOPIC_WORDS)) {
  for (const w of words) {
    if (w.includes(' ')) multiWords.push([` ${w} `, topic]);
    else singleWords.set(w, [...(singleWords.get(w) ?? []), topic]);
  }
}

/** Lowercase words of a text, punctuation and hyphens read as spaces. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().replace(/['’]s\b/g, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

function topicsOfWord(word: string): readonly string[] {
  const direct = singleWords.get(word);
  if (direct) return direct;
  if (word.length > 3 && word.endsWith('s')) return singleWords.get(word.slice(0, -1)) ?? [];
  return [];
}

/** Topics a text speaks of, with how many of its words point to each. */
export function detectTopics(text: string): Map<string, number> {
  const found = new Map<string, number>();
  const words = wordsOf(text);
  const add = (t: string) => found.set(t, (found.get(t) ?? 0) + 1);
  for (const w of words) for (const t of topicsOfWord(w)) add(t);
  const joined = ` ${words.join(' ')} `;
  for (const [phrase, topic] of multiWords) if (joined.includes(phrase)) add(topic);
  return found;
}

/** Whether a word signals a topic of the given group (used to drop "snowy" when a scene turns summer). */
export function wordTopics(word: string): readonly string[] {
  return topicsOfWord(word.toLowerCase());
}
