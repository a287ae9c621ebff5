/**
 * Later turns that change the previous answer rather than start a new one: "make it night",
 * "add a red fox", "without the smoke", "in watercolor", "replace the cabin with a lighthouse".
 */
import { type Plan } from './plan';
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

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function setSubjectText(plan: Plan, text: string): void {
  const clean = text.replace(/\s{2,}/g, ' ').replace(/\s+,/g, ',').replace(/^[\s,]+|[\s,]+$/g, '');
  if (clean) plan.subject = makeSubject(clean);
}

function removeFromSubject(plan: Plan, phrase: string): void {
  const re = new RegExp(`(?:,?\\s*(?:with|and)\\s+|\\s*,\\s*)?(?:an?\\s+|the\\s+|some\\s+)?${escape(phrase)}`, 'i');
  if (plan.subject && re.test(plan.subject.text)) setSubjectText(plan, plan.subject.text.replace(re, ''));
  plan.additions = plan.additions.filter((a) => !a.toLowerCase().includes(phrase.toLowerCase()));
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
    for (const adj of adjectives) text = text.replace(new RegExp(`\\b${escape(adj)}\\s+`, 'gi'), '');
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
    if (plan.subject && new RegExp(`\\b${escape(from)}\\b`, 'i').test(plan.subject.text)) {
      setSubjectText(plan, plan.subject.text.replace(new RegExp(`\\b${escape(from)}\\b`, 'i'), to));
      for (const w of wordsOf(from)) plan.excluded.add(w);
    } else if (detectTopics(to).size === 0 || wordsOf(to).length > 2) {
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
