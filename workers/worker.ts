/**
 * The editor's web worker entry: the executor behind comlink. The page does
 * `wrap<WorkerApi>(new Worker(new URL('../workers/worker.ts', import.meta.url), { type: 'module' }))`,
 * then `configure(settings)` and `run(workflow, options, proxy(onEvent))`.
 *
 * Results are cached in IndexedDB, so they survive a reload and are shared by every workflow
 * and tab; where IndexedDB is missing or refuses to open, in memory for the worker's life
 * (`cacheStats()` says which). Images the workflow refers to (`asset:sha256:…`) are read from
 * the asset store the page writes (assets/).
 */
// First: it must run before any module builds a zod schema.
import '../api/zod-jitless';
import { expose, transfer } from 'comlink';
import { createChatClient } from '../api/chat-client';
import { createImageClient } from '../api/image-client';
import { registry } from '../nodes/index';
import { createMemoryCache } from './cache';
import { createIdbCache } from './idb-cache';
import { createWorkerApi } from './worker-api';
import { createIdbAssetStore } from '../assets/idb-store';
import { createMemoryAssetStore } from '../assets/store';

const cache = typeof indexedDB === 'undefined' ? createMemoryCache() : createIdbCache({ fallback: createMemoryCache() });
// The page puts the images it holds by reference here; the worker reads each once.
const assets = typeof indexedDB === 'undefined' ? createMemoryAssetStore() : createIdbAssetStore();

expose(createWorkerApi({ registry, createImageClient, createChatClient, transfer, cache, assets, pageOrigin: self.location.origin }));

export type { WorkerApi, WorkerRunOptions, WorkerSettings } from './worker-api';
export type { UiEvent, UiImage, UiValue } from './transfer';
export type { RunEstimate, NodeEstimate, EstimateTotals } from './estimate';
export type { CacheStats } from './cache';
