/**
 * What a single user message asks for: a prompt, a list, a description, an answer, a change to
 * the previous answer, and so on. Pure pattern reading, message by message; `conversation.ts`
 * combines the messages.
 */
import { parseNumber } from './constraints';
import { categoryItems } from './vocab/lists';
import { MODIFIER_TOPICS, detectTopics, wordsOf } from './vocab/topics';

const isPlainCategory = (name: string) => categoryItems(name) !== undefined;

export type Task = 'prompt' | 'negative' | 'list' | 'describe' | 'answer' | 'title' | 'caption' | 'greet'
  | 'thanks' | 'unsupported';

export type Intent =
  | { kind: 'task'; task: Task; body: string; count?: number; category?: string; unsupported?: string }
  | { kind: 'refine'; body: string; another: boolean };

const LEAD = /^(?:(?:please|pls|ok|okay|now|so|and|also|then|great|nice|cool|perfect|alright|right|well|next|hmm|good)\b[\s,!.:;-]*)+/i;
const ASK = /^(?:(?:can|could|would|will) you(?: please)?|i(?:'d| would) (?:like|love)(?: you to)?|i (?:want|need)(?: you to)?|please)\s+/i;

const GREETING = /^(?:hi|hello|hey|hiya|howdy|greetings|good (?:morning|afternoon|evening)|yo)(?: there)?[\s!.,]*$|^(?:who|what) are you\b|^what can you do\b|^help[!.?]*$|^how (?:do|does) (?:this|it|you) work\b/i;
const THANKS = /^(?:thanks|thank you|thx|great|perfect|nice|cool|awesome|love it|lovely|brilliant|excellent|good job|well done)(?: (?:a lot|so much|very much|!|you))*[\s!.]*$/i;
const UNSUPPORTED: readonly [RegExp, string][] = [
  [/^(?:translate|translation)\b|\btranslate (?:this|it|the following|into)\b/i, 'translate text'],
  [/^(?:summari[sz]e|sum up)\b|\bsummary of\b/i, 'summarise documents'],
  [/^(?:calculate|compute|solve)\b|\bwhat is \d+\s*[-+*/x×]\s*\d+/i, 'do calculations'],
  [/^(?:write|give me|create|generate|make)(?: me)? (?:a |an |some |the )?(?:\w+ )?(?:code|function|script|program|class|regex|sql(?: query)?|unit tests?)\b/i, 'write code'],
  [/^(?:write|give me|compose|create)(?: me)? (?:a |an |some )?(?:short |long |funny )?(poem|haiku|limerick|song|lyrics|essay|email|letter|story|joke|recipe|tweet|blog post|speech)s?\b/i, 'write $1s'],
  [/^tell (?:me )?(?:a )?(joke|story)s?\b/i, 'tell $1s'],
];
const NEGATIVE = /\bnegative(?: prompts?| terms| keywords)?\b|\bwhat (?:should i|to) avoid\b|\bthings to avoid\b/i;
const TITLE = /\b(?:title|name)s? (?:for|of) (?:it|this|that|the (?:image|picture|scene|prompt|painting))\b|\bgive (?:it|this|that) a (?:title|name)\b|^(?:suggest |write |give me |create |come up with )?(?:a |an )?(?:short |good |catchy |evocative )?title\b/i;
const CAPTION = /\bcaptions?\b|\balt[- ]text\b/i;
const DESCRIBE = /^(?:describe|depict|tell me about|paint a picture of|what does .+ look like)\b|^(?:write|give me|compose|draft|create)(?: me)? (?:a |an )?(?:short |long |brief |detailed |vivid |rich )*(?:description|paragraph|scene description|written scene)\b/i;
const LIST_VERB = /^(?:list|enumerate|name|brainstorm|suggest|give me|write|create|generate|come up with|make|offer|show me|provide|what are)\b/i;
const KNOWN_NOUN = '(?:colou?r|palette|prompt|idea|variation|version|style|mood|lighting setup|lighting idea|lighting option|lighting|light|composition|camera angle|angle|shot|lens|lense|detail|element|prop|keyword|tag|adjective|word|negative term|term|title)(?:e?s)?';
const COUNT = new RegExp(`\\b(\\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple of|several)\\s+((?:[a-z-]+\\s+){0,3}?)(${KNOWN_NOUN}|[a-z]{2,}s)\\b`, 'i');
/** A count right after the request verb ("list three colours", "give me 5 prompts"), not one inside the subject. */
const COUNT_AT_START = new RegExp(`^(?:(?:list|enumerate|name|brainstorm|suggest|give(?: me| us)?|write(?: me)?|create|generate|come up with|make(?: me)?|offer|show me|provide|what are|share)\\s+)?(?:up to\\s+|about\\s+|some\\s+|another\\s+)?${COUNT.source.slice(2)}`, 'i');
const BARE_LIST = /^(?:list|enumerate|brainstorm)\s+(?:some\s+|the\s+|a few\s+|several\s+)?((?:[a-z-]+\s+){0,2}?[a-z]+)\b/i;
const QUESTION_START = /^(?:what|which|how|why|when|where|who|whose|should|is|are|does|do|can|could|would|will|shall|any|did|was|were|isn't|aren't|what's|how's)\b/i;

/** Words that can change an answer without naming a new subject ("darker, at night, in watercolor"). */
const MODIFIER_WORDS = new Set(['more', 'less', 'bit', 'little', 'much', 'way', 'lot', 'very', 'really', 'style',
  'version', 'instead', 'please', 'it', 'a', 'an', 'the', 'in', 'at', 'as', 'during', 'with', 'but', 'and', 'make',
  'now', 'than', 'even', 'too', 'tone', 'feel', 'look', 'vibe', 'mood', 'lighting', 'light', 'colours', 'colors',
  'same', 'again', 'of', 'time', 'set', 'scene', 'atmosphere', 'this', 'that', 'one', 'one\'s', 'try', 'go']);
const REFINE_START = /^(?:make (?:it|this|that|them|the (?:image|scene|prompt|picture|light|lighting|mood|colou?rs?|sky))|add|more|less|remove|without|no|include|change|turn (?:it|this)|switch|try|instead|same|again|another|one more|shorter|longer|darker|brighter|warmer|colder|cooler|it should|i want it|i'd like it|put|set (?:it|the)|but|give it|keep|drop|lose|replace|swap|get rid of|lose the|tone down|crank up|what about|how about|and with|with|now with|also)\b/i;
const ANOTHER = /\b(?:another|again|one more|different|variation|alternative|new version|try again|regenerate|re-?roll|something else)\b/i;

/** A refinement is a short follow-up; a long message is a new request, however it starts. */
const MAX_REFINEMENT = 400;

function stripLead(text: string): string {
  let s = text.trim();
  for (let i = 0; i < 3; i++) {
    const next = s.replace(LEAD, '').replace(ASK, '').trim();
    if (next === s) break;
    s = next;
  }
  return s;
}

/** True when every content word of the message is a modifier or a topic word: "darker, at night". */
function isModifierOnly(text: string): boolean {
  const words = wordsOf(text);
  if (words.length === 0 || words.length > 8) return false;
  const comparative = (w: string) => /(?:er|ier)$/.test(w) && w.length > 4;
  const modifierTopic = (w: string) => {
    const topics = [...detectTopics(w).keys()];
    return topics.length > 0 && topics.every((t) => MODIFIER_TOPICS.has(t));
  };
  return words.every((w) => MODIFIER_WORDS.has(w) || modifierTopic(w) || comparative(w))
    && words.some((w) => modifierTopic(w) || comparative(w));
}

/** Reads what one user message asks for. `hasContext` tells whether there is an earlier answer to refine. */
export function readIntent(message: string, hasContext: boolean): Intent {
  const raw = message.trim();
  const body = stripLead(raw);
  const lower = body.toLowerCase();
  if (GREETING.test(body) || GREETING.test(raw)) return { kind: 'task', task: 'greet', body };
  if (THANKS.test(raw)) return { kind: 'task', task: 'thanks', body };
  for (const [re, what] of UNSUPPORTED) {
    const m = re.exec(body);
    if (m) return { kind: 'task', task: 'unsupported', body, unsupported: what.replace('$1', (m[1] ?? '').toLowerCase()) };
  }
  if (hasContext && body.length <= MAX_REFINEMENT && (REFINE_START.test(body) || isModifierOnly(body) || (ANOTHER.test(body) && wordsOf(body).length <= 6))) {
    if (!NEGATIVE.test(body) && !TITLE.test(body) && !CAPTION.test(body)) {
      return { kind: 'refine', body, another: ANOTHER.test(body) };
    }
  }
  if (NEGATIVE.test(body) && /^(?:what(?:'s| is| are| does)|how (?:do|does|should|can)|why)\b/i.test(body)) return { kind: 'task', task: 'answer', body };
  if (NEGATIVE.test(body)) {
    const count = COUNT.exec(body);
    return { kind: 'task', task: 'negative', body, count: parseNumber(count?.[1]) };
  }
  if (TITLE.test(body)) return { kind: 'task', task: 'title', body };
  if (CAPTION.test(body)) return { kind: 'task', task: 'caption', body };
  const counted = COUNT_AT_START.exec(body);
  const verbFirst = counted !== null && LIST_VERB.test(body);
  if (counted?.[3] && (verbFirst || new RegExp(`^${KNOWN_NOUN}$`, 'i').test(counted[3]) || isPlainCategory(counted[3]))) {
    return { kind: 'task', task: 'list', body, count: parseNumber(counted[1]), category: `${counted[2] ?? ''}${counted[3]}`.toLowerCase().trim() };
  }
  const bare = BARE_LIST.exec(body);
  if (bare?.[1]) return { kind: 'task', task: 'list', body, category: bare[1].toLowerCase() };
  if (DESCRIBE.test(body)) return { kind: 'task', task: 'describe', body };
  const asksToMake = /^(?:write|create|make|generate|give|draft|suggest|come up with|turn|compose|produce|craft|design|imagine|render|draw|paint)\b/i.test(lower);
  if (!asksToMake && (body.endsWith('?') || QUESTION_START.test(body))) return { kind: 'task', task: 'answer', body };
  return { kind: 'task', task: 'prompt', body };
}
