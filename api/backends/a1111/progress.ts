/**
 * Progress while a generation runs, from `GET /sdapi/v1/progress?skip_current_image=true`
 * (without that, each poll would make the server encode its live preview). The server has one
 * progress for whatever it is running, so a job of someone else's that runs first shows too.
 *
 * Source: modules/api/api.py (`progressapi`), modules/shared_state.py (`State.dict`).
 */
import type { Http } from '../../http';
import { readBody } from '../../exchange';
import { abortableSleep } from '../../retry';
import { ProgressSchema } from './schemas';

export interface ProgressPolling {
  /** Ends the polling; resolves once no poll is in flight. */
  stop(): Promise<void>;
}

const PROGRESS = '/sdapi/v1/progress?skip_current_image=true';
/** Progress bodies are a few hundred bytes; a larger one is not a progress answer. */
const MAX_PROGRESS_BYTES = 64 * 1024;

export function pollProgress(http: Http, intervalMs: number, onProgress: (fraction: number, message?: string) => void): ProgressPolling {
  const stopper = new AbortController();
  let last = '';
  const loop = async () => {
    while (!stopper.signal.aborted) {
      await abortableSleep(intervalMs, stopper.signal).catch(() => undefined);
      if (stopper.signal.aborted) return;
      try {
        // One attempt, no retries: a missed poll is made up by the next one.
        const exchange = await http.open({ method: 'GET', path: PROGRESS, accept: 'application/json' }, 1, stopper.signal);
        const { progress, state } = http.parseJson(exchange, await readBody(exchange, MAX_PROGRESS_BYTES, 'refuse'), ProgressSchema);
        const step = state.sampling_step ?? 0;
        const steps = state.sampling_steps ?? 0;
        // Nothing running (job_count 0) reads as progress 0: not worth a word.
        if ((state.job_count ?? 0) === 0 || steps <= 0) continue;
        const message = `step ${Math.min(step, steps)} of ${steps}`;
        const fraction = Math.min(1, Math.max(0, progress));
        const key = `${fraction}|${message}`;
        if (key !== last && !stopper.signal.aborted) {
          last = key;
          onProgress(fraction, message);
        }
      } catch {
        // A failed poll says nothing about the generation; its own request reports failures.
      }
    }
  };
  const running = loop();
  return {
    stop() {
      stopper.abort();
      return running;
    },
  };
}
