/**
 * Questions from the run to the person: may a node run more times than the fan-out limit allows?
 * The worker asks (workers/run-fan-out.ts) and waits; the page queues the questions and a dialog
 * (FanOutDialog.tsx) answers them one at a time. A question nobody answers before the run ends
 * (a cancel, a failure) is answered no.
 */
import type { FanOutAsk } from '../../workers/run-fan-out';
import { createSmallStore, type SmallStore } from '../ui/small-store';

export interface PendingAsk extends FanOutAsk {
  answer(yes: boolean): void;
}

export interface FanOutAsks {
  /** The question shown now, if any. */
  readonly current: SmallStore<PendingAsk | undefined>;
  /** Puts a question; resolves with the answer. */
  ask(question: FanOutAsk): Promise<boolean>;
  /** Answers every question still open with no (the run they belong to is over). */
  dropAll(): void;
}

export function createFanOutAsks(): FanOutAsks {
  const current = createSmallStore<PendingAsk | undefined>(undefined);
  const queue: PendingAsk[] = [];
  const showNext = () => current.set(queue[0]);
  return {
    current,
    ask(question) {
      return new Promise<boolean>((resolve) => {
        const pending: PendingAsk = {
          ...question,
          answer(yes) {
            const at = queue.indexOf(pending);
            if (at < 0) return;
            queue.splice(at, 1);
            resolve(yes);
            showNext();
          },
        };
        queue.push(pending);
        if (queue.length === 1) showNext();
      });
    },
    dropAll() {
      for (const pending of [...queue]) pending.answer(false);
    },
  };
}
