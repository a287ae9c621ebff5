/**
 * The editor's web worker entry: the executor behind comlink. The page does
 * `wrap<WorkerApi>(new Worker(new URL('../workers/worker.ts', import.meta.url), { type: 'module' }))`,
 * then `configure(settings)` and `run(workflow, options, proxy(onEvent))`.
 */
import { expose, transfer } from 'comlink';
import { createChatClient } from '../api/chat-client';
import { createImageClient } from '../api/image-client';
import { registry } from '../nodes/index';
import { createWorkerApi } from './worker-api';

expose(createWorkerApi({ registry, createImageClient, createChatClient, transfer }));

export type { WorkerApi, WorkerRunOptions, WorkerSettings } from './worker-api';
export type { UiEvent, UiImage, UiValue } from './transfer';
