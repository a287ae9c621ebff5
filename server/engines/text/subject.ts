/**
 * Finding what a message is about: "Could you write me a short prompt for a cozy cabin in the
 * snowy woods at dusk, in one line?" is about "a cozy cabin in the snowy woods at dusk". The
 * subject is kept in the user's own words; only the request around it is taken away.
 */
import { clipWords } from './format';
import { detectTopics, wordsOf } from './vocab/topics';

export interface Subject {
  /** The subject in the user's words, request and constraints removed. */
  readonly text: string;
  /** Its main noun ("cabin"), for phrases such as "the cabin in the lower third". */
  readonly head: string;
  /** Its parts as keywords: "cozy cabin", "snowy woods", "dusk". */
  readonly keywords: readonly string[];
}

const LEAD = /^(?:(?:please|pls|hey|hi|hello|ok|okay|now|so|and|also|then|great|nice|thanks|thank you|cool|perfect|alright|right|well|next)\b[\s,!.:;-]*)+/i;
const ASK = /^(?:(?:can|could|would|will) you(?: please)?|i(?:'d| would) (?:like|love)(?: you to)?|i (?:want|need)(?: you to)?|(?:please )?help me(?: to)?|let's|lets|i'm looking for|i am looking for)\s+/i;
const VERB = /^(?:write|create|make|generate|give|draft|compose|produce|come up with|craft|build|suggest|imagine|paint|draw|render|design|show|describe|depict|illustrate|prompt|list|brainstorm|tell me about|picture|envision|add|include)\b\s*(?:me|us)?\s*/i;
const QUANTITY = '(?:an?|the|one|some|another|\\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|several|more)';
const TASK_WORDS = '(?:short|long|detailed|vivid|good|great|simple|new|better|creative|single|quick|cool|nice|beautiful|stunning|evocative|rich|concise|brief|striking|different|fresh|stable diffusion|sdxl|sd|midjourney|image|text-to-image|art|visual|ai|positive|cinematic|photo|realistic|possible)';
const TASK_NOUN = '(?:prompts?|descriptions?|pictures?|images?|photos?|photographs?|illustrations?|paintings?|scenes?|renders?|ideas?|variations?|versions?|captions?|titles?|concepts?|artworks?|wallpapers?|drawings?|shots?|paragraphs?|stor(?:y|ies))';
const FRAME = new RegExp(`^(?:${QUANTITY}\\s+)?(?:${TASK_WORDS}[\\s,]+)*${TASK_NOUN}\\b\\s*(?:(?:of|for|about|showing|depicting|describing|with|featuring|that shows|where|on|based on)\\b\\s*)?[:\\-—]?\\s*`, 'i');
/** "Subject: a cabin" and "prompt: a cabin" name the subject; "Style: watercolor" does not. */
const SUBJECT_LABEL = /^(?:subject|scene|prompt|idea|topic|image|description|input|text|concept|theme)\s*:\s*/i;
const OTHER_LABEL = /^(?:style|mood|lighting|light|colou?rs?|palette|camera|lens|composition|format|tone|negative(?: prompt)?|aspect ratio|resolution|size|sampler|steps|seed|notes?)\s*:/i;
/** "Expand this into a prompt: knight, dragon" puts the subject after the colon. */
const INSTRUCTION_COLON = /^([^:\n]{0,160}?)\s*:\s*([^]+)$/;
const INSTRUCTION_WORDS = /\b(?:prompts?|describe|description|rewrite|expand|improve|turn|convert|subject|scene|idea|topic|image|picture|caption|title|sentences?|words?|keywords|negative|for|about|this|following)\b/i;
const SHOULD_SHOW = /^(?:it|this|the (?:image|picture|scene|prompt)) (?:should|must|will|needs to|has to) (?:show|be|have|feature|depict|include)\s+/i;
const TRAIL = /(?:^|(?:[,;:.]|\s-)?\s+)(?:(?:in|on|using|with|as) (?:one|a single|\d+|two|three|four|five) (?:lines?|sentences?|words?)|(?:in |using |with )?(?:no more than|at most|under|fewer than|less than|max(?:imum)?(?: of)?|up to|not exceeding) \d+ words?|as (?:a )?(?:comma[- ]separated|keywords?|tags?|list)|comma[- ]separated|keep it\b|make it (?:short|brief|concise)|(?:only|just) (?:the )?(?:prompt|keywords)|no (?:preamble|explanations?|commentary)|please|thanks?|thank you|for (?:sdxl|stable diffusion|an image model|midjourney|an? (?:ai )?image generator|image generation|a diffusion model)|(?:in )?(?:lower|upper) ?case|in (?:great |more |full |rich )?detail|briefly|in brief|in (?:a|one) (?:short )?paragraph|in a few (?:words|sentences))\b.*$/i;
const WRAPPING_QUOTES = /^["'“”‘’`]+|["'“”‘’`]+$/g;

/** Words that alone do not make a subject ("write it", "something nice"). */
const EMPTY_WORDS = new Set(['it', 'this', 'that', 'these', 'those', 'something', 'anything', 'one', 'me', 'us',
  'nice', 'cool', 'good', 'great', 'beautiful', 'random', 'else', 'prompt', 'prompts', 'image', 'picture', 'please',
  'a', 'an', 'the', 'some', 'for', 'of', 'about', 'surprise', 'again', 'another', 'more', 'stuff', 'thing', 'things',
  'here', 'there', 'you', 'can', 'do', 'what', 'how', 'is', 'are', 'your', 'my', 'idea', 'ideas']);

/** Words that mark a sentence about the user's project rather than the picture itself. */
const META_WORDS = /\b(?:my|our|blog|post|article|website|project|presentation|client|newsletter)\b/i;

/** Removes the request around a subject; returns what is left, possibly empty. */
export function stripRequest(sentence: string): string {
  let s = sentence.trim().replace(WRAPPING_QUOTES, '').trim().replace(SUBJECT_LABEL, '');
  for (let i = 0; i < 3; i++) {
    const before = s;
    s = s.replace(LEAD, '').replace(ASK, '').replace(VERB, '').replace(SHOULD_SHOW, '').replace(FRAME, '').trim();
    if (s === before) break;
  }
  s = s.replace(TRAIL, '');
  return s.replace(/^[\s:,;—–-]+/, '').replace(/[\s.,;:!?]+$/, '').replace(WRAPPING_QUOTES, '').trim();
}

function isMeaningful(text: string): boolean {
  // "it darker" (from "make it darker" with nothing before it) refers to a subject that is not there.
  if (/^(?:it|this|that|them|these|those)\b/i.test(text)) return false;
  return wordsOf(text).some((w) => !EMPTY_WORDS.has(w));
}

/** Enough of a sentence to find a subject in; a subject is clipped far shorter anyway. */
const MAX_SENTENCE_CHARS = 2000;
/** A request names its subject early; a pasted document is not read to the end. */
const MAX_SENTENCES = 100;

/** Splits a message into sentences and lines, each cut to a length worth reading for a subject. */
export function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+|\n+/, MAX_SENTENCES * 2).map((s) => s.slice(0, MAX_SENTENCE_CHARS).trim()).filter(Boolean)
    .slice(0, MAX_SENTENCES);
}

/**
 * The subject of a message, or undefined when it names none. Of several sentences, the one that
 * speaks of the most recognisable things wins (the first on a tie).
 */
export function findSubject(message: string): Subject | undefined {
  const colon = afterInstruction(message);
  if (colon !== undefined) return findSubject(colon);
  let best: { text: string; score: number } | undefined;
  for (const sentence of sentencesOf(message)) {
    if (OTHER_LABEL.test(sentence)) continue;
    const text = stripRequest(sentence);
    if (!text || !isMeaningful(text)) continue;
    const hits = [...detectTopics(text).values()].reduce((a, b) => a + b, 0);
    const score = hits - (META_WORDS.test(text) ? 1 : 0);
    if (!best || score > best.score) best = { text, score };
  }
  return best ? makeSubject(best.text) : undefined;
}

/** Every sentence of a message with the request stripped: the context around the subject. */
export function contextOf(message: string): string {
  return sentencesOf(message).map(stripRequest).join('. ');
}

/** The text after "an instruction:", when the part before the colon is an instruction. */
export function afterInstruction(message: string): string | undefined {
  const m = INSTRUCTION_COLON.exec(message.trim());
  if (!m?.[1] || !m[2] || SUBJECT_LABEL.test(message.trim()) || OTHER_LABEL.test(message.trim())) return undefined;
  return INSTRUCTION_WORDS.test(m[1]) && /[\p{L}\p{N}]/u.test(m[2]) ? m[2] : undefined;
}

/** The subject of a question: what follows "for", "of" or "about" ("which lens for a portrait?"). */
export function findQuestionSubject(question: string): Subject | undefined {
  const colon = afterInstruction(question);
  if (colon !== undefined) return findSubject(colon);
  const m = /\b(?:for|of|about|in|with|suit|suits|fit|fits|match|matches|to|show|shows|showing)\s+((?:an?|the|my|this|our|some|two|three)\s+.+)$/i.exec(question.replace(/[?.!\s]+$/, ''));
  if (!m?.[1]) return undefined;
  const text = m[1].replace(/^(?:my|our)\s+/i, 'a ').trim();
  return /^(?:this|the) (?:one|image|prompt|picture|scene)$/i.test(text) || !isMeaningful(text) ? undefined : makeSubject(text);
}

const SPLIT = /\s*,\s*|\s+(?:in|on|at|with|under|over|near|by|beside|behind|inside|during|through|across|along|among|between|against|from|of|and|into|onto|above|below|beneath|amid|around|under|while|where|as)\s+/i;
const LEADING_DETERMINER = /^(?:a|an|the|some|its|his|her|their|my|our)\s+/i;
const FRAMING_NOUNS = new Set(['portrait', 'photo', 'photograph', 'painting', 'picture', 'image', 'shot', 'view',
  'close-up', 'closeup', 'illustration', 'drawing', 'sketch', 'render', 'scene', 'still', 'study']);

/** A pasted page is not a subject: beyond this many words the rest is left out. */
export const MAX_SUBJECT_WORDS = 60;

export function makeSubject(fullText: string): Subject {
  const text = clipWords(fullText, MAX_SUBJECT_WORDS);
  const keywords = text.split(SPLIT).map((k) => k.replace(LEADING_DETERMINER, '').trim()).filter(Boolean);
  const lastWord = (k: string | undefined) => (k ? (k.split(/\s+/).pop() ?? k) : '');
  let head = lastWord(keywords[0]);
  if (FRAMING_NOUNS.has(head.toLowerCase()) && keywords.length > 1) head = lastWord(keywords[1]);
  return { text, head: head.replace(/[^\p{L}\p{N}'-]/gu, '') || 'subject', keywords };
}

/** The subject with its first word lowercased when that word is an article, for use mid-sentence. */
export function inSentence(subject: Subject): string {
  return subject.text.replace(/^(A|An|The|Some|Two|Three|Four|Five)\b/, (w) => w.toLowerCase());
}
