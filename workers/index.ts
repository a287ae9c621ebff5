/**
 * The executor's public surface for the CLI, the editor's hook and the tests. The comlink
 * worker entry is `worker.ts`; it is not re-exported here because importing it exposes itself.
 */
export { createExecutor, DEFAULT_CONCURRENCY, type Executor, type ExecutorDeps, type RunOptions } from './executor';
export { planRun, type ExecutionPlan, type PlanOptions, type PlannedNode, type PortRef } from './plan';
export { validateWorkflow, formatProblem, type NodeRegistry, type WorkflowProblem } from './validate';
export { createMemoryCache, DEFAULT_CACHE_BYTES, type CacheEntry, type CacheStore, type MemoryCache } from './cache';
export { nodeCacheKey } from './hash';
export type { ApiCallRecord, ExecutorEvent, ExecutorEventType, NodeCounts, NodeError, NodeOutputs, RunSummary } from './events';
export { base64ToBytes, toUiEvent, type UiEvent, type UiImage, type UiValue } from './transfer';
export type { WorkerApi, WorkerRunOptions, WorkerSettings } from './worker-api';
