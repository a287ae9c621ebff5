/**
 * An estimate of how many tokens the CLIP BPE tokenizer (the text encoder of SD 1.5 and SDXL)
 * makes of a text, without its 49,408-entry vocabulary.
 *
 * The first half is exact: the text is cleaned and lowercased as CLIP does, then split with CLIP's
 * own pre-tokenizer regex, so every digit, every punctuation run and every word is a separate piece
 * exactly where CLIP would cut. Only the second half, how many BPE pieces a word becomes, is
 * estimated:
 * - words of up to four letters, the common words of clip-words.ts and their regular inflections
 *   count one token ("lighthouse", "detailed", "clouds");
 * - a compound of a common word and another word counts two ("photo|realistic", "art|station");
 * - other words count the expected number of pieces for their length, learnt from CLIP's splits of
 *   rarer English words (most 6 to 10 letter rare words become two pieces: "jag|ged",
 *   "we|athered", "chur|ning") and of long nonsense words (about 3 letters per piece);
 * - non-Latin scripts count per character from their UTF-8 size (CJK and kana about 2, Cyrillic
 *   and Arabic about 1, Greek and Hebrew 2), emoji 1.
 *
 * How close: on the reference texts of tests/api/prompt.test.ts, whose true counts come from the
 * real tokenizer, a 79-token English prompt is estimated at 77 (-2.4%), a 146-token one (measured
 * apart) at 145, tag-style prompts, numbers, punctuation, emoji and Korean/Cyrillic/Arabic land
 * within a token, and the whole set is 1.7% under in total; romanised Japanese is the worst case
 * (-10%). The heuristics were tuned on those texts, so read this as a fit, not a held-out score. It
 * errs on rare inflections of common words ("weathered" is two pieces, counted one), on short rare
 * words ("jagged", "basalt": counted 1.1 to 1.5, truly 2), on rare words CLIP happens to hold whole
 * (counted about 1.5 to 2), and on non-Latin characters that fall apart into single bytes. The
 * estimate is fractional per word and rounded once per text so these errors do not pile up one way;
 * near a limit, it can be a token or two off either side.
 */
import { COMMON_WORDS } from './clip-words';

/** CLIP's pre-tokenizer (simple_tokenizer.py / HF CLIPTokenizer), on lowercased text. */
const PRETOKEN = /<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|\p{L}+|\p{N}|[^\s\p{L}\p{N}]+/gu;
const CONTRACTIONS = new Set(["'s", "'t", "'re", "'ve", "'m", "'ll", "'d"]);
const LETTER_START = /^\p{L}/u;
const NUMBER = /^\p{N}$/u;
const ASCII_WORD = /^[a-z]+$/;
const VOWEL = /[aeiouy]/;

let common: Set<string> | undefined;
function commonWords(): Set<string> {
  common ??= new Set(COMMON_WORDS.split(' '));
  return common;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const ENTITY = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]{2,4}));/gi;

function unescapeHtml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (whole, dec?: string, hex?: string, name?: string) => {
    const code = dec !== undefined ? Number(dec) : hex !== undefined ? parseInt(hex, 16) : undefined;
    if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return NAMED_ENTITIES[(name ?? '').toLowerCase()] ?? whole;
  });
}

/** CLIP's text cleaning: HTML entities undone (twice, as CLIP does), NFC, whitespace collapsed, lowercase. */
export function clipNormalize(text: string): string {
  return unescapeHtml(unescapeHtml(text)).normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The pieces CLIP's pre-tokenizer cuts a text into; each becomes one or more BPE tokens. */
export function clipPretokenize(text: string): string[] {
  return clipNormalize(text).match(PRETOKEN) ?? [];
}

/** Expected pieces of a word CLIP's vocabulary probably does not hold whole, by its length. */
function rareWordTokens(length: number): number {
  if (length <= 4) return 1;
  if (length === 5) return 1.2;
  if (length <= 7) return 1.5;
  if (length <= 10) return 1.8;
  return 1.8 + (length - 10) / 3;
}

/**
 * Stems a word could be an inflection of. `short` keeps to -s, -es, -ed and -ing, the endings
 * that reliably leave a short stem whole ("rocks", "bending"); with -er, -ly or -ness a three or
 * four letter remainder is as often a meaningless piece ("emb|ers").
 */
function stemsOf(word: string, short = false): string[] {
  const stems: string[] = [];
  const cut = (suffix: string, ...endings: string[]) => {
    if (word.length - suffix.length < 3 || !word.endsWith(suffix)) return;
    const stem = word.slice(0, -suffix.length);
    for (const ending of endings) stems.push(stem + ending);
    const last = stem[stem.length - 1];
    if (last !== undefined && last === stem[stem.length - 2]) stems.push(stem.slice(0, -1));
  };
  if (!word.endsWith('ss')) cut('s', '');
  cut('es', '');
  cut('ed', '', 'e');
  cut('ing', '', 'e');
  if (short) return stems;
  cut('ies', 'y');
  cut('ied', 'y');
  cut('er', '', 'e');
  cut('ers', '', 'e');
  cut('est', '', 'e');
  cut('ly', '', 'le');
  cut('ily', 'y');
  cut('y', '', 'e');
  cut('ness', '');
  return stems;
}

/** A word the vocabulary holds whole: listed, or a regular inflection of a listed word. */
function isCommon(word: string): boolean {
  const words = commonWords();
  return words.has(word) || stemsOf(word).some((stem) => words.has(stem));
}

/** A short word (3 or 4 letters) or an inflection of one: one token, but weak evidence on its own. */
function isShortWord(word: string): boolean {
  if (word.length >= 3 && word.length <= 4) return true;
  return word.length <= 7 && stemsOf(word, true).some((stem) => stem.length >= 3 && stem.length <= 4);
}

/** Two pieces when the word is a common word joined to another word ("photo|realistic"). */
function isCompound(word: string): boolean {
  if (word.length < 7 || word.length > 30) return false;
  for (let k = 3; k <= word.length - 3; k++) {
    const left = word.slice(0, k);
    const right = word.slice(k);
    const leftCommon = left.length >= 5 && isCommon(left);
    const rightCommon = right.length >= 5 && isCommon(right);
    if ((leftCommon && (rightCommon || isShortWord(right))) || (rightCommon && isShortWord(left))) return true;
  }
  return false;
}

function asciiWordTokens(word: string): number {
  if (word.length <= 4) return 1;
  if (commonWords().has(word)) return 1;
  if (isCommon(word)) return 1.1;
  if (isShortWord(word)) return 1.1;
  if (isCompound(word)) return 2;
  if (!VOWEL.test(word)) return word.length / 2.5;
  return rareWordTokens(word.length);
}

/** Tokens for one non-ASCII character, from its UTF-8 size and how well CLIP knows its script. */
function charTokens(code: number): number {
  if (code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)) return 0; // joiners and variation selectors merge
  if (code < 0x80) return 1;
  if (code < 0x800) {
    if (code <= 0x24f) return 1; // Latin-1 and Latin Extended
    if ((code >= 0x400 && code <= 0x4ff) || (code >= 0x600 && code <= 0x6ff)) return 1; // Cyrillic, Arabic
    return 2; // Greek, Hebrew, combining marks and other two-byte scripts split more
  }
  if (code === 0x2013 || code === 0x2014 || code === 0x2022 || code === 0x2026) return 1; // dashes, bullet, ellipsis
  if (code >= 0x2600 && code <= 0x27bf) return 1; // symbols and dingbats used as emoji (U+2764 heart)
  if (code >= 0xff00 && code <= 0xffef) return 3; // fullwidth forms fall apart into bytes
  if (code < 0x10000) return 2; // CJK, kana, Hangul, other three-byte characters
  if (code >= 0x1f000 && code <= 0x1faff) return 1; // emoji are mostly whole tokens
  return 3;
}

function mixedWordTokens(word: string): number {
  let total = 0;
  let ascii = 0;
  for (const ch of word) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x80) {
      ascii++;
      continue;
    }
    if (ascii > 0) total += rareWordTokens(ascii);
    ascii = 0;
    total += charTokens(code);
  }
  if (ascii > 0) total += rareWordTokens(ascii);
  return total;
}

function symbolRunTokens(run: string): number {
  let total = 0;
  let groups = 0;
  let groupLength = 0;
  let previous = '';
  let afterJoiner = false;
  for (const ch of run) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x80) {
      // An emoji joined to the one before it (ZWJ sequences) is often one token with it.
      total += afterJoiner && code >= 0x1f000 ? 0.5 : charTokens(code);
      afterJoiner = code === 0x200d || (afterJoiner && code >= 0xfe00 && code <= 0xfe0f);
      previous = '';
      continue;
    }
    afterJoiner = false;
    if (ch === previous) {
      groupLength++;
      if (groupLength % 16 === 1) total++; // "!!!!" is one token up to long runs
    } else {
      groups++;
      groupLength = 1;
    }
    previous = ch;
  }
  // Runs mixing punctuation ("^_^", ";),") split about every two characters.
  return total + Math.ceil(groups / 2);
}

/** Estimated BPE tokens of one pre-tokenizer piece; fractional where the split is uncertain. */
export function estimatePieceTokens(piece: string): number {
  if (piece === '<|startoftext|>' || piece === '<|endoftext|>' || CONTRACTIONS.has(piece)) return 1;
  if (NUMBER.test(piece)) return mixedWordTokens(piece);
  if (LETTER_START.test(piece)) return ASCII_WORD.test(piece) ? asciiWordTokens(piece) : mixedWordTokens(piece);
  return symbolRunTokens(piece);
}

/** Expected CLIP token count of a plain text (no weighting syntax), before rounding. */
export function estimateClipTokens(text: string): number {
  let total = 0;
  for (const piece of clipPretokenize(text)) total += estimatePieceTokens(piece);
  return total;
}

/** Estimated CLIP token count of a plain text, without the start and end tokens. */
export function countClipTokens(text: string): number {
  return Math.round(estimateClipTokens(text));
}
