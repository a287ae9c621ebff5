/**
 * Progress on stderr while a run goes: one line per node start, end, cache hit, failure, skip,
 * cancel and retry, with durations. On a terminal, chat text is shown as it streams in.
 */
import type { ExecutorEvent } from '../workers/events';
import { describeCount } from '../nodes/list-flow';
import type { TextSink } from './io';


export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export interface Progress {
  onEvent(event: ExecutorEvent): void;
  /** A line of its own (ends any streamed text first). */
  line(text: string): void;
}

/** A result's notes, after its line: "  (stopped at max_tokens: 50)". */
const noted = (notes: readonly string[] | undefined): string => (notes === undefined || notes.length === 0 ? '' : `  (${notes.join('; ')})`);

const DIM = '\x1b[2m';
const UNDIM = '\x1b[22m';

export function createProgress(out: TextSink): Progress {
  const tty = out.isTTY === true;
  /** Which pool servers were down at their last report, by pool and label: only a change is said. */
  const down = new Map<string, boolean>();
  /** The node whose streamed text the cursor is in the middle of, if any. */
  let streaming: string | undefined;

  const line = (text: string) => {
    if (streaming !== undefined) out.write(`${UNDIM}\n`);
    streaming = undefined;
    out.write(`${text}\n`);
  };
  const status = (word: string, nodeId: string, rest = '') => line(`  ${word.padEnd(9)} ${nodeId}${rest}`);

  return {
    line,
    onEvent(event) {
      switch (event.type) {
        case 'node-started':
          status('started', event.nodeId);
          break;
        case 'node-partial-text':
          if (!tty) break;
          if (streaming !== event.nodeId) {
            if (streaming !== undefined) out.write(`${UNDIM}\n`);
            out.write(`  ${''.padEnd(9)} ${event.nodeId} │ ${DIM}`);
            streaming = event.nodeId;
          }
          out.write(event.delta.replace(/\r?\n/g, `\n  ${''.padEnd(9)} ${' '.repeat(event.nodeId.length)} │ `));
          break;
        case 'node-retry':
          status('retry', event.nodeId, `  attempt ${event.attempt} of ${event.maxAttempts} in ${formatDuration(event.delayMs)}: ${event.reason}`);
          break;
        case 'node-cached':
          status('cached', event.nodeId, `  (${event.apiCallsSaved} request${event.apiCallsSaved === 1 ? '' : 's'} saved)`);
          break;
        case 'node-done':
          if (!event.cached) status('done', event.nodeId, `  ${formatDuration(event.durationMs)}${event.items === undefined ? '' : `, ${event.items} items`}${noted(event.notes)}`);
          // A cached result's notes (its 'cached' line came first) get a line of their own.
          else if (event.notes !== undefined) status('note', event.nodeId, noted(event.notes));
          break;
        case 'node-fan-out':
          status('fan-out', event.nodeId, `  × ${describeCount(event)} (${event.lists.map((l) => `${l.label}: ${l.length}`).join(', ')})`);
          break;
        case 'node-item-done':
          status(event.cached ? 'cached' : 'done', `${event.nodeId} [${event.item + 1}/${event.count}]`, `${event.cached ? '' : `  ${formatDuration(event.durationMs)}`}${noted(event.notes)}`);
          break;
        case 'node-item-failed':
          status('failed', `${event.nodeId} [${event.item + 1}/${event.count}]`, `  after ${formatDuration(event.durationMs)}: ${event.error.message}`);
          break;
        case 'node-failed':
          status('failed', event.nodeId, `  after ${formatDuration(event.durationMs)}: ${event.error.message}`);
          break;
        case 'node-skipped':
          status('skipped', event.nodeId, `  (${event.reason})`);
          break;
        case 'node-bypassed':
          status('bypassed', event.nodeId);
          break;
        case 'node-cancelled':
          status('cancelled', event.nodeId);
          break;
        case 'pool-status':
          for (const server of event.servers) {
            const key = `${event.engines.join(',')}\u0000${server.label}`;
            const was = down.get(key) ?? false;
            down.set(key, server.down);
            if (server.down && !was) {
              const next = server.retryAt === undefined ? '' : `; tried again in ${formatDuration(Math.max(0, server.retryAt - Date.now()))}`;
              status('down', server.label, `  (${event.pool}): not answering, its requests go to the other servers${next}`);
            } else if (!server.down && was) status('up', server.label, `  (${event.pool}): answering again`);
          }
          break;
        default:
          break;
      }
    },
  };
}
