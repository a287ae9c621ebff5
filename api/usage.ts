/**
 * What requests used: images received, their relative price, chat tokens. Counted per node as
 * its requests come back (node-api.ts), summed per run (the run summary) and per session
 * (`addRunToSession`, kept by whoever keeps the session: the editor, the CLI).
 */
import type { ChatUsage } from './chat';
import { samplerPriceUnits } from './catalog';

export interface ChatTokens {
  prompt: number;
  completion: number;
  total: number;
}

export interface ApiUsage {
  /** Requests sent to the image API (every attempt the node asked for, failed ones included). */
  imageCalls: number;
  /** Requests sent to the chat API. */
  chatCalls: number;
  /** Images received. */
  images: number;
  /**
   * Relative price of the images received: a regular-sampler image is 1, a premium-sampler one
   * 2 (docs/service-interface.md 2.2); the service's own price per unit is not published.
   */
  priceUnits: number;
  /** Token counts the chat API reported, summed over the calls that reported them. */
  chatTokens: ChatTokens;
  /**
   * Chat calls that ended without a `usage` (a stream of 2.9 need not carry one): their tokens
   * are missing from `chatTokens`, which is then a lower bound.
   */
  chatCallsWithoutUsage: number;
  /**
   * For those calls, an estimate from the text sent and received (about four characters a
   * token, the usual rule for English with chat tokenizers); shown as an estimate, never as a count.
   */
  chatTokensEstimated: ChatTokens;
  /**
   * Money, in US dollars, that image backends reported for their answers (a hosted provider's
   * `cost`, e.g. the Gemini API's reported tokens at Google's published prices), summed over the
   * image calls that reported it: never an estimate.
   */
  reportedUsd: number;
  /** Image calls whose answer reported money (the others are not in `reportedUsd`). */
  imageCallsWithCost: number;
  /**
   * Seconds of GPU time image backends reported billing by (Replicate's `metrics.predict_time` on
   * a model billed per second, as `billed_seconds`), where the API says no price per second.
   */
  billedSeconds: number;
}

export function emptyUsage(): ApiUsage {
  return {
    imageCalls: 0, chatCalls: 0, images: 0, priceUnits: 0, chatTokens: { prompt: 0, completion: 0, total: 0 }, chatCallsWithoutUsage: 0,
    chatTokensEstimated: { prompt: 0, completion: 0, total: 0 }, reportedUsd: 0, imageCallsWithCost: 0,
    billedSeconds: 0,
  };
}

/** Characters per token in the estimate: the usual rule of thumb for English text. */
const CHARS_PER_TOKEN = 4;

/** Roughly how many tokens `text` is, for a chat call whose service reported none. */
export function estimateChatTokens(text: string): number {
  return text.length === 0 ? 0 : Math.max(1, Math.round(text.length / CHARS_PER_TOKEN));
}

/** Adds `b` into `a` (mutating `a`) and returns `a`. */
export function addUsage(a: ApiUsage, b: Readonly<ApiUsage>): ApiUsage {
  a.imageCalls += b.imageCalls;
  a.chatCalls += b.chatCalls;
  a.images += b.images;
  a.priceUnits += b.priceUnits;
  a.chatTokens.prompt += b.chatTokens.prompt;
  a.chatTokens.completion += b.chatTokens.completion;
  a.chatTokens.total += b.chatTokens.total;
  a.chatCallsWithoutUsage += b.chatCallsWithoutUsage;
  // Usage recorded before estimates existed (a cache entry from an older build) has none.
  const estimated = b.chatTokensEstimated as ChatTokens | undefined;
  if (estimated) {
    a.chatTokensEstimated.prompt += estimated.prompt;
    a.chatTokensEstimated.completion += estimated.completion;
    a.chatTokensEstimated.total += estimated.total;
  }
  // Likewise for reported money (absent before backends reported any).
  a.reportedUsd += (b.reportedUsd as number | undefined) ?? 0;
  a.imageCallsWithCost += (b.imageCallsWithCost as number | undefined) ?? 0;
  a.billedSeconds = ((a.billedSeconds as number | undefined) ?? 0) + ((b.billedSeconds as number | undefined) ?? 0);
  return a;
}

/**
 * Counts an image response: `count` images made with `sampler` (the API's default when absent),
 * the money the backend reported for it, when it did, and the GPU seconds it reported billing by.
 */
export function countImages(usage: ApiUsage, count: number, sampler: string | undefined, cost?: unknown, billedSeconds?: unknown): void {
  usage.images += count;
  usage.priceUnits += count * samplerPriceUnits(sampler ?? 'DDIM');
  const amount = reportedAmount(cost);
  if (amount !== undefined) {
    usage.reportedUsd += amount;
    usage.imageCallsWithCost++;
  }
  if (typeof billedSeconds === 'number' && Number.isFinite(billedSeconds) && billedSeconds > 0) {
    usage.billedSeconds = ((usage.billedSeconds as number | undefined) ?? 0) + billedSeconds;
  }
}

/** Dollars as a person reads them: $0.0390 below a dollar (image prices are cents), $12.50 above. */
export function formatUsd(amount: number): string {
  return `$${amount.toFixed(amount < 1 ? 4 : 2)}`;
}

/**
 * The money line of a run or a session: what backends reported, and how many image calls that
 * covers, then the GPU seconds reported for time-billed models (their price per second is not
 * reported, so they are not turned into dollars); undefined when none reported either.
 */
export function reportedMoneyText(usage: Pick<ApiUsage, 'reportedUsd' | 'imageCallsWithCost' | 'imageCalls'> & { billedSeconds?: number }): string | undefined {
  const parts: string[] = [];
  if (usage.imageCallsWithCost > 0) {
    const all = usage.imageCallsWithCost >= usage.imageCalls;
    parts.push(`${formatUsd(usage.reportedUsd)} reported by the backend${all ? '' : ` (${usage.imageCallsWithCost} of ${usage.imageCalls} image calls reported it)`}`);
  }
  const seconds = usage.billedSeconds ?? 0;
  if (seconds > 0) parts.push(`${seconds.toFixed(1)} s of GPU time reported, billed by the second at a rate the API does not report`);
  return parts.length === 0 ? undefined : parts.join('; ');
}

/** The amount of a response's `cost: { amountUsd, reported: true }`, when it has that shape. */
export function reportedAmount(cost: unknown): number | undefined {
  if (typeof cost !== 'object' || cost === null) return undefined;
  const { amountUsd, reported } = cost as { amountUsd?: unknown; reported?: unknown };
  return reported === true && typeof amountUsd === 'number' && Number.isFinite(amountUsd) && amountUsd >= 0 ? amountUsd : undefined;
}

/**
 * Counts the end of a chat call, with the usage it reported, if any; without one, `text` (what was
 * sent and what came back) gives the estimate.
 */
export function countChatUsage(usage: ApiUsage, reported: ChatUsage | null | undefined, text?: { sent: string; received: string }): void {
  if (!reported) {
    usage.chatCallsWithoutUsage++;
    if (text) {
      const prompt = estimateChatTokens(text.sent);
      const completion = estimateChatTokens(text.received);
      usage.chatTokensEstimated.prompt += prompt;
      usage.chatTokensEstimated.completion += completion;
      usage.chatTokensEstimated.total += prompt + completion;
    }
    return;
  }
  usage.chatTokens.prompt += reported.prompt_tokens;
  usage.chatTokens.completion += reported.completion_tokens;
  usage.chatTokens.total += reported.total_tokens;
}

/** Whether a stored value has the shape of an ApiUsage (a cache entry read back from disk). */
export function isApiUsage(value: unknown): value is ApiUsage {
  if (typeof value !== 'object' || value === null) return false;
  const u = value as Record<string, unknown>;
  const t = u.chatTokens as Record<string, unknown> | null | undefined;
  const counts = [u.imageCalls, u.chatCalls, u.images, u.priceUnits, u.chatCallsWithoutUsage, t?.prompt, t?.completion, t?.total];
  return typeof t === 'object' && t !== null && counts.every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0);
}

/** A session's running totals, kept across runs by the editor (or any caller). */
export interface SessionUsage {
  runs: number;
  /** What the session's requests used. */
  used: ApiUsage;
  /** Requests the cache answered instead of the APIs. */
  apiCallsSaved: number;
  /** What those cached results had used when first made (results cached before usage was recorded count 0). */
  saved: ApiUsage;
}

export function emptySessionUsage(): SessionUsage {
  return { runs: 0, used: emptyUsage(), apiCallsSaved: 0, saved: emptyUsage() };
}

/** The session with one more run's summary added; pure (the input is not changed). */
export function addRunToSession(
  session: Readonly<SessionUsage>,
  summary: { usage: ApiUsage; apiCallsSaved: number; usageSaved: ApiUsage },
): SessionUsage {
  return {
    runs: session.runs + 1,
    used: addUsage(addUsage(emptyUsage(), session.used), summary.usage),
    apiCallsSaved: session.apiCallsSaved + summary.apiCallsSaved,
    saved: addUsage(addUsage(emptyUsage(), session.saved), summary.usageSaved),
  };
}

/** What a run asks of the APIs, as a cost estimate counts it. */
export interface CallFigures {
  apiCalls: number;
  imageCalls: number;
  chatCalls: number;
  images: number;
  priceUnits: number;
}

/** `a`, and `times` times `b`: a batch's first run and its later ones, or node after node. Only these five figures are kept. */
export function addFigures(a: CallFigures, b: CallFigures, times = 1): CallFigures {
  return {
    apiCalls: a.apiCalls + b.apiCalls * times,
    imageCalls: a.imageCalls + b.imageCalls * times,
    chatCalls: a.chatCalls + b.chatCalls * times,
    images: a.images + b.images * times,
    priceUnits: a.priceUnits + b.priceUnits * times,
  };
}
