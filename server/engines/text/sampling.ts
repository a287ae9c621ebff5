/**
 * How the engine chooses among phrases: every candidate gets a score (how well its topics fit the
 * conversation, a small fixed jitter so ties break differently per conversation, minus penalties
 * for repetition), then temperature 0 takes the best, and higher temperatures sample a softmax of
 * the scores, narrowed to the nucleus of `top_p`.
 */
import { hashString, Rng } from '../random';
import { type Phrase } from './vocab/bank';
import { CONFLICT_GROUPS, STYLE_TOPICS, wordsOf } from './vocab/topics';

/** Words too common to count as repetition. */
const FUNCTION_WORDS = new Set(['a', 'an', 'the', 'and', 'of', 'in', 'on', 'at', 'to', 'with', 'by', 'from',
  'for', 'its', 'it', 'is', 'as', 'into', 'over', 'through', 'or', 'that', 'this', 'head']);

export function contentWords(text: string): string[] {
  return wordsOf(text).filter((w) => !FUNCTION_WORDS.has(w));
}

/** Bank phrases live as long as the process, so their words are worked out once. */
const phraseWords = new WeakMap<Phrase, readonly string[]>();
function wordsOfPhrase(p: Phrase): readonly string[] {
  let words = phraseWords.get(p);
  if (!words) {
    words = contentWords(p.text);
    phraseWords.set(p, words);
  }
  return words;
}

export interface SamplerOptions {
  /** Seeds the fixed jitter: a hash of the conversation, so temperature 0 is deterministic. */
  jitterSeed: number;
  /** Seeds sampling above temperature 0. */
  seed: number;
  temperature: number;
  topP: number;
  frequencyPenalty: number;
  presencePenalty: number;
  /** Topic weights of the conversation (explicit user wishes weigh more than inferred ones). */
  topics: ReadonlyMap<string, number>;
  /** Words the user asked to leave out: phrases containing them are never chosen. */
  excluded: ReadonlySet<string>;
  /** Words of earlier answers, avoided when the user asked for another version. */
  avoid: ReadonlySet<string>;
}

/** How much a full topic match is worth against the jitter and the generic baseline. */
const TOPIC_WEIGHT = 1;
const STYLE_MATCH = 4;
const GENERIC_BASELINE = 0.35;
const CONFLICT_COST = 1.5;
/** A phrase made for other topics only ("natural skin texture" for a landscape) is kept out of reach. */
const MISMATCH_COST = 2;
const JITTER = 0.6;
/** The engine's own reluctance to use one phrase twice in an answer, before any penalty. */
const REUSE_COST = 1;
const PENALTY_SCALE = 1.5;
/** Sharpens scores before the softmax so temperature 1 still mostly stays on topic. */
const SHARPNESS = 3;

export class Sampler {
  private readonly rng: Rng;
  private readonly wordCounts = new Map<string, number>();
  private readonly phraseUses = new Map<string, number>();

  constructor(private readonly opts: SamplerOptions) {
    this.rng = new Rng(opts.seed);
  }

  /** Records text written into the answer, so penalties see it. */
  emit(text: string): void {
    for (const w of contentWords(text)) this.wordCounts.set(w, (this.wordCounts.get(w) ?? 0) + 1);
  }

  /** Picks one phrase (and records it as written), or undefined when every candidate is excluded. */
  pick<T extends Phrase>(bank: readonly T[], slot: string): T | undefined {
    return this.pickMany(bank, 1, slot)[0];
  }

  /** Picks up to `n` different phrases, recording each as written. */
  pickMany<T extends Phrase>(bank: readonly T[], n: number, slot: string): T[] {
    const pool = bank.filter((p) => !this.isExcluded(p.text));
    const chosen: T[] = [];
    for (let k = 0; k < n && pool.length > 0; k++) {
      const i = this.choose(pool.map((p) => this.score(p, slot)));
      const [p] = pool.splice(i, 1);
      if (!p) break;
      chosen.push(p);
      this.phraseUses.set(p.text, (this.phraseUses.get(p.text) ?? 0) + 1);
      for (const w of wordsOfPhrase(p)) this.wordCounts.set(w, (this.wordCounts.get(w) ?? 0) + 1);
    }
    return chosen;
  }

  /** Chooses among plain alternatives (sentence templates, wordings) with the same rules. */
  pickText(options: readonly string[], slot: string): string {
    const picked = this.pick(options.map((text) => ({ text, tags: [] })), slot);
    return picked?.text ?? options[0] ?? '';
  }

  /** A value in [0, 1) from the sampling stream (fixed per conversation at temperature 0). */
  chance(slot: string): number {
    if (this.opts.temperature === 0) return hashString(slot, this.opts.jitterSeed) / 4294967296;
    return this.rng.next();
  }

  private isExcluded(text: string): boolean {
    if (this.opts.excluded.size === 0) return false;
    return wordsOf(text).some((w) => this.opts.excluded.has(w) || this.opts.excluded.has(w.replace(/s$/, '')));
  }

  private score(p: Phrase, slot: string): number {
    const { topics } = this.opts;
    let generic = p.tags.length === 0;
    let matched = false;
    let required = 0;
    let requiredMet = false;
    const gains: number[] = [];
    for (const raw of p.tags) {
      const isRequired = raw.startsWith('!');
      const tag = isRequired ? raw.slice(1) : raw;
      if (tag === 'any') generic = true;
      const weight = topics.get(tag) ?? 0;
      if (weight > 0) matched = true;
      if (isRequired) {
        required += 1;
        if (weight > 0) requiredMet = true;
      }
      if (weight > 0) gains.push(weight * (STYLE_TOPICS.has(tag) ? STYLE_MATCH : TOPIC_WEIGHT));
    }
    // Each further matching topic counts half as much as the one before, so several good phrases
    // stay close enough for temperature to choose among them.
    let s = gains.sort((a, b) => b - a).reduce((sum, g, i) => sum + g / 2 ** i, 0);
    if (generic) s += GENERIC_BASELINE;
    else if (!matched || (required > 0 && !requiredMet)) s -= MISMATCH_COST;
    for (const group of CONFLICT_GROUPS) {
      const mine = p.tags.filter((t) => group.includes(t));
      if (mine.length > 0 && !mine.some((t) => topics.has(t)) && group.some((t) => topics.has(t))) s -= CONFLICT_COST;
    }
    s += (hashString(`${slot}\u0000${p.text}`, this.opts.jitterSeed) / 4294967296) * JITTER;
    s -= (this.phraseUses.get(p.text) ?? 0) * REUSE_COST;
    return s - this.repetitionPenalty(p);
  }

  private repetitionPenalty(p: Phrase): number {
    const words = wordsOfPhrase(p);
    if (words.length === 0) return 0;
    const { frequencyPenalty, presencePenalty, avoid } = this.opts;
    let cost = 0;
    for (const w of words) {
      const count = this.wordCounts.get(w) ?? 0;
      cost += frequencyPenalty * count + presencePenalty * (count > 0 ? 1 : 0);
      if (avoid.has(w)) cost += 0.6;
    }
    return (cost / words.length) * PENALTY_SCALE;
  }

  /** Index of the chosen score: argmax at temperature 0, else nucleus sampling of a softmax. */
  private choose(scores: readonly number[]): number {
    let best = 0;
    for (let i = 1; i < scores.length; i++) if (scores[i]! > scores[best]!) best = i;
    const { temperature, topP } = this.opts;
    if (temperature === 0 || scores.length === 1) return best;
    const max = scores[best]!;
    const weights = scores.map((s, i) => ({ i, w: Math.exp(((s - max) * SHARPNESS) / temperature) }));
    weights.sort((a, b) => b.w - a.w);
    const total = weights.reduce((sum, x) => sum + x.w, 0);
    const nucleus: typeof weights = [];
    let mass = 0;
    for (const x of weights) {
      nucleus.push(x);
      mass += x.w / total;
      if (mass >= topP) break;
    }
    const nucleusTotal = nucleus.reduce((sum, x) => sum + x.w, 0);
    let r = this.rng.next() * nucleusTotal;
    for (const x of nucleus) {
      r -= x.w;
      if (r < 0) return x.i;
    }
    return nucleus[nucleus.length - 1]!.i;
  }
}
