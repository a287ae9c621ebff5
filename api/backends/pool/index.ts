/**
 * A pool: one backend made of several servers of the same kind (ComfyUI, AUTOMATIC1111), each a
 * backend of its own. Every request goes to the server that will start it soonest (placement.ts);
 * a server that cannot be reached before it accepts a request is marked down, retried in the
 * background, and the request goes to another. A request a server has accepted is never sent
 * again elsewhere on its own (no double work): when that server fails, the error names it.
 * Cancelling reaches every server, since each holds its part of the run under the same signal.
 */
import type { EngineId } from '../../catalog';
import type { CallOptions } from '../../client-types';
import { ApiError } from '../../errors';
import type { ImageRequest, ImageResponse } from '../../image-schema';
import type { ImageBackend, ImageCallOptions, ReportedCost } from '../types';
import { whyUnanswered } from '../unanswered';
import type { RunPipeline } from '../comfyui/pipeline/request';
import { NO_NEEDS, place, type PlacementNeeds, type ServerHoldings } from './placement';
import { createPoolState, type ServerStatus } from './state';
import { createFeed } from './feed';
import { sharedLoad, waitForRoom, wake } from './loads';
import { namedByLabel } from './hide';

/** One server of a pool: its backend and how the person named it (never its address). */
export interface PoolMember {
  label: string;
  backend: ImageBackend;
  /**
   * Where the server is, only so that every pool of this server (one per engine) shares its count
   * of requests in flight (loads.ts); never shown. Without it the pool counts its own alone.
   */
  address?: string;
}

export interface PoolOptions {
  /** What a request needs a server to hold (checkpoint, LoRAs…); nothing by default. */
  needs?: (engine: EngineId, request: ImageRequest) => PlacementNeeds;
  /** Called whenever a server's state changes, for the run panel. */
  onStatus?: (status: ServerStatus[]) => void;
  now?: () => number;
  /** Schedules a retry of a down server; returns a cancel. setTimeout by default. */
  schedule?: (run: () => void, ms: number) => () => void;
  /**
   * Ask each server what it has and how long its queue is before placing (feed.ts); createBackend
   * turns it on. Off, placement knows only what `holds` and `queued` were told.
   */
  feed?: boolean;
  /**
   * At most this many of Atelier's requests sent to one server at a time (one running, the next
   * queued behind it: 2 by default); the rest wait here and go to whichever server frees first.
   */
  window?: number;
}

/** A response from a pool: which server made it, by label. */
export type PoolResponse = ImageResponse & { cost?: ReportedCost; server: string };

/** A backend over several servers, with what the run panel shows of each. */
export interface PoolBackend extends ImageBackend {
  readonly size: number;
  status(): ServerStatus[];
  /** What server `id` (its position in the list) holds, from its list of names or object_info. */
  holds(id: number, holds: ServerHoldings): void;
  /** The length of server `id`'s own queue, as read from it. */
  queued(id: number, length: number): void;
  generate(engine: EngineId, request: ImageRequest, options?: ImageCallOptions): Promise<PoolResponse>;
  /** Stops the background retries of down servers. */
  close(): void;
}

const POOL_ENDPOINT = 'pool';
/**
 * Sending a fan-out's 64 requests at once would queue 16 on each server up front: placed before
 * anything is known of how fast each goes, a slow or dying server keeps its share, and the client
 * opens 64 connections before the first image starts. Two each keep every server busy (the next
 * is queued while one runs) and place the rest as servers free up.
 */
const DEFAULT_WINDOW = 2;

const abortedError = () => new ApiError({ kind: 'aborted', detail: 'cancelled', endpoint: POOL_ENDPOINT, attempts: 0, retryable: false });

function defaultSchedule(run: () => void, ms: number): () => void {
  const timer = setTimeout(run, ms) as { unref?: () => void };
  timer.unref?.();
  return () => clearTimeout(timer as Parameters<typeof clearTimeout>[0]);
}

/**
 * Whether the server never took the request: it refused the connection or nothing answered
 * (any backend), or, for a backend that reports acceptance (ComfyUI), it failed before the
 * request that hands the server the work was sent (uploads, the socket). Once that request is
 * on its way, a timeout or a reset may hide a prompt the server queued (it keeps handling a
 * request whose client has gone), so it is never sent elsewhere: no request runs twice.
 */
function neverTaken(error: unknown, accepted: boolean, sending: boolean, reportsAcceptance: boolean): boolean {
  if (accepted || !(error instanceof ApiError)) return false;
  const why = whyUnanswered(error);
  if (why === 'refused' || why === 'unreachable') return true;
  return reportsAcceptance && !sending && (error.kind === 'network' || error.kind === 'timeout');
}

/** The pool of `members` (at least one; the first's kind and label name the pool). */
export function createPoolBackend(members: readonly PoolMember[], options: PoolOptions = {}): PoolBackend {
  const first = members[0];
  if (first === undefined) throw new TypeError('a pool needs at least one server');
  const labels = members.map((m) => m.label);
  if (new Set(labels).size !== labels.length) throw new TypeError('each server of a pool needs its own label');
  const now = options.now ?? Date.now;
  const schedule = options.schedule ?? defaultSchedule;
  const state = createPoolState(labels, now, members.map((m) => (m.address === undefined ? undefined : sharedLoad(m.address))));
  const retries = new Map<number, () => void>();
  let closed = false;
  const changed = () => options.onStatus?.(state.status());
  const room = Math.max(1, options.window ?? DEFAULT_WINDOW);

  /** Down until a background probe (its list of names) answers; each failed probe waits longer. */
  function markDown(id: number): void {
    const delay = state.down(id);
    changed();
    if (closed || retries.has(id)) return;
    retries.set(id, schedule(() => {
      retries.delete(id);
      if (closed) return;
      const probe = members[id]!.backend.listNames?.() ?? Promise.reject(new Error('no probe'));
      probe.then(() => {
        state.up(id);
        // Requests waiting for room may go to it now.
        for (let i = 0; i < room; i++) wake(state.loads()[id]!);
        changed();
      }, () => markDown(id));
    }, delay));
  }

  const feed = options.feed === true ? createFeed({ members, state, now, markDown, changed }) : undefined;

  /**
   * Runs `run` on the server placement picks for `needs`, placing again while a server never took
   * it; `made` counts the images of an answer, for the server's speed.
   */
  async function onServer<T>(needs: PlacementNeeds, callOptions: ImageCallOptions, acceptance: boolean, run: (backend: ImageBackend, o: ImageCallOptions) => Promise<T>, made: (answer: T) => number): Promise<{ answer: T; label: string }> {
    await feed?.refresh();
    for (;;) {
      const placement = place(state.views(), needs);
      if (!placement.ok) {
        throw new ApiError({ kind: 'http', retryable: false, endpoint: POOL_ENDPOINT, attempts: 0, detail: `not sent: ${placement.reason}` });
      }
      if (placement.server.inFlight >= room) {
        // Every server that can take it has its window full: wait for one to free, then place again.
        await waitForRoom(state.loads(), callOptions.signal, abortedError);
        continue;
      }
      const id = placement.server.id;
      const member = members[id]!;
      let accepted = false;
      let sending = false;
      state.started(id);
      changed();
      const started = now();
      try {
        const answer = await run(member.backend, {
          ...callOptions,
          onSending: () => { sending = true; },
          onAccepted: () => { accepted = true; },
        });
        state.ended(id, { images: made(answer), ms: now() - started });
        // A request that ran while a probe of the same server failed: it answers, so it is up.
        if (placement.server.down) state.up(id);
        changed();
        return { answer, label: member.label };
      } catch (error) {
        state.ended(id);
        if (callOptions.signal?.aborted !== true && neverTaken(error, accepted, sending, acceptance && member.backend.reportsAcceptance === true)) {
          markDown(id);
          continue;
        }
        changed();
        throw error instanceof ApiError ? namedByLabel(error, member.label, member.address) : error;
      }
    }
  }

  async function generate(engine: EngineId, request: ImageRequest, callOptions: ImageCallOptions = {}): Promise<PoolResponse> {
    const needs = options.needs?.(engine, request) ?? first!.backend.placementNeeds?.(engine, request) ?? NO_NEEDS;
    const { answer, label } = await onServer(needs, callOptions, true, (backend, o) => backend.generate(engine, request, o), (r) => r.images.length);
    return { ...answer, server: label };
  }

  // A ComfyUI workflow node runs on one server like any request. Its run does not say when ComfyUI
  // queued it, so only a refused connection sends it elsewhere.
  const runPipeline: RunPipeline | undefined = first.backend.runPipeline === undefined ? undefined : (request, callOptions = {}) => {
    const nodeClasses = [...new Set(request.pipeline.nodes.map((n) => n.class_type))];
    return onServer({ ...NO_NEEDS, nodeClasses }, callOptions, false, (backend, o) => {
      if (backend.runPipeline === undefined) throw new TypeError('every server of a pool is of one kind');
      return backend.runPipeline(request, o);
    }, (r) => r.outputs.reduce((n, o) => n + o.images.length, 0)).then(({ answer, label }) => ({ ...answer, server: label }));
  };

  return {
    kind: first.backend.kind,
    label: first.backend.label,
    size: members.length,
    status: () => state.status(),
    holds: (id, holds) => state.holds(id, holds),
    queued: (id, length) => { state.queued(id, length); changed(); },
    review: (engine, request) => first.backend.review(engine, request),
    generate,
    ...(runPipeline === undefined ? {} : { runPipeline }),
    ...(first.backend.price === undefined ? {} : { price: (engine: EngineId, request: ImageRequest) => first.backend.price!(engine, request) }),
    ...(first.backend.listNames === undefined ? {} : { listNames: (o?: CallOptions) => first.backend.listNames!(o) }),
    close() {
      closed = true;
      for (const cancel of retries.values()) cancel();
      retries.clear();
    },
  };
}
