/**
 * Prose answers: a description of the scene in sentences, a one-sentence caption, and a title.
 * Sentence templates take the same phrase banks as prompts, so a description and a prompt of
 * the same scene agree.
 */
import { capitalize, joinAnd, withArticle } from '../format';
import { type Sampler } from '../sampling';
import { inSentence, type Subject } from '../subject';
import { COMPOSITIONS, STYLES } from '../vocab/craft';
import { DETAILS } from '../vocab/details';
import { LIGHTING, MOODS, PALETTES } from '../vocab/scene';
import { type Context, inventSubject, subjectPhrase } from './prompt';

type SentenceMaker = (sampler: Sampler, subject: Subject, scene: string) => string | undefined;

const pickTemplate = (sampler: Sampler, slot: string, templates: readonly string[], value: string) =>
  sampler.pickText(templates, slot).replace('{x}', value);

const intro: SentenceMaker = (sampler, _subject, scene) =>
  capitalize(pickTemplate(sampler, 'intro', ['The scene shows {x}.', 'Picture {x}.', 'Imagine {x}.'], scene));

const lighting: SentenceMaker = (sampler) => {
  const l = sampler.pick(LIGHTING, 'lighting')?.text;
  return l && capitalize(pickTemplate(sampler, 'lighting-form',
    ['Everything is bathed in {x}.', 'The scene is lit by {x}.'], l));
};

const details: SentenceMaker = (sampler) => {
  const ds = sampler.pickMany(DETAILS, 2, 'details').map((d) => d.text);
  return ds.length > 0 ? pickTemplate(sampler, 'details-form',
    ['Look closer and you find {x}.', 'Around it, you can make out {x}.', 'In the details: {x}.'], joinAnd(ds)) : undefined;
};

const mood: SentenceMaker = (sampler) => {
  const m = sampler.pick(MOODS, 'mood')?.text;
  return m && pickTemplate(sampler, 'mood-form', ['The mood is {x}.', 'It feels {x}.', 'The overall feeling is {x}.'], m);
};

const palette: SentenceMaker = (sampler) => {
  const p = sampler.pick(PALETTES, 'palette')?.text;
  return p && pickTemplate(sampler, 'palette-form', ['The palette keeps to {x}.', 'The colours lean towards {x}.'], p);
};

const composition: SentenceMaker = (sampler, subject) => {
  const c = sampler.pick(COMPOSITIONS, 'composition')?.text.replace(/\{head\}/g, subject.head);
  return c && pickTemplate(sampler, 'composition-form', ['It is framed as {x}.', 'The shot is composed as {x}.'], withArticle(c));
};

const style: SentenceMaker = (sampler) => {
  const s = sampler.pick(STYLES, 'style')?.text;
  return s && pickTemplate(sampler, 'style-form', ['In terms of style, think {x}.', 'As an image, it calls for {x}.'], s);
};

const moreDetails: SentenceMaker = (sampler) => {
  const d = sampler.pick(DETAILS, 'more-details')?.text;
  return d && capitalize(pickTemplate(sampler, 'more-details-form',
    ['Small touches, like {x}, keep the eye wandering.', 'Closer in, {x} rewards a second look.'], d));
};

const closing: SentenceMaker = (sampler) => {
  const m = sampler.pick(MOODS, 'closing')?.text;
  return m && pickTemplate(sampler, 'closing-form', ['The whole picture feels {x}, like a moment held still.',
    'Taken together, it is {x}.'], m);
};

const extraDetail: SentenceMaker = (sampler) => {
  const d = sampler.pick(DETAILS, 'extra-detail')?.text;
  return d && capitalize(pickTemplate(sampler, 'extra-detail-form', ['You can also make out {x}.', 'Notice {x}, too.',
    'Further back, you might spot {x}.', 'A closer look reveals {x}.'], d));
};

const ORDER: readonly SentenceMaker[] = [intro, lighting, details, mood, palette, composition, style, moreDetails, closing];

/** A description in sentences; two paragraphs when it is long and may span lines. */
export function composeDescription(ctx: Context): string {
  const { plan, sampler } = ctx;
  const f = plan.format;
  const subject = plan.subject ?? inventSubject(ctx);
  const scene = inSentence({ ...subject, text: subjectPhrase(subject, plan.additions) });
  sampler.emit(scene);
  const target = f.sentences ?? (f.length === 'short' ? 2 : f.length === 'long' ? 9 : 5);
  if (target === 1) return oneSentence(sampler, scene);
  const sentences: string[] = [];
  for (let i = 0; sentences.length < target && i < target + 12; i++) {
    const sentence = (ORDER[i] ?? extraDetail)(sampler, subject, scene);
    if (sentence) sentences.push(sentence);
  }
  if (sentences.length >= 7 && !f.oneLine) {
    const half = Math.ceil(sentences.length / 2);
    return `${sentences.slice(0, half).join(' ')}\n\n${sentences.slice(half).join(' ')}`;
  }
  return sentences.join(' ');
}

/** A description folded into one sentence: the scene, its light and two details. */
function oneSentence(sampler: Sampler, scene: string): string {
  const light = sampler.pick(LIGHTING, 'lighting')?.text;
  const ds = sampler.pickMany(DETAILS, 2, 'details').map((d) => d.text);
  return `${capitalize(scene)}${light ? `, bathed in ${light}` : ''}${ds.length > 0 ? `, with ${joinAnd(ds)}` : ''}.`;
}

/** One sentence that says what is in the picture and how it is lit. */
export function composeCaption(ctx: Context): string {
  const { plan, sampler } = ctx;
  const subject = plan.subject ?? inventSubject(ctx);
  const light = sampler.pick(LIGHTING, 'caption-lighting')?.text;
  return `${capitalize(subjectPhrase(subject, plan.additions))}${light ? `, ${light}` : ''}.`;
}

const EVOCATIVE: Readonly<Record<string, readonly string[]>> = {
  winter: ['Snowbound', 'Frostlight', 'Winter'], night: ['Moonlit', 'Midnight'], dusk: ['Twilight', 'Last Light'],
  dawn: ['First Light', 'Daybreak'], cozy: ['Hearthlight', 'Ember'], fantasy: ['Enchanted', 'Forgotten'],
  coast: ['Tidebound', 'Saltwind'], rain: ['Stormbound', 'Rain-Soaked'], dark: ['Hollow', 'Shadowed'],
  space: ['Starfall', 'Far Orbit'], forest: ['Deepwood', 'Evergreen'], urban: ['Neon', 'Street-Level'],
  autumn: ['Amber', 'Ember-Leaf'], spring: ['Blossom', 'Springlight'], summer: ['Sunlit', 'Midsummer'],
};
const SMALL_WORDS = new Set(['a', 'an', 'the', 'of', 'in', 'on', 'at', 'and', 'with', 'by', 'for', 'to']);

function titleCase(text: string): string {
  return text.split(' ').map((w, i) => (i > 0 && SMALL_WORDS.has(w.toLowerCase()) ? w.toLowerCase() : capitalize(w))).join(' ');
}

/** A short title built from the subject's own words and its time, season or mood. */
export function composeTitle(ctx: Context): string {
  const { plan, sampler } = ctx;
  const subject = plan.subject ?? inventSubject(ctx);
  const head = subject.head;
  const [first, setting] = subject.keywords;
  const options: string[] = [];
  const adjective = first && first.split(/\s+/).length > 1 ? first.split(/\s+/)[0] : undefined;
  if (adjective) options.push(`The ${adjective} ${head}`);
  if (setting) options.push(`${head} in the ${setting}`);
  for (const topic of plan.topics.keys()) for (const word of EVOCATIVE[topic] ?? []) options.push(`${word} ${head}`);
  const time = ['dawn', 'dusk', 'night'].find((t) => plan.topics.has(t));
  if (time) options.push(`${head} at ${time}`);
  if (options.length === 0) options.push(`The ${head}`);
  return titleCase(sampler.pickText(options, 'title'));
}
