/** What the local chat engine writes: prompts, lists, descriptions, answers, and how it follows the conversation. */
import { describe, expect, it } from 'vitest';
import { STYLES } from '../../server/engines/text/vocab/craft';
import { NEGATIVE_TERMS } from '../../server/engines/text/vocab/negative';
import { LIGHTING } from '../../server/engines/text/vocab/scene';
import { CABIN, PROMPT_WRITER, converse, reply, system, user, wordCount } from './text-helpers';

describe('image prompts', () => {
  const cabin = reply([system(PROMPT_WRITER), user(CABIN)]);

  it('keeps the subject in the user\'s words and reads as a prompt', () => {
    expect(cabin.startsWith('A cozy cabin in the snowy woods at dusk, ')).toBe(true);
    expect(cabin).toMatch(/cabin/);
    expect(cabin).toMatch(/snow/);
    expect(cabin).not.toMatch(/\n/);
    expect(cabin.split(', ').length).toBeGreaterThanOrEqual(7);
    expect(cabin).not.toMatch(/[.!?]$/);
  });

  it('adds lighting and a style from the phrase banks, chosen for the scene', () => {
    const light = LIGHTING.find((l) => cabin.includes(l.text));
    expect(light).toBeDefined();
    expect(light!.tags.some((t) => ['winter', 'dusk', 'cozy', 'rustic', 'forest'].includes(t.replace('!', '')))).toBe(true);
    expect(STYLES.some((s) => cabin.includes(s.text))).toBe(true);
  });

  it('finds the subject inside a polite request and honours "short" and "in one line"', () => {
    const text = reply([user('Could you write me a short prompt for a portrait of an old fisherman, in one line?')]);
    expect(text.startsWith('A portrait of an old fisherman, ')).toBe(true);
    expect(text).not.toMatch(/in one line|\n/);
    expect(wordCount(text)).toBeLessThan(wordCount(cabin));
  });

  it('honours comma-separated keywords and a word limit from the system prompt', () => {
    const text = reply([system('Answer in one line with comma-separated keywords, no more than 20 words.'), user('a red fox in an autumn forest at dawn')]);
    expect(text.startsWith('red fox, autumn forest, dawn')).toBe(true);
    expect(wordCount(text)).toBeLessThanOrEqual(20);
    expect(text).not.toMatch(/[\n.]/);
  });

  it('keeps under "no more than N words" and "lowercase"', () => {
    const text = reply([system(PROMPT_WRITER), user(`${CABIN}. No more than 12 words, lowercase.`)]);
    expect(wordCount(text)).toBeLessThanOrEqual(12);
    expect(text).toBe(text.toLowerCase());
    expect(text).toMatch(/cabin/);
  });

  it('reads labelled and "instruction: subject" requests', () => {
    expect(reply([user('Subject: an old library with floating books. Style: watercolor')])).toMatch(/^An old library with floating books, .*watercolor/);
    expect(reply([user('Expand this into a detailed prompt: knight, dragon, mountain')])).toMatch(/^Knight, dragon, mountain, /);
    expect(reply([user('Write an SDXL prompt for: a lighthouse at night')])).toMatch(/^A lighthouse at night, /);
    expect(reply([user('Describe the image in one sentence: a red bicycle leaning on a wall')])).toMatch(/^A red bicycle leaning on a wall, [^.]+\.$/);
  });

  it('invents a subject when asked to surprise', () => {
    const text = reply([user('surprise me')]);
    expect(text.split(', ').length).toBeGreaterThanOrEqual(5);
  });
});

describe('other requests', () => {
  it('lists the asked number of fitting colours, with a lead-in naming the scene', () => {
    const lines = reply([user('list three colours for a cozy cabin at dusk')]).split('\n');
    expect(lines[0]).toBe('Here are three colours that suit a cozy cabin at dusk:');
    expect(lines.slice(1)).toHaveLength(3);
    lines.slice(1).forEach((line, i) => expect(line).toMatch(new RegExp(`^${i + 1}\\. [A-Z][a-z -]+: .+`)));
  });

  it('says so when it lists fewer items than asked, and speaks of one item in the singular', () => {
    const many = reply([user('list 99 colours')]).split('\n');
    expect(many[0]).toBe('Here are 20 colours (20 is the most I list at once):');
    expect(many.slice(1)).toHaveLength(20);
    expect(reply([user('list 1 colour for a cabin at dusk')])).toMatch(/^Here is one colour that suits a cabin at dusk:\n1\. [^\n]+$/);
  });

  it('lists on one line when told to, and lists plain categories', () => {
    const text = reply([user('list three colours for a cabin, in one line')]);
    expect(text).not.toMatch(/\n/);
    expect(text).toMatch(/^[A-Z][\w -]+, [\w -]+ and [\w -]+\.$/);
    expect(reply([user('list five flowers')]).split('\n').slice(1)).toHaveLength(5);
  });

  it('writes several distinct prompts when asked for them', () => {
    const lines = reply([user('Write four image prompts for a dragon over a medieval castle')]).split('\n').slice(1);
    expect(lines).toHaveLength(4);
    expect(new Set(lines).size).toBe(4);
    for (const line of lines) expect(line).toMatch(/^\d\. A dragon over a medieval castle, /);
  });

  it('describes a scene in sentences, and in exactly the number asked for', () => {
    const text = reply([user('describe a lighthouse on a stormy coast at night')]);
    expect(text).toMatch(/lighthouse on a stormy coast at night/);
    expect(text.match(/[.!?](?=\s|$)/g)!.length).toBeGreaterThanOrEqual(4);
    const three = reply([user('Describe a neon-lit street market in the rain in 3 sentences')]);
    expect(three.match(/[.!?](?=\s|$)/g)).toHaveLength(3);
    expect(three).not.toMatch(/in 3 sentences/);
  });

  it('rewrites the conversation as a negative prompt that fits the scene', () => {
    const text = converse([CABIN, 'rewrite as negative prompt']);
    const terms = text.split(', ');
    expect(text).not.toMatch(/\n|cabin/);
    expect(terms.length).toBeGreaterThanOrEqual(8);
    const fitting = NEGATIVE_TERMS.filter((t) => t.tags.some((tag) => ['winter', 'dusk', 'cozy'].includes(tag))).map((t) => t.text);
    expect(terms.some((t) => fitting.includes(t))).toBe(true);
  });

  it('turns the user\'s own wishes into negative terms, and adds anatomy terms for portraits', () => {
    expect(reply([user('Rewrite as negative prompt: no people, no text, nothing blurry')]).startsWith('people, text, blurry, ')).toBe(true);
    expect(reply([user('Write a negative prompt for: a perfume bottle')])).not.toMatch(/perfume/);
    expect(reply([user('Write a negative prompt for a portrait of an old woman')])).toMatch(/fingers|hands|anatomy|face|eyes/);
  });

  it('answers questions about the API and about a scene', () => {
    expect(reply([user('what is cfg scale?')])).toMatch(/default is 12/);
    expect(reply([user('Which samplers cost more?')])).toMatch(/twice/);
    expect(reply([user('which lens should I use for a portrait of an old fisherman?')])).toMatch(/an 85mm lens/);
  });

  it('says plainly what it cannot do', () => {
    expect(reply([user('translate this into French: hello')])).toMatch(/^I can't translate text here: .*offline/);
    expect(reply([user('what is the capital of France?')])).toMatch(/^I can't answer that reliably/);
    expect(reply([user('hi')])).toMatch(/offline.*stand-in/);
  });

  it('gives a title and a caption', () => {
    expect(converse([CABIN, 'give it a title'])).toMatch(/^[A-Z][\w-]*(?: [\w-]+){0,5}$/);
    expect(reply([user('write a caption for a cat sleeping on a windowsill')])).toMatch(/^A cat sleeping on a windowsill, .+\.$/);
  });
});

describe('later turns refine earlier ones', () => {
  it('changes the time of day in the subject', () => {
    const text = converse([CABIN, 'make it night']);
    expect(text).toMatch(/^A cozy cabin in the snowy woods at night, /);
    expect(text).not.toMatch(/at dusk/);
  });

  it('adds things, restyles, drops what the user removes, and changes season', () => {
    expect(converse([CABIN, 'add a red fox in the foreground'])).toMatch(/^A cozy cabin in the snowy woods at dusk, with a red fox in the foreground, /);
    expect(converse([CABIN, 'in watercolor'])).toMatch(/watercolor/);
    expect(converse([CABIN, 'without the smoke'])).not.toMatch(/smoke/);
    expect(converse([CABIN, 'make it summer'])).not.toMatch(/snow/);
  });

  it('swaps a word of the subject, keeping its article and adjectives', () => {
    expect(converse([CABIN, 'replace the cabin with a castle'])).toMatch(/^A cozy castle in the snowy woods at dusk, /);
    expect(converse([CABIN, 'replace the cabin with an igloo'])).toMatch(/^A cozy igloo in the snowy woods at dusk, /);
  });

  it('starts over when a later turn names a new subject', () => {
    const text = converse([CABIN, 'now a lighthouse in a storm']);
    expect(text).toMatch(/^A lighthouse in a storm, /);
    expect(text).not.toMatch(/cabin/);
  });

  it('gives a different take on "another one", even at temperature 0', () => {
    const first = converse([CABIN]);
    expect(converse([CABIN, 'another one'])).not.toBe(first);
  });

  it('keeps the subject for a later list request', () => {
    expect(converse([CABIN, 'list three colours'])).toMatch(/^Here are three colours that suit a cozy cabin in the snowy woods at dusk:/);
  });
});
