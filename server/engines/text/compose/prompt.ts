/**
 * Image prompts: the subject in the user's words first, then phrases chosen by topic for detail,
 * light, mood, composition, palette, style, lens and finish, comma-separated as image models
 * expect them. Under a word limit the most important phrases are kept.
 */
import { type Length } from '../constraints';
import { capitalize, clipWords, countWords } from '../format';
import { type Plan } from '../plan';
import { type Sampler } from '../sampling';
import { makeSubject, type Subject } from '../subject';
import { type StylePhrase } from '../vocab/bank';
import { ART_FINISH, COMPOSITIONS, LENSES, PHOTO_FINISH, STYLES } from '../vocab/craft';
import { DETAILS } from '../vocab/details';
import { categoryItems } from '../vocab/lists';
import { LIGHTING, MOODS, PALETTES } from '../vocab/scene';
import { detectTopics } from '../vocab/topics';

export interface Context {
  plan: Plan;
  sampler: Sampler;
  /** The model name the request used, for answers that introduce the engine. */
  model: string;
}

export interface PromptOptions {
  size?: Length;
  wordLimit?: number;
  keywords?: boolean;
  /** A slot-name suffix so several prompts in one answer draw separately. */
  variant?: string;
}

interface Part {
  order: number;
  priority: number;
  text: string;
}

const PREPOSITION_START = /^(?:in|on|at|with|under|near|by|beside|behind|inside|and|during|through|over|against|amid)\b/i;

/** The subject with later additions attached: "a cabin at dusk, with a red fox in the foreground". */
export function subjectPhrase(subject: Subject, additions: readonly string[]): string {
  let text = subject.text;
  for (const a of additions) text += PREPOSITION_START.test(a) ? ` ${a}` : `, with ${a}`;
  return text;
}

/** A subject for when the conversation names none ("surprise me"). */
export function inventSubject(ctx: Context): Subject {
  const places = categoryItems('places') ?? [];
  const characters = categoryItems('characters') ?? [];
  const subject = makeSubject(ctx.sampler.pickText([...places, ...characters], 'invented-subject'));
  // The sampler reads the plan's topic map, so the invented subject steers the phrases after it.
  for (const t of detectTopics(subject.text).keys()) if (!ctx.plan.topics.has(t)) ctx.plan.topics.set(t, 1);
  ctx.plan.subject = subject;
  return subject;
}

const DETERMINER = /^(?:a|an|the|some)\s+/i;

export function composePrompt(ctx: Context, opts: PromptOptions = {}): string {
  const { plan, sampler } = ctx;
  const size = opts.size ?? plan.format.length;
  const keywords = opts.keywords ?? plan.format.keywords;
  const slot = (name: string) => `${name}${opts.variant ?? ''}`;
  const subject = plan.subject ?? inventSubject(ctx);
  const parts: Part[] = [];
  const add = (order: number, priority: number, text: string | undefined) => {
    if (text) parts.push({ order, priority, text });
  };

  const subjectText = keywords
    ? [...subject.keywords, ...plan.additions.map((a) => a.replace(DETERMINER, ''))].join(', ')
    : subjectPhrase(subject, plan.additions);
  sampler.emit(subjectText);
  add(0, 0, subjectText);

  const detailCount = size === 'short' ? 1 : size === 'normal' ? 2 : 3;
  sampler.pickMany(DETAILS, detailCount, slot('detail')).forEach((d, i) => add(1 + i / 10, i === 0 ? 1 : 6 + i, d.text));
  add(2, 2, sampler.pick(LIGHTING, slot('lighting'))?.text);
  if (size !== 'short') {
    const mood = sampler.pick(MOODS, slot('mood'))?.text;
    const forms = /atmospher/.test(mood ?? '') ? [`${mood} mood`] : [`${mood} atmosphere`, `${mood} mood`];
    if (mood) add(3, 4, sampler.pickText(forms, slot('mood-form')));
    add(4, 5, sampler.pick(COMPOSITIONS, slot('composition'))?.text.replace(/\{head\}/g, subject.head));
  }
  if (size === 'long') {
    const palette = sampler.pick(PALETTES, slot('palette'))?.text;
    if (palette) add(5, 8, `colour palette of ${palette}`);
  }
  const style: StylePhrase | undefined = plan.literalStyle
    ? { text: plan.literalStyle, photo: false, tags: [] }
    : sampler.pick(STYLES, slot('style'));
  add(6, 3, style?.text);
  if (style?.photo && size !== 'short') add(7, 6, sampler.pick(LENSES, slot('lens'))?.text);
  const finishCount = size === 'short' ? 0 : size === 'normal' ? 1 : 2;
  // A finish must suit the style chosen: no "visible brushstrokes" on an ink drawing.
  const finishes = (style?.photo ? PHOTO_FINISH : ART_FINISH)
    .filter((f) => f.tags.length === 0 || style?.photo || f.tags.some((t) => style?.tags.includes(t)));
  for (const f of sampler.pickMany(finishes, finishCount, slot('finish'))) add(8, 9, f.text);

  const limit = opts.wordLimit ?? plan.format.wordLimit;
  const kept = limit === undefined ? parts : withinWordLimit(parts, limit, subject);
  const text = kept.sort((a, b) => a.order - b.order)
    .map((p) => (keywords ? p.text.replace(/^(?:a|an|the)\s+/i, '') : p.text)).join(', ');
  return keywords ? text : capitalize(text);
}

/** The most important parts that fit in `limit` words; the subject is clipped if it alone is too long. */
function withinWordLimit(parts: readonly Part[], limit: number, subject: Subject): Part[] {
  const kept: Part[] = [];
  let used = 0;
  for (const p of [...parts].sort((a, b) => a.priority - b.priority)) {
    const words = countWords(p.text);
    if (used + words <= limit) {
      kept.push(p);
      used += words;
    } else if (p.priority === 0) {
      // With only a few words to spend, keep the end of the main keyword: "cozy cabin" before "a cozy".
      const main = (subject.keywords[0] ?? subject.head).split(/\s+/);
      const text = main.length >= limit ? main.slice(-limit).join(' ') : clipWords(p.text.replace(/^(?:a|an|the|some)\s+/i, ''), limit);
      kept.push({ ...p, text });
      used = limit;
    }
  }
  return kept;
}
