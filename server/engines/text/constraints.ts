/**
 * Instructions about the form of the answer ("answer in one line", "comma-separated keywords",
 * "no more than 30 words"), read from system and user messages. A later message overrides an
 * earlier one on the same point.
 */

export type Length = 'short' | 'normal' | 'long';

export interface Format {
  oneLine: boolean;
  keywords: boolean;
  /** At most this many words in the answer. */
  wordLimit?: number;
  /** Exactly this many sentences, for prose answers. */
  sentences?: number;
  /** Only the answer itself: no lead-in line before a list. */
  bare: boolean;
  lowercase: boolean;
  uppercase: boolean;
  bullets: boolean;
  length: Length;
}

export function defaultFormat(): Format {
  return { oneLine: false, keywords: false, bare: false, lowercase: false, uppercase: false, bullets: false, length: 'normal' };
}

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, a: 1, single: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70,
  eighty: 80, ninety: 90, hundred: 100, 'a few': 3, 'a couple of': 2, several: 5,
};

/** A number written in digits or words ("12", "twelve", "a few"); undefined when it is neither. */
export function parseNumber(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const t = text.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  return NUMBER_WORDS[t];
}

const NUM = '(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)';
const WORD_LIMITS: readonly [RegExp, number][] = [
  [new RegExp(`\\b(?:no more than|at most|max(?:imum)?(?: of)?|up to|not exceeding|within|limit(?:ed)? to|keep it to|stay under|stay within)\\s+${NUM}\\s+words?`, 'i'), 0],
  [new RegExp(`\\b(?:under|fewer than|less than|below)\\s+${NUM}\\s+words?`, 'i'), -1],
  [new RegExp(`\\b${NUM}\\s+words?\\s+(?:or fewer|or less|max(?:imum)?|at most|tops)`, 'i'), 0],
  [new RegExp(`\\b(?:in|using|with|exactly)\\s+${NUM}\\s+words?\\b`, 'i'), 0],
  [new RegExp(`\\b${NUM}[- ]word\\b`, 'i'), 0],
];

const ANSWER_NOUN = '(?:prompts?|descriptions?|answers?|versions?|texts?|ones?|lists?|paragraphs?|replies|reply|responses?)';
const SHORT = new RegExp(`\\b(?:shorter|briefer|brief|concise|succinct|terse|less detail(?:ed)?|tighter|short ${ANSWER_NOUN}|keep it short|make it short)\\b`);
const LONG = new RegExp(`\\b(?:longer|detailed|more detail(?:ed)?|in detail|expand(?:ed)?|elaborate|richer|more descriptive|extensive|thorough|long ${ANSWER_NOUN})\\b`);

/** Applies the form instructions found in `text` on top of `format`. */
export function readFormat(text: string, format: Format): Format {
  const t = text.toLowerCase();
  const f = { ...format };
  if (/\b(?:one|single|1)[- ]line\b|\bone-liner\b|\bon a single line\b|\bno (?:line ?breaks|newlines)\b/.test(t)) f.oneLine = true;
  if (/comma[- ]separated|\bkeywords?\b(?! (?:for|about))|\btags\b|\btag list\b|\bkeyword[- ]style\b/.test(t)
    && !/\bnot? (?:as )?(?:comma[- ]separated|keywords?|tags)\b/.test(t)) f.keywords = true;
  if (/\b(?:full|complete|natural|flowing) sentences?\b|\bnot? (?:as )?(?:comma[- ]separated|keywords?|tags)\b/.test(t)) f.keywords = false;
  for (const [re, adjust] of WORD_LIMITS) {
    const n = parseNumber(re.exec(t)?.[1]);
    if (n !== undefined && n > 0) {
      f.wordLimit = Math.max(1, n + adjust);
      break;
    }
  }
  const sentences = parseNumber(new RegExp(`\\b(?:in|with|using|exactly|just|only)?\\s*${NUM.replace('(\\d+|', '(\\d+|a|single|')}\\s+sentences?\\b`, 'i').exec(t)?.[1]);
  if (sentences !== undefined && sentences > 0) f.sentences = Math.min(sentences, 20);
  if (/\b(?:only|just) (?:give |output |return |reply with |respond with |write )?(?:me )?(?:the |a )?(?:prompt|keywords|text|answer|result|list|negative prompt)\b|\bno (?:preamble|intro(?:duction)?|explanations?|commentary|extra text|chit-?chat)\b|\bnothing else\b|\bwithout (?:any )?(?:explanation|commentary|preamble)\b|\b(?:output|respond|reply|return) (?:with )?only\b/.test(t)) f.bare = true;
  if (/\blower ?case\b/.test(t)) { f.lowercase = true; f.uppercase = false; }
  if (/\b(?:upper ?case|all caps|capital letters)\b/.test(t)) { f.uppercase = true; f.lowercase = false; }
  if (/\bbullet(?:s|ed| points?)?\b/.test(t)) f.bullets = true;
  if (SHORT.test(t)) f.length = 'short';
  if (LONG.test(t)) f.length = 'long';
  return f;
}
