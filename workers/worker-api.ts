/**
 * What the editor's web worker offers the page, kept apart from `expose` so it can be tested
 * without a Worker: settings in (endpoints and token from the editor's settings, never from a
 * workflow), runs with their events out (images as transferred bytes), cancel.
 */
import type { ChatClient, ImageClient } from '../api/client-types';
import type { ClientConfig } from '../api/http';
import type { Workflow } from '../workflow/schema';
import { createMemoryCache, type CacheStore, type MemoryCache } from './cache';
import type { RunSummary } from './events';
import { createExecutor, type Executor } from './executor';
import type { PlanOptions } from './plan';
import { toUiEvent, type UiEvent } from './transfer';
import type { NodeRegistry } from './validate';

/** The editor's settings for running: where the APIs are and how to reach them. */
export interface WorkerSettings {
  imageBaseUrl: string;
  textBaseUrl: string;
  /** Sent by the clients as a bearer token; never appears in an event or a summary. */
  token?: string;
  chatModel: string;
  /** How many nodes may run at once. */
  concurrency?: number;
}

export type WorkerRunOptions = PlanOptions & { concurrency?: number; runId?: string };

/** The page's listener, through a comlink proxy (calls to it return promises). */
export type UiEventListener = (event: UiEvent) => unknown;

export interface WorkerApiDeps {
  registry: NodeRegistry;
  createImageClient(config: ClientConfig): ImageClient;
  createChatClient(config: ClientConfig): ChatClient;
  /** comlink's `transfer`: marks buffers to move with the message instead of being copied. */
  transfer<T>(value: T, transferables: Transferable[]): T;
  /** Where results are kept; in memory by default. It outlives changes of settings. */
  cache?: CacheStore;
}

export interface WorkerApi {
  /** Sets or replaces the endpoints, token and run settings; runs in progress keep theirs. */
  configure(settings: WorkerSettings): void;
  /** Runs a snapshot of the workflow; events go to `onEvent`, the summary is the result. */
  run(workflow: Workflow, options: WorkerRunOptions, onEvent: UiEventListener): Promise<RunSummary>;
  /** Cancels every run in progress; requests in flight are aborted. */
  cancel(): void;
  /** Forgets every cached result (only the default in-memory cache can be cleared here). */
  clearCache(): void;
}

export function createWorkerApi(deps: WorkerApiDeps): WorkerApi {
  const cache = deps.cache ?? createMemoryCache();
  const runs = new Set<AbortController>();
  let executor: Executor | undefined;

  return {
    configure(settings) {
      const token = settings.token === undefined || settings.token === '' ? undefined : settings.token;
      const auth = token === undefined ? {} : { token };
      executor = createExecutor({
        registry: deps.registry,
        api: {
          image: deps.createImageClient({ baseUrl: settings.imageBaseUrl, ...auth }),
          chat: deps.createChatClient({ baseUrl: settings.textBaseUrl, ...auth }),
        },
        settings: { chatModel: settings.chatModel },
        concurrency: settings.concurrency,
        cache,
        secrets: token === undefined ? [] : [token],
        cacheScope: `${settings.imageBaseUrl} ${settings.textBaseUrl}`,
      });
    },

    async run(workflow, options, onEvent) {
      if (!executor) throw new Error('the worker has no settings yet: call configure() before run()');
      const controller = new AbortController();
      runs.add(controller);
      // Events travel on the listener's own channel, the result on the worker's: waiting for
      // every delivery makes the result arrive last, so the page never sees an event after it.
      const deliveries = new Set<Promise<unknown>>();
      try {
        const summary = await executor.run(workflow, {
          ...options,
          signal: controller.signal,
          onEvent(event) {
            const ui = toUiEvent(event);
            // A listener that failed or a page that has gone away has nobody left to tell.
            const delivery = Promise.resolve(onEvent(deps.transfer(ui.event, ui.transfer))).catch(() => undefined);
            deliveries.add(delivery);
            void delivery.then(() => deliveries.delete(delivery));
          },
        });
        await Promise.all(deliveries);
        return summary;
      } finally {
        runs.delete(controller);
      }
    },

    cancel() {
      for (const controller of runs) controller.abort(new DOMException('The run was cancelled', 'AbortError'));
    },

    clearCache() {
      (cache as Partial<MemoryCache>).clear?.();
    },
  };
}
