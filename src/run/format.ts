import type { PriceQuote } from '../../api/backends/types';
import type { ApiUsage } from '../../api/usage';
import type { FanOutProgress } from './run-state';
/** Durations and counts as the run badges and the run panel print them. */

/** 0.4 s, 12.3 s, 2 min 05 s. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const total = Math.round(ms / 1000);
  const minutes = Math.floor(total / 60);
  return `${minutes} min ${String(total % 60).padStart(2, '0')} s`;
}

/** "1 call", "3 calls". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** 840 kB, 2.4 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The chat tokens a run or a session used: what the service reported, and an estimate for the rest. */
export function chatTokensText(used: Pick<ApiUsage, 'chatTokens' | 'chatCallsWithoutUsage' | 'chatTokensEstimated'>): { text: string; title?: string } {
  if (used.chatCallsWithoutUsage === 0) return { text: String(used.chatTokens.total) };
  // Usage kept by an older build has no estimate.
  const estimated = (used.chatTokensEstimated as ApiUsage['chatTokensEstimated'] | undefined)?.total ?? 0;
  const title = `${plural(used.chatCallsWithoutUsage, 'chat call')} did not report usage (a stream need not); their tokens are estimated from the text, about 4 characters a token`;
  if (used.chatTokens.total === 0) return { text: estimated > 0 ? `≈ ${estimated} (estimated)` : 'not reported by the service', title };
  return { text: estimated > 0 ? `${used.chatTokens.total} + ≈ ${estimated} (estimated)` : `${used.chatTokens.total} or more`, title };
}

/** A node that runs once per item: "3 of 8 done", "5 of 24 (8 × 3 = 24) done, 2 cached; 1 failed (item 4)". */
export function describeItems(f: FanOutProgress): string {
  const failed = Object.keys(f.failed).map(Number).sort((a, b) => a - b);
  const runs = f.description === String(f.count) ? '' : ` (${f.description})`;
  const cached = f.cached > 0 ? `, ${f.cached} cached` : '';
  const failures = failed.length === 0 ? '' : `; ${failed.length} failed (item${failed.length === 1 ? '' : 's'} ${failed.map((i) => i + 1).join(', ')})`;
  return `${f.done} of ${f.count}${runs} done${cached}${failures}`;
}

/** "Restored from cache · made 14:32" (with the date when not today). */
export function restoredText(at: number | null, now = new Date()): string {
  if (at === null) return 'Restored from cache';
  const made = new Date(at);
  const sameDay = made.toDateString() === now.toDateString();
  const time = made.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return `Restored from cache · made ${sameDay ? time : `${made.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}`}`;
}

/** $0.003, $0.012, $1.23: three significant figures at most, for prices of a few cents. */
export function formatUsd(amount: number): string {
  return `$${amount >= 1 ? amount.toFixed(2) : String(Number(amount.toPrecision(3)))}`;
}

/** "≈ $0.003 per image · fal.ai/pricing, 2026-11-01", or "price unknown: why". */
export function quoteText(quote: PriceQuote): string {
  if (!quote.known) return `price unknown: ${quote.why}`;
  const source = quote.source.replace(/^https?:\/\//, '').replace(/\/$/, '');
  return `≈ ${formatUsd(quote.amountUsd)} per ${quote.per} · ${source}, ${quote.date}`;
}
