/**
 * Things the engine can list ("list three colours"). Colours carry a note and topic tags so they
 * fit the scene; the other categories are plain names.
 */
import { notedBank } from './bank';

export const COLOURS = notedBank([
  ['ember orange', 'the glow of firelight seen through glass', 'cozy dusk night rustic winter autumn'],
  ['midnight blue', 'the deep sky just after dusk', 'night dusk winter space'],
  ['frost white', 'fresh snow catching the last light', 'winter'],
  ['pine green', 'dark evergreens standing against the snow', 'forest winter rustic'],
  ['smoky lavender', 'the haze of twilight along the horizon', 'dusk calm winter'],
  ['weathered brown', 'old timber walls and bark', 'rustic forest autumn'],
  ['burnt sienna', 'sunbaked earth and rust', 'desert autumn vintage'],
  ['golden ochre', 'late afternoon light on stone', 'dusk desert autumn architecture'],
  ['sea-glass green', 'shallow water over pale sand', 'coast summer calm water'],
  ['storm grey', 'heavy clouds rolling in from the sea', 'rain coast dark'],
  ['neon magenta', 'signs buzzing in the rain', 'scifi urban night'],
  ['electric cyan', 'holograms and glowing screens', 'scifi urban night'],
  ['blush pink', 'cherry blossoms and soft dawn light', 'spring dawn botanical whimsical'],
  ['emerald', 'lush leaves and moss', 'forest botanical summer fantasy'],
  ['crimson', 'banners, dragons and drama', 'fantasy epic dark'],
  ['antique gold', 'candlelight on brass and gilt frames', 'fantasy vintage interior cozy'],
  ['charcoal black', 'deep shadows that let the highlights sing', 'dark noir'],
  ['cream', 'soft fabric, paper and steamed milk', 'cozy food interior vintage'],
  ['terracotta', 'sun-warmed clay and tiles', 'desert architecture food summer'],
  ['sky blue', 'a clear, open sky', 'day summer bright'],
  ['sunflower yellow', 'cheerful highlights that lift the scene', 'summer bright whimsical botanical'],
  ['violet', 'nebulae and late dusk skies', 'space dusk fantasy'],
  ['slate blue', 'cold stone and winter water', 'winter water mountain'],
  ['copper', 'autumn leaves and warm metal', 'autumn vintage'],
  ['rose', 'warm skin tones and petals', 'portrait botanical'],
  ['ivory', 'soft highlights that keep the image calm', ''],
  ['deep teal', 'rich shadows with a cool depth', ''],
  ['warm grey', 'a quiet neutral that ties the palette together', ''],
]);

/** Plain categories, keyed by every spelling people use for them. */
const CATEGORY_ITEMS: Readonly<Record<string, readonly string[]>> = {
  fruits: ['apple', 'pear', 'fig', 'pomegranate', 'blood orange', 'plum', 'cherry', 'mango', 'lemon', 'quince'],
  animals: ['red fox', 'snowy owl', 'grey wolf', 'red deer', 'brown bear', 'hare', 'lynx', 'otter', 'heron', 'badger'],
  birds: ['snowy owl', 'kingfisher', 'raven', 'heron', 'robin', 'barn swallow', 'peregrine falcon', 'puffin'],
  flowers: ['peony', 'foxglove', 'iris', 'camellia', 'poppy', 'lavender', 'ranunculus', 'anemone', 'hellebore'],
  trees: ['Scots pine', 'silver birch', 'Japanese maple', 'weeping willow', 'oak', 'cedar of Lebanon', 'aspen'],
  gemstones: ['sapphire', 'emerald', 'garnet', 'opal', 'amethyst', 'labradorite', 'moonstone', 'topaz'],
  materials: ['weathered oak', 'brushed brass', 'raw linen', 'hand-thrown ceramic', 'frosted glass', 'slate', 'copper'],
  textures: ['rough bark', 'crackled glaze', 'hammered metal', 'soft felt', 'wet stone', 'peeling paint', 'woven rattan'],
  fabrics: ['linen', 'velvet', 'wool tweed', 'silk', 'corduroy', 'denim', 'chunky knit'],
  metals: ['brass', 'copper', 'pewter', 'gold leaf', 'oxidised bronze', 'blackened steel', 'silver'],
  weather: ['light snowfall', 'morning fog', 'summer thunderstorm', 'drizzle', 'clear frosty sky', 'hazy heat'],
  seasons: ['spring', 'summer', 'autumn', 'winter'],
  'times of day': ['dawn', 'golden hour', 'high noon', 'blue hour', 'dusk', 'midnight'],
  shapes: ['circle', 'triangle', 'spiral', 'hexagon', 'crescent', 'arch', 'zigzag'],
  instruments: ['cello', 'upright piano', 'acoustic guitar', 'harp', 'clarinet', 'violin', 'hand drum'],
  herbs: ['rosemary', 'thyme', 'sage', 'basil', 'mint', 'dill', 'tarragon'],
  spices: ['saffron', 'star anise', 'cinnamon', 'cardamom', 'smoked paprika', 'black pepper', 'clove'],
  landscapes: ['alpine valley', 'rocky coastline', 'desert canyon', 'misty fjord', 'rolling meadows', 'volcanic plain'],
  places: ['a lighthouse on a rocky point', 'a rooftop garden', 'a night market', 'an abandoned greenhouse',
    'a mountain monastery', 'a flooded cathedral', 'a snowbound railway station'],
  characters: ['a weathered lighthouse keeper', 'a young cartographer', 'a retired astronaut', 'a street musician',
    'a wandering knight', 'a botanist in her greenhouse', 'a night-shift baker'],
  vehicles: ['vintage motorcycle', 'steam locomotive', 'sailboat', 'hot-air balloon', 'classic roadster', 'tram'],
  adjectives: ['luminous', 'weathered', 'hushed', 'intricate', 'windswept', 'velvety', 'gleaming', 'ancient'],
};

const ALIASES: Readonly<Record<string, string>> = {
  fruit: 'fruits', animal: 'animals', bird: 'birds', flower: 'flowers', tree: 'trees', gems: 'gemstones',
  gemstone: 'gemstones', gem: 'gemstones', stones: 'gemstones', material: 'materials', texture: 'textures',
  fabric: 'fabrics', metal: 'metals', season: 'seasons', 'time of day': 'times of day', shape: 'shapes',
  instrument: 'instruments', 'musical instruments': 'instruments', herb: 'herbs', spice: 'spices',
  landscape: 'landscapes', place: 'places', locations: 'places', location: 'places', settings: 'places',
  setting: 'places', character: 'characters', people: 'characters', vehicle: 'vehicles', adjective: 'adjectives',
  words: 'adjectives',
};

/** Items of a plain category by any of its spellings, or undefined when the engine has none. */
export function categoryItems(name: string): readonly string[] | undefined {
  const key = name.toLowerCase().trim();
  return CATEGORY_ITEMS[key] ?? CATEGORY_ITEMS[ALIASES[key] ?? ''];
}
