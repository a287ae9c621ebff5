/**
 * Lists ("three colours for a cabin at dusk", "five prompt ideas", "ten flowers") and negative
 * prompts. Items are drawn without repeats and fit the scene when the category allows it.
 */
import { capitalize, joinAnd } from '../format';
import { type Phrase } from '../vocab/bank';
import { COMPOSITIONS, LENSES, STYLES } from '../vocab/craft';
import { DETAILS } from '../vocab/details';
import { categoryItems, COLOURS } from '../vocab/lists';
import { NEGATIVE_TERMS } from '../vocab/negative';
import { LIGHTING, MOODS, PALETTES } from '../vocab/scene';
import { inSentence, makeSubject } from '../subject';
import { detectTopics } from '../vocab/topics';
import { composePrompt, type Context, subjectPhrase } from './prompt';
import { composeTitle } from './prose';

/** The longest list written at once. */
const MAX_ITEMS = 20;
const NUMBER_NAMES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const numberName = (n: number) => NUMBER_NAMES[n] ?? String(n);

interface Listing {
  /** Plural name used in the lead-in ("colours", "image prompts"). */
  noun: string;
  /** How the lead-in ties the list to the subject ("that suit", "for"). */
  link: string;
  items: (n: number) => string[];
  /** Short forms for one-line and keyword answers, when they differ from the items. */
  names?: (items: readonly string[]) => string[];
}

function fromBank(ctx: Context, bank: readonly Phrase[], slot: string, head = ''): (n: number) => string[] {
  return (n) => ctx.sampler.pickMany(bank, n, slot).map((p) => p.text.replace(/\{head\}/g, head));
}

/**
 * The word that names what to list: the last one ("detailed image prompts" lists prompts), unless
 * it is a generic "ideas" or "options" after a more telling word ("lighting ideas" lists lighting).
 */
function categoryNoun(category: string): string {
  const words = category.toLowerCase().trim().split(/\s+/);
  const last = words[words.length - 1] ?? '';
  const before = words[words.length - 2];
  return before && /^(?:ideas|options|setups|suggestions|choices)$/.test(last) && !/^(?:prompt|image|new|good|creative|fresh)$/.test(before)
    ? before : last;
}

function listing(ctx: Context, category: string): Listing | undefined {
  const c = categoryNoun(category);
  const head = ctx.plan.subject?.head ?? 'subject';
  const inline = ctx.plan.format.oneLine || ctx.plan.format.keywords || ctx.plan.format.length === 'short';
  if (/palette/.test(c)) return { noun: 'colour palettes', link: 'for', items: fromBank(ctx, PALETTES, 'list-palette') };
  if (/colou?r/.test(c)) {
    return {
      noun: 'colours', link: 'that suit',
      items: (n) => ctx.sampler.pickMany(COLOURS, n, 'list-colour').map((p) => (inline ? p.text : `${p.text}: ${p.note}`)),
      names: (items) => items.map((i) => i.split(':')[0] ?? i),
    };
  }
  if (/title/.test(c)) return { noun: 'titles', link: 'for', items: (n) => uniqueTitles(ctx, n) };
  if (/style/.test(c)) return { noun: 'styles', link: 'that suit', items: fromBank(ctx, STYLES, 'list-style') };
  if (/light/.test(c)) return { noun: 'lighting ideas', link: 'for', items: fromBank(ctx, LIGHTING, 'list-lighting') };
  if (/mood|atmosphere/.test(c)) return { noun: 'moods', link: 'for', items: fromBank(ctx, MOODS, 'list-mood') };
  if (/composition|angle|shot|framing/.test(c)) return { noun: 'compositions', link: 'for', items: fromBank(ctx, COMPOSITIONS, 'list-composition', head) };
  if (/lens/.test(c)) return { noun: 'lens choices', link: 'for', items: fromBank(ctx, LENSES, 'list-lens') };
  if (/detail|element|prop/.test(c)) return { noun: 'details', link: 'to add to', items: fromBank(ctx, DETAILS, 'list-detail') };
  if (/keyword|tag/.test(c)) {
    return {
      noun: 'keywords', link: 'for',
      items: (n) => {
        const own = ctx.plan.subject?.keywords ?? [];
        const more = ctx.sampler.pickMany([...DETAILS, ...LIGHTING, ...MOODS], Math.max(0, n - own.length), 'list-keyword');
        return [...own, ...more.map((p) => p.text)].slice(0, n);
      },
    };
  }
  if (/prompt|idea|variation|version|concept/.test(c)) {
    return {
      noun: 'image prompts', link: 'for',
      items: (n) => Array.from({ length: n }, (_, i) => composePrompt(ctx, { variant: `#${i}` })),
    };
  }
  const plain = categoryItems(category) ?? categoryItems(c);
  if (plain) {
    return {
      noun: category.toLowerCase().trim(), link: 'for',
      items: (n) => ctx.sampler.pickMany(plain.map((text) => ({ text, tags: [] })), n, `list-${c}`).map((p) => p.text),
    };
  }
  return undefined;
}

function uniqueTitles(ctx: Context, n: number): string[] {
  const titles = new Set<string>();
  for (let i = 0; i < n * 4 && titles.size < n; i++) titles.add(composeTitle(ctx));
  return [...titles];
}

export function composeList(ctx: Context): string {
  const { plan } = ctx;
  const f = plan.format;
  const asked = Math.max(plan.count ?? 5, 1);
  const n = Math.min(asked, MAX_ITEMS);
  const category = plan.category ?? 'prompts';
  const found = listing(ctx, category);
  const subject = plan.subject && inSentence({ ...plan.subject, text: subjectPhrase(plan.subject, plan.additions) });
  if (!found) {
    // No list of these offline: say so plainly, then offer prompt ideas about them instead.
    plan.subject ??= makeSubject(category);
    for (const t of detectTopics(category).keys()) if (!plan.topics.has(t)) plan.topics.set(t, 1);
    const ideas = listing(ctx, 'prompts')!.items(n).map((p, i) => `${i + 1}. ${p}`).join('\n');
    return `I don't keep a list of ${category} in this offline engine, so here are ${numberName(n)} image prompt ideas instead:\n${ideas}`;
  }
  const items = found.items(n);
  if (f.keywords || found.noun === 'keywords') return (found.names?.(items) ?? items).map((i) => i.toLowerCase()).join(', ');
  if (f.oneLine) return `${capitalize(joinAnd(found.names?.(items) ?? items))}.`;
  const lines = items.map((item, i) => `${f.bullets ? '-' : `${i + 1}.`} ${capitalize(item)}`).join('\n');
  if (f.bare) return lines;
  const one = items.length === 1;
  const what = `${one ? 'is one' : `are ${numberName(items.length)}`} ${one ? found.noun.replace(/e?s$/, '') : found.noun}`;
  const capped = asked > items.length ? ` (${items.length} ${asked > MAX_ITEMS ? 'is the most I list at once' : 'is all I have'})` : '';
  const link = one ? found.link.replace(/\bsuit\b/, 'suits') : found.link;
  const lead = `Here ${what}${capped}${subject ? ` ${link} ${subject}` : ''}:`;
  return `${lead}\n${lines}`;
}

/** Terms to turn into a negative prompt, from "rewrite as a negative prompt: no people, no text". */
function explicitTerms(request: string): string[] {
  const colon = request.indexOf(':');
  const converting = /\b(?:rewrite|convert|turn|make|change|reword|as|into)\b/i.test(colon >= 0 ? request.slice(0, colon) : request);
  if (!converting) return [];
  const quoted = /["“]([^"”]+)["”]/.exec(request)?.[1];
  const source = quoted ?? (colon >= 0 ? request.slice(colon + 1) : '');
  return source.split(/\s*(?:,|;|\/|\band\b|\bor\b|\n)\s*/)
    .map((t) => t.trim().replace(/^(?:no|without|avoid|not|don't want|do not want|nothing|any|never)\s+/i, '').replace(/[.!]+$/, '').trim())
    .filter((t) => t.length > 0 && t.length < 60)
    .slice(0, 30);
}

/** A negative prompt: the user's own terms, terms for the scene's topics, then general quality terms. */
export function composeNegative(ctx: Context): string {
  const { plan, sampler } = ctx;
  const n = plan.count ?? (plan.format.length === 'short' ? 8 : plan.format.length === 'long' ? 20 : 14);
  const own = [...explicitTerms(plan.request), ...plan.excluded];
  const fitting = NEGATIVE_TERMS.filter((t) => t.tags.length === 0 || t.tags.some((tag) => plan.topics.has(tag)));
  const picked = sampler.pickMany(fitting, Math.max(0, n - own.length), 'negative').map((t) => t.text);
  const topical = picked.filter((t) => fitting.find((p) => p.text === t)?.tags.length);
  const general = picked.filter((t) => !topical.includes(t));
  return [...new Set([...own, ...topical, ...general])].slice(0, Math.max(n, own.length)).join(', ');
}
