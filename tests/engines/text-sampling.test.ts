/** Temperature, top_p and the repetition penalties of the local chat engine. */
import { describe, expect, it } from 'vitest';
import { generate } from '../../server/engines/text/generate';
import { Sampler } from '../../server/engines/text/sampling';
import { bank } from '../../server/engines/text/vocab/bank';
import { CABIN, PROMPT_WRITER, distinctRatio, reply, request, system, user } from './text-helpers';

const cabin = [system(PROMPT_WRITER), user(CABIN)];

/** How many different texts a request gives over a fixed set of sampling seeds. */
function distinctOver(extra: Parameters<typeof request>[1], seeds = 24): number {
  const texts = new Set<string>();
  for (let seed = 1; seed <= seeds; seed++) texts.add(generate(request(cabin, extra), seed * 7919).text);
  return texts.size;
}

describe('temperature and top_p', () => {
  it('is deterministic at temperature 0, whatever the seed, stream flag or model alias', () => {
    const first = reply(cabin);
    expect(reply(cabin)).toBe(first);
    expect(generate(request(cabin, { stream: true, model: 'local' }), 12345).text).toBe(first);
  });

  it('answers a different conversation differently at temperature 0', () => {
    expect(reply([system(PROMPT_WRITER), user('a lighthouse on a stormy coast at night')])).not.toBe(reply(cabin));
  });

  it('varies with the sampling seed above temperature 0, staying on the subject', () => {
    const texts = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) texts.add(generate(request(cabin, { temperature: 1.2 }), seed * 104729).text);
    expect(texts.size).toBeGreaterThanOrEqual(3);
    for (const t of texts) expect(t.startsWith('A cozy cabin in the snowy woods at dusk, ')).toBe(true);
  });

  it('answers the same request the same way every time above temperature 0 (the seed comes from the request)', () => {
    const first = reply(cabin, { temperature: 1.2 });
    for (let i = 0; i < 5; i++) expect(reply(cabin, { temperature: 1.2 })).toBe(first);
    expect(generate(request(cabin, { temperature: 1.2, stream: true })).text).toBe(first);
    const others = new Set([0.9, 1, 1.1, 1.3, 1.5].map((temperature) => reply(cabin, { temperature })));
    expect(others.size).toBeGreaterThanOrEqual(2);
  });

  it('varies more at higher temperature', () => {
    const low = distinctOver({ temperature: 0.2 });
    const high = distinctOver({ temperature: 1.8 });
    expect(high).toBeGreaterThan(low);
    expect(high).toBeGreaterThanOrEqual(12);
  });

  it('narrows choices with top_p: a tiny nucleus keeps only the best phrase', () => {
    const greedy = reply(cabin);
    for (let seed = 1; seed <= 10; seed++) expect(generate(request(cabin, { temperature: 1.2, top_p: 0.01 }), seed).text).toBe(greedy);
    expect(distinctOver({ temperature: 1.2, top_p: 0.5 })).toBeLessThan(distinctOver({ temperature: 1.2, top_p: 1 }));
  });
});

describe('repetition penalties', () => {
  const tenPrompts = [user(`Write ten image prompts for ${CABIN}`)];
  const ratio = (frequency_penalty: number, presence_penalty: number) =>
    distinctRatio(reply(tenPrompts, { frequency_penalty, presence_penalty }));

  it('raise the share of distinct words in a long generation', () => {
    const none = ratio(0, 0);
    expect(ratio(1, 1)).toBeGreaterThan(none + 0.1);
    expect(ratio(1, 0)).toBeGreaterThan(none);
    expect(ratio(0, 1)).toBeGreaterThan(none);
  });

  it('leave a single short prompt on its subject', () => {
    expect(reply(cabin, { frequency_penalty: 1, presence_penalty: 1 }).startsWith('A cozy cabin in the snowy woods at dusk, ')).toBe(true);
  });
});

describe('Sampler', () => {
  const phrases = bank([['warm firelight', 'cozy'], ['cold moonlight', 'night'], ['soft light', '']]);
  const options = {
    jitterSeed: 1, seed: 1, temperature: 0, topP: 1, frequencyPenalty: 0, presencePenalty: 0,
    topics: new Map([['cozy', 1]]), excluded: new Set<string>(), avoid: new Set<string>(),
  };

  it('takes the phrase that fits the topics at temperature 0', () => {
    expect(new Sampler(options).pick(phrases, 'x')?.text).toBe('warm firelight');
  });

  it('never picks a phrase with an excluded word, and draws without repeats', () => {
    const sampler = new Sampler({ ...options, excluded: new Set(['firelight']) });
    expect(sampler.pickMany(phrases, 5, 'x').map((p) => p.text).sort()).toEqual(['cold moonlight', 'soft light']);
  });

  it('avoids words already written when penalised', () => {
    const sampler = new Sampler({ ...options, topics: new Map(), presencePenalty: 1, frequencyPenalty: 1 });
    sampler.emit('soft light everywhere');
    const pool = bank([['soft light', ''], ['warm glow', '']]);
    expect(sampler.pick(pool, 'y')?.text).toBe('warm glow');
  });
});
