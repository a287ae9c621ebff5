/**
 * What the editor's web worker offers the page, kept apart from `expose` so it can be tested
 * without a Worker: settings in (endpoints and token from the editor's settings, never from a
 * workflow), runs with their events out (images as transferred bytes), cancel, the cost estimate
 * of a run, the result cache's size and Clear, and for the editor's forms the checks that need
 * the node types' own code and the CLIP word list, which the page does not load.
 */
import {
  backendsScope, createBackend, credentialValues, isBackendKind, reviewForwardedBackends, routeImageRequests, withListedNames,
  type BackendConfig, type BackendNames, type EngineBackends, type EngineCredentials, type RemoteBackend,
} from '../api/backends/index';
import { ENGINES, type EngineId } from '../api/catalog';
import type { ChatClient, ImageClient } from '../api/client-types';
import { isApiError } from '../api/errors';
import { redact } from '../api/redact';
import type { ClientConfig } from '../api/http';
import { countPromptTokens } from '../api/prompt';
import type { ImageData } from '../nodes/types';
import { WorkflowSchema, type Workflow } from '../workflow/schema';
import type { AssetStore } from '../assets/store';
import { createMemoryCache, type CacheStats, type CacheStore, type ManagedCache } from './cache';
import { reviewOf } from './backend-review';
import { laterRuns } from './batch-estimate';
import { estimateRun, type EstimateDeps, type RunEstimate } from './estimate';
import { priceOf } from './estimate-price';
import type { RunSummary } from './events';
import { createExecutor, type Executor } from './executor';
import type { FanOutAsk } from './run-fan-out';
import type { PlanOptions } from './plan';
import { pinSeedsUsed, planBatch, type BatchPlan } from './seeds';
import { toUiEvent, toUiOutputs, type UiEvent, type UiImage, type UiValue } from './transfer';
import type { NodeRegistry } from './validate';

/** The editor's settings for running: where the APIs are and how to reach them. */
/** A node's result as the cache holds it, as the page receives it (images as transferred bytes). */
export interface CachedResult {
  nodeId: string;
  outputs: Record<string, UiValue>;
  /** When it was made (ms since the epoch), when the cache knows. */
  at?: number;
}

export interface WorkerSettings {
  imageBaseUrl: string;
  textBaseUrl: string;
  /** Sent by the clients as a bearer token; never appears in an event or a summary. */
  token?: string;
  chatModel: string;
  /** How many nodes (or items of a node that runs once per item) may run at once. */
  concurrency?: number;
  /** Runs one fan-out of a node that calls an API may make before the page is asked (64 by default). */
  maxFanOut?: number;
  /** Engines whose requests go to a backend other than the service's API (ComfyUI, AUTOMATIC1111…). */
  imageBackends?: EngineBackends;
  /** Each such backend's credential (a pool's, by server), by engine; never in an event, a summary or the cache key. */
  backendCredentials?: EngineCredentials;
  /**
   * On the route through the local server: the backends the server sends each engine to (from
   * its /api/info), so a run's problems and cost can say what they approximate or refuse.
   */
  forwardedBackends?: Partial<Record<EngineId, RemoteBackend>>;
  /**
   * What each engine's backend (of `imageBackends`) listed it has, where the page asked it (the
   * settings' suggestions): a request naming a file it lacks is a problem before the run. An
   * engine left out is not checked.
   */
  backendNames?: Partial<Record<EngineId, BackendNames>>;
  /**
   * When set, the chat client's own token instead of `token` (chat on the local stand-in while
   * images go direct: the direct token must not go to this server's /local/text).
   */
  chatAuth?: { token?: string };
}

export type WorkerRunOptions = PlanOptions & { concurrency?: number; runId?: string };

/** What a backend said it has, or why it could not be asked (in a person's words, never the credential). */
export type BackendNamesAnswer = { ok: true; names: BackendNames } | { ok: false; reason: string };

/** How long the settings wait for a backend's lists. */
const LIST_NAMES_TIMEOUT_MS = 10_000;

/** The page's listener, through a comlink proxy (calls to it return promises). */
export type UiEventListener = (event: UiEvent) => unknown;

/** Asks the person whether a fan-out above the limit may run, through a comlink proxy. */
export type FanOutConfirm = (ask: FanOutAsk) => Promise<boolean>;

export interface WorkerApiDeps {
  registry: NodeRegistry;
  createImageClient(config: ClientConfig): ImageClient;
  createChatClient(config: ClientConfig): ChatClient;
  /** comlink's `transfer`: marks buffers to move with the message instead of being copied. */
  transfer<T>(value: T, transferables: Transferable[]): T;
  /**
   * Where results are kept; in memory by default (the worker entry passes the IndexedDB store).
   * It outlives changes of settings.
   */
  cache?: CacheStore | ManagedCache;
  /** Where images the workflow refers to are read; in memory by default (the worker entry passes IndexedDB's). */
  assets?: AssetStore;
  /** The page's origin, when the worker is a browser's: requests elsewhere are cross-origin (ClientConfig.pageOrigin). */
  pageOrigin?: string;
  /** In [0, 1), for a batch's `random` seeds; Math.random by default (tests pass their own). */
  random?: () => number;
}

export interface WorkerApi {
  /**
   * Sets or replaces the endpoints, token and run settings; runs in progress keep theirs. Resolves
   * once the backends' code is loaded; a run or estimate asked before then waits for it.
   */
  configure(settings: WorkerSettings): Promise<void>;
  /**
   * Runs a snapshot of the workflow; events go to `onEvent`, the summary is the result. A fan-out
   * above the limit is put to `confirmFanOut` before it sends anything (refused without it).
   */
  run(workflow: Workflow, options: WorkerRunOptions, onEvent: UiEventListener, confirmFanOut?: FanOutConfirm): Promise<RunSummary>;
  /** Cancels every run in progress; requests in flight are aborted. */
  cancel(): void;
  /**
   * What running the workflow (or the part `options` selects) would cost with the current settings
   * and cache: requests, images, price units, cached nodes. Sends nothing.
   */
  estimate(workflow: Workflow, options: PlanOptions): Promise<RunEstimate>;
  /**
   * The results the cache holds for the nodes of `workflow` as it is now (those the cost
   * estimate counts as cached), to show again after a reload without running anything.
   * Nothing is sent and nothing is written.
   */
  cachedResults(workflow: Workflow): Promise<CachedResult[]>;
  /** Forgets every cached result. */
  clearCache(): Promise<void>;
  /** How full the result cache is, and whether it persists. */
  cacheStats(): Promise<CacheStats>;
  /** The CLIP tokens of each prompt, counted as the service counts (weighting syntax is free). */
  countPromptTokens(prompts: readonly string[]): number[];
  /**
   * The snapshots of a batch of `count` runs of `workflow`, each with the seeds the run before it
   * leaves (seeds.ts planBatch), and the workflow the last one leaves. Needs no settings.
   */
  planBatch(workflow: Workflow, count: number, options: PlanOptions): BatchPlan;
  /**
   * `workflow` with the seed each node used (by node id) fixed where running it again would not
   * repeat it (seeds.ts pinSeedsUsed): what a history entry and a download carry. Needs no settings.
   */
  pinSeeds(workflow: Workflow, used: ReadonlyMap<string, number>): Workflow;
  /**
   * Asks a backend what it has (checkpoints, models…) for the settings' suggestions, at the base
   * URL of `config` only, with `credential`. Needs no settings.
   */
  listBackendNames(config: BackendConfig, credential?: string): Promise<BackendNamesAnswer>;
}

/**
 * The backends the server says it sends engines to, as the review takes them: a kind this build
 * does not know (a newer server's) is left out, so that engine is not reviewed here.
 */
function knownBackends(forwarded: WorkerSettings['forwardedBackends']): Partial<Record<EngineId, RemoteBackend>> | undefined {
  if (forwarded === undefined) return undefined;
  const known: Partial<Record<EngineId, RemoteBackend>> = {};
  for (const engine of ENGINES) {
    const backend = forwarded[engine];
    if (backend !== undefined && isBackendKind(backend.kind)) {
      known[engine] = {
        kind: backend.kind, ...(backend.names === undefined ? {} : { names: backend.names }), ...(backend.listed === undefined ? {} : { listed: backend.listed }),
        ...(typeof backend.servers === 'number' && backend.servers > 1 ? { servers: backend.servers } : {}),
      };
    }
  }
  return known;
}

/**
 * The service's image client, or, when the settings give it no base URL (every engine goes to a
 * backend, so none is needed), one that says so if it is ever called.
 */
function serviceImageClient(deps: WorkerApiDeps, config: ClientConfig): ImageClient {
  if (config.baseUrl !== '') return deps.createImageClient(config);
  return { generate: () => Promise.reject(new Error("no image API base URL is set in Settings for the engines that use the service's API")) };
}

/**
 * The workflow a page hands the worker, parsed again at this boundary: the page
 * is this app's own, but a snapshot that lost its shape on the way is said, not run.
 */
function checkedWorkflow(workflow: unknown): Workflow {
  const parsed = WorkflowSchema.safeParse(workflow);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const where = first === undefined || first.path.length === 0 ? 'the workflow' : first.path.map(String).join('.');
  throw new Error(`the workflow handed to the worker is not a valid workflow: ${where}: ${first?.message ?? 'invalid'}`);
}

function isManaged(cache: CacheStore): cache is ManagedCache {
  const c = cache as Partial<ManagedCache>;
  return typeof c.clear === 'function' && typeof c.stats === 'function';
}

/** What configure() builds: the executor and the estimate's settings, for one set of settings. */
interface Configured {
  executor: Executor;
  estimateDeps: Omit<EstimateDeps, 'cache'>;
}

async function configured(deps: WorkerApiDeps, cache: CacheStore, settings: WorkerSettings): Promise<Configured> {
  const token = settings.token === undefined || settings.token === '' ? undefined : settings.token;
  const auth = {
    ...(token === undefined ? {} : { token }),
    ...(deps.pageOrigin === undefined ? {} : { pageOrigin: deps.pageOrigin }),
  };
  const chatToken = settings.chatAuth === undefined ? token : settings.chatAuth.token === '' ? undefined : settings.chatAuth.token;
  const chatAuth = { ...(chatToken === undefined ? {} : { token: chatToken }), ...(deps.pageOrigin === undefined ? {} : { pageOrigin: deps.pageOrigin }) };
  // What a backend lists changes as files are added, and a pool may gain a server: neither
  // changes what a request makes.
  const forwarded = settings.forwardedBackends === undefined ? '' : JSON.stringify(settings.forwardedBackends, (key, value: unknown) => (key === 'listed' || key === 'servers' ? undefined : value));
  const scope = `${settings.imageBaseUrl} ${settings.textBaseUrl} ${backendsScope(settings.imageBackends)} ${forwarded}`.trim();
  const credentials = credentialValues(settings.backendCredentials);
  const service = serviceImageClient(deps, { baseUrl: settings.imageBaseUrl, ...auth });
  const forwardedTo = knownBackends(settings.forwardedBackends);
  const routed = await routeImageRequests(
    forwardedTo === undefined ? service : await reviewForwardedBackends(service, forwardedTo, settings.imageBaseUrl),
    settings.imageBackends,
    settings.backendCredentials,
    deps.pageOrigin === undefined ? {} : { pageOrigin: deps.pageOrigin },
  );
  const image = await withListedNames(routed, settings.imageBackends, settings.backendNames);
  const review = reviewOf(image);
  const price = priceOf(image);
  const executor = createExecutor({
    registry: deps.registry,
    api: { image, chat: deps.createChatClient({ baseUrl: settings.textBaseUrl, ...chatAuth }) },
    settings: { chatModel: settings.chatModel },
    concurrency: settings.concurrency,
    ...(settings.maxFanOut === undefined ? {} : { maxFanOut: settings.maxFanOut }),
    cache,
    ...(deps.assets === undefined ? {} : { assets: deps.assets }),
    secrets: [...new Set([token, chatToken].filter((t): t is string => t !== undefined)), ...credentials],
    cacheScope: scope,
  });
  const quotes = price === undefined ? {} : { price };
  return { executor, estimateDeps: { settings: { chatModel: settings.chatModel }, cacheScope: scope, review, ...quotes } };
}

export function createWorkerApi(deps: WorkerApiDeps): WorkerApi {
  const cache = deps.cache ?? createMemoryCache();
  const runs = new Set<AbortController>();
  // The latest configure()'s result: replaced at once, so a later configure always wins.
  let current: Promise<Configured> | undefined;
  const needSettings = (what: string) => new Error(`the worker has no settings yet: call configure() before ${what}()`);
  const settled = (what: string) => (current === undefined ? Promise.reject(needSettings(what)) : current);

  return {
    configure(settings) {
      const next = configured(deps, cache, settings);
      current = next;
      return next.then(() => undefined);
    },

    async run(workflow, options, onEvent, confirmFanOut) {
      const { executor } = await settled('run');
      const controller = new AbortController();
      runs.add(controller);
      // Events travel on the listener's own channel, the result on the worker's: waiting for
      // every delivery makes the result arrive last, so the page never sees an event after it.
      const deliveries = new Set<Promise<unknown>>();
      try {
        const summary = await executor.run(checkedWorkflow(workflow), {
          ...options,
          signal: controller.signal,
          // A page that has gone away answers nothing: the fan-out is then refused, not left waiting.
          ...(confirmFanOut === undefined ? {} : { confirmFanOut: (ask: FanOutAsk) => Promise.resolve(confirmFanOut(ask)).catch(() => false) }),
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

    async estimate(workflow, options) {
      const { estimateDeps } = await settled('estimate');
      const plan: PlanOptions = options.mode === 'all' ? { mode: 'all' } : { mode: options.mode, nodeId: options.nodeId };
      // Not parsed here: it runs at every edit and sends nothing; a run parses before it sends.
      return estimateRun(workflow, deps.registry, plan, { cache, ...estimateDeps })
        .then((estimate) => (estimate.ok ? { ...estimate, laterRuns: laterRuns(estimate, workflow, deps.registry) } : estimate));
    },

    async cachedResults(workflow) {
      const { estimateDeps } = await settled('cachedResults');
      const found: CachedResult[] = [];
      const transfer: ArrayBuffer[] = [];
      const seen = new Map<ImageData, UiImage>();
      await estimateRun(workflow, deps.registry, { mode: 'all' }, {
        cache,
        ...estimateDeps,
        onCached(nodeId, outputs, at) {
          found.push({ nodeId, outputs: toUiOutputs(outputs, transfer, seen), ...(at === undefined ? {} : { at }) });
        },
      });
      return deps.transfer(found, transfer);
    },

    async clearCache() {
      if (!isManaged(cache)) throw new Error('this result cache cannot be cleared');
      await cache.clear();
    },

    cacheStats() {
      if (!isManaged(cache)) return Promise.reject(new Error('this result cache does not report its size'));
      return cache.stats();
    },

    countPromptTokens: (prompts) => prompts.map(countPromptTokens),

    planBatch: (workflow, count, options) => planBatch(workflow, deps.registry, count, { plan: options, ...(deps.random ? { random: deps.random } : {}) }),

    pinSeeds: (workflow, used) => pinSeedsUsed(workflow, deps.registry, used),

    async listBackendNames(config, credential) {
      try {
        const backend = await createBackend({ config, ...(credential === undefined ? {} : { credential }) }, deps.pageOrigin === undefined ? {} : { pageOrigin: deps.pageOrigin });
        if (backend.listNames === undefined) return { ok: true, names: {} };
        return { ok: true, names: await backend.listNames({ signal: AbortSignal.timeout(LIST_NAMES_TIMEOUT_MS) }) };
      } catch (error) {
        const reason = isApiError(error) ? error.detail : error instanceof Error ? error.message : String(error);
        // Backends redact their credential; this is said again in case a message quotes it some other way.
        return { ok: false, reason: redact(reason, credential === undefined ? [] : [credential]) };
      }
    },
  };
}
