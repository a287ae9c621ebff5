/**
 * Later turns that change the previous answer rather than start a new one: "make it night",
 * "add a red fox", "without the smoke", "in watercolor", "replace the cabin with a lighthouse".
 */
import { type Plan } from './plan';
import { withArticle } from './format';
import { makeSubject } from './subject';
import { CONFLICT_GROUPS, MODIFIER_TOPICS, STYLE_TOPICS, detectTopics, wordsOf } from './vocab/topics';

const EXCLUDE = /\b(?:remove|without|no|drop|lose|get rid of|exclude|minus|take out|delete|leave out)\s+(?:the\s+|any\s+|all\s+)?(.+?)(?:\s+(?:from|in) (?:it|the (?:scene|image|picture|prompt))|\s+(?:and|but)\s+|[.!,;]|$)/i;
const REPLACE = /\b(?:replace|swap) (?:the )?(.+?) (?:with|for) (.+?)[.!]?$/i;
const CHANGE = /\bchange (?:the )?(.+?) (?:to|into) (.+?)[.!]?$/i;
const ADD = /^(?:(?:also|and|now|but|then)\s+)*(?:add|include|put|plus|with|and with|now with|what about|how about|give it)\s+(.+?)(?:\s+(?:to|into|in) (?:it|the (?:scene|image|picture|prompt)))?(?:,?\s+(?:too|as well|please|instead))*[.!]?$/i;
const MODIFIER_ADDITION = /^(?:more|less|some more|a bit|a little|at|in|during|as|an? (?:\w+ )?(?:style|mood|feel|vibe|look|tone))\b/i;
const STYLE_OF = /\bin the style of ([^,.;!?]+)/i;

const TIME_PHRASE = /\s*\b(?:at|during|in the|by|after)\s+(?:dawn|sunrise|daybreak|morning|noon|midday|daylight|afternoon|dusk|sunset|twilight|evening|golden hour|blue hour|night|nighttime|midnight)\b/i;
const TIME_WORDS: Readonly<Record<string, string>> = { dawn: 'at dawn', day: 'in daylight', dusk: 'at dusk', night: 'at night' };
const SEASON_ADJECTIVES: Readonly<Record<string, readonly string[]>> = {
  winter: ['snowy', 'snow-covered', 'snowbound', 'frozen', 'icy', 'frosty', 'wintry'],
  autumn: ['autumnal', 'autumn'],
  spring: ['spring', 'blossoming'],
  summer: ['summer', 'sunny', 'sun-drenched'],
};
const SEASON_PHRASE: Readonly<Record<string, string>> = { winter: 'in winter', autumn: 'in autumn', spring: 'in spring', summer: 'in summer' };

/** Longer phrases are not edits of a subject but new text; they are never searched for. */
const MAX_PHRASE = 80;

/** Where `phrase` occurs in `text` as whole words, ignoring case; -1 when it does not. */
function findWords(text: string, phrase: string): number {
  if (phrase.length === 0 || phrase.length > MAX_PHRASE) return -1;
  const hay = text.toLowerCase();
  const needle = phrase.toLowerCase();
  const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    if (!isWordChar(hay[at - 1]) && !isWordChar(hay[at + needle.length])) return at;
  }
  return -1;
}

/** `text` with the words at [start, end) replaced, together with a determiner right before them. */
function spliceWords(text: string, start: number, end: number, replacement: string): string {
  const before = text.slice(0, start).replace(/\b(?:a|an|the|some)\s+$/i, '');
  return `${before}${replacement}${text.slice(end)}`;
}

function setSubjectText(plan: Plan, text: string): void {
  const clean = text.replace(/\s{2,}/g, ' ').replace(/\s+,/g, ',').replace(/^[\s,]+|[\s,]+$/g, '');
  if (clean) plan.subject = makeSubject(clean);
}

function removeFromSubject(plan: Plan, phrase: string): void {
  const at = plan.subject ? findWords(plan.subject.text, phrase) : -1;
  if (plan.subject && at >= 0) {
    const text = spliceWords(plan.subject.text, at, at + phrase.length, '');
    setSubjectText(plan, text.replace(/(?:,?\s*\b(?:with|and)\s*)+(?=,|$)/i, '').replace(/\b(?:with|and)\s*,/i, ','));
  }
  plan.additions = plan.additions.filter((a) => findWords(a, phrase) < 0);
}

/** A new time of day replaces the old one in the subject ("at dusk" becomes "at night"). */
function retime(plan: Plan, body: string, time: string): void {
  if (!plan.subject) return;
  const said = TIME_PHRASE.exec(` ${body}`)?.[0].trim() ?? TIME_WORDS[time] ?? '';
  const text = plan.subject.text;
  setSubjectText(plan, TIME_PHRASE.test(text) ? text.replace(TIME_PHRASE, ` ${said}`) : `${text} ${said}`);
}

/** A new season drops the old season's adjectives ("snowy woods" in summer becomes "woods"). */
function reseason(plan: Plan, season: string): void {
  if (!plan.subject) return;
  let text = plan.subject.text;
  for (const [other, adjectives] of Object.entries(SEASON_ADJECTIVES)) {
    if (other === season) continue;
    for (const adj of adjectives) {
      for (let at = findWords(text, adj); at >= 0; at = findWords(text, adj)) text = `${text.slice(0, at)}${text.slice(at + adj.length).trimStart()}`;
    }
  }
  if (!detectTopics(text).has(season)) text = `${text} ${SEASON_PHRASE[season] ?? ''}`;
  setSubjectText(plan, text);
}

/** Applies one refining message to the plan built from the turns before it. */
export function applyRefinement(plan: Plan, body: string): void {
  const excluded = EXCLUDE.exec(body);
  if (excluded?.[1] && !/^(?:more|longer|shorter)\b/i.test(excluded[1])) {
    for (const w of wordsOf(excluded[1])) plan.excluded.add(w);
    removeFromSubject(plan, excluded[1].trim());
  }
  const replaced = REPLACE.exec(body) ?? CHANGE.exec(body);
  let addition: string | undefined;
  if (replaced?.[1] && replaced[2]) {
    const [, from, to] = replaced;
    const at = plan.subject ? findWords(plan.subject.text, from) : -1;
    if (plan.subject && at >= 0) {
      // The subject keeps its own article and adjectives: "a cozy cabin" becomes "a cozy castle".
      const bare = to.replace(/^(?:a|an|the|some)\s+/i, '');
      const text = plan.subject.text;
      const before = text.slice(0, at);
      const article = /\b(?:a|an)\s+$/i.exec(before);
      const lead = article ? `${before.slice(0, article.index)}${withArticle(bare).split(' ')[0]} ` : before;
      setSubjectText(plan, `${lead}${bare}${text.slice(at + from.length)}`);
      for (const w of wordsOf(from)) plan.excluded.add(w);
    } else if (to.length <= MAX_PHRASE && (detectTopics(to).size === 0 || wordsOf(to).length > 2)) {
      addition = to;
    }
  } else {
    const added = ADD.exec(body.trim())?.[1];
    if (added && !MODIFIER_ADDITION.test(added)) addition = added;
  }
  if (addition) {
    plan.additions.push(addition.replace(/[.!]+$/, ''));
    for (const w of wordsOf(addition)) plan.excluded.delete(w);
  }

  const asked = detectTopics(body);
  const literal = STYLE_OF.exec(body)?.[1]?.trim();
  const namesStyle = [...asked.keys()].some((t) => STYLE_TOPICS.has(t));
  if (namesStyle || literal) {
    for (const t of [...plan.topics.keys()]) if (STYLE_TOPICS.has(t)) plan.topics.delete(t);
    plan.literalStyle = namesStyle ? undefined : `in the style of ${literal}`;
  }
  for (const group of CONFLICT_GROUPS) {
    const chosen = group.find((t) => asked.has(t));
    if (!chosen) continue;
    for (const t of group) if (t !== chosen) plan.topics.delete(t);
    if (group.includes('night')) retime(plan, body, chosen);
    if (group.includes('winter')) reseason(plan, chosen);
  }
  // How the scene looks (time, season, tone, style) was asked for outright; things added weigh as the subject does.
  for (const t of asked.keys()) plan.topics.set(t, Math.max(plan.topics.get(t) ?? 0, MODIFIER_TOPICS.has(t) ? 2 : 1));
}
