/**
 * The chunk objects of a streamed completion (docs/service-interface.md 2.9) and their pacing.
 */
import { type ChatChunk, type FinishReason } from '../../../api/chat';

/** What every chunk of one completion shares. */
export interface ChunkMeta {
  id: string;
  created: number;
  model: string;
}

/** The first chunk: role only, content null. It carries `object` too, which 2.9 allows. */
export function roleChunk(meta: ChunkMeta): ChatChunk {
  return {
    id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model,
    choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }],
  };
}

/**
 * A text piece; the last one carries the finish reason. 2.9.4 gives every delta a `role` (only
 * `function_call` is optional), so the role is repeated beside the text.
 */
export function contentChunk(meta: ChunkMeta, content: string, finishReason: FinishReason | null): ChatChunk {
  return {
    id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model,
    choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: finishReason }],
  };
}

/**
 * Waits `ms` unless `signal` aborts first. Resolves true when the wait ran out, false when the
 * signal aborted (before or during the wait). A zero wait does not touch the timer queue.
 */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
