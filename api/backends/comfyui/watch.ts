/**
 * Follows a queued prompt to its end. ComfyUI's history (`GET /history/{id}`) is the judge of
 * when a run is over: a prompt leaves the queue and enters the history at once (execution.py
 * `PromptQueue.task_done`). The WebSocket, when there is one, reports the steps and says when to
 * look; without one, the queue and history are polled.
 */
import type { ImageCallOptions } from '../types';
import type { ComfyGraph } from './graph';
import type { ExecutionFailure } from './errors';
import type { ComfyMessage, MessageFeed } from './socket';
import type { HistoryEntry, Transport } from './transport';

export interface WatchOptions {
  transport: Transport;
  graph: ComfyGraph;
  promptId: string;
  feed: MessageFeed | undefined;
  /** Between looks at the queue without a socket. */
  pollMs: number;
  /** Between looks with a socket, in case a message was lost. */
  safetyPollMs: number;
  signal?: AbortSignal;
  onProgress?: ImageCallOptions['onProgress'];
}

export type Outcome =
  | { kind: 'done'; entry: HistoryEntry }
  | { kind: 'failed'; failure: ExecutionFailure }
  | { kind: 'interrupted' }
  | { kind: 'gone' };

/** What the watcher has seen, read by the canceller: a running prompt needs /interrupt. */
export interface WatchState {
  running: boolean;
}

class Aborted extends Error {}

/** Resolves after `ms`, on the feed's next message or close; rejects when `signal` aborts. */
function wait(ms: number, feed: MessageFeed | undefined, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Aborted());
      return;
    }
    const timer = setTimeout(() => done(), ms);
    const unwake = feed === undefined || feed.closed ? () => {} : feed.onWake(() => done());
    const onAbort = () => done(new Aborted());
    signal?.addEventListener('abort', onAbort, { once: true });
    function done(error?: Error) {
      clearTimeout(timer);
      unwake();
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      else reject(error);
    }
  });
}

/** Overall progress across the samplers (a refiner's steps follow the base's). */
function progressOf(graph: ComfyGraph, node: unknown, value: number, max: number): [number, string] | undefined {
  const total = graph.samplers.reduce((sum, s) => sum + s.steps, 0);
  let before = 0;
  for (const sampler of graph.samplers) {
    if (sampler.node === node) {
      const done = before + (max > 0 ? Math.min(value / max, 1) * sampler.steps : 0);
      return [total > 0 ? done / total : 0, `step ${Math.round(done)} of ${total}`];
    }
    before += sampler.steps;
  }
  return undefined;
}

export async function watchRun(o: WatchOptions, state: WatchState): Promise<Outcome> {
  const { transport, graph, promptId, signal } = o;
  let lastMessage = '';
  const report = (fraction: number, message: string) => {
    if (message === lastMessage) return;
    lastMessage = message;
    o.onProgress?.(fraction, message);
  };
  let failure: ExecutionFailure | undefined;
  let interrupted = false;
  let finished = false;
  // Without a socket, look at once; with one, only when it says the run ended (or now and then).
  let lookAfter = o.feed === undefined ? 0 : Date.now() + o.safetyPollMs;

  const handle = (message: ComfyMessage) => {
    const data = message.data;
    // The socket is this run's own (its client id); older ComfyUIs send no prompt_id at all.
    if (data.prompt_id !== undefined && data.prompt_id !== promptId) return;
    switch (message.type) {
      case 'execution_start':
        state.running = true;
        report(0, 'started in ComfyUI');
        break;
      case 'progress': {
        const step = progressOf(graph, data.node, Number(data.value), Number(data.max));
        if (step !== undefined) report(...step);
        break;
      }
      case 'executing':
        if (data.node === null) finished = true;
        else state.running = true;
        break;
      case 'execution_error':
        failure = data as ExecutionFailure;
        finished = true;
        break;
      case 'execution_interrupted':
        interrupted = true;
        finished = true;
        break;
      case 'execution_success':
        finished = true;
        break;
    }
  };

  for (;;) {
    for (const message of o.feed?.drain() ?? []) handle(message);
    const socketAlive = o.feed !== undefined && !o.feed.closed;
    if (finished || !socketAlive || Date.now() >= lookAfter) {
      const queued = await transport.queueState(promptId, { signal });
      if (queued.state === 'absent') {
        const entry = await transport.history(promptId, { signal });
        if (entry === undefined) return { kind: 'gone' };
        if (failure !== undefined) return { kind: 'failed', failure };
        if (interrupted) return { kind: 'interrupted' };
        return outcomeOf(entry);
      }
      state.running ||= queued.state === 'running';
      if (!socketAlive) report(0, queued.state === 'running' ? 'running in ComfyUI' : `waiting in ComfyUI's queue (${queued.ahead} ahead)`);
      lookAfter = Date.now() + (socketAlive ? o.safetyPollMs : o.pollMs);
    }
    try {
      await wait(Math.max(0, lookAfter - Date.now()), socketAlive ? o.feed : undefined, signal);
    } catch (error) {
      if (error instanceof Aborted) throw new DOMException('cancelled', 'AbortError');
      throw error;
    }
  }
}

/** A finished entry's outcome, from the status messages it keeps (when the socket told nothing). */
function outcomeOf(entry: HistoryEntry): Outcome {
  if (entry.status?.status_str === 'error') {
    for (const [event, data] of entry.status.messages) {
      if (event === 'execution_error') return { kind: 'failed', failure: (data ?? {}) as ExecutionFailure };
      if (event === 'execution_interrupted') return { kind: 'interrupted' };
    }
    return { kind: 'failed', failure: {} };
  }
  return { kind: 'done', entry };
}
