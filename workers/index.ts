/**
 * The executor's public surface for the CLI, the editor's hook and the tests. The comlink
 * worker entry is `worker.ts`; it is not re-exported here because importing it exposes itself.
 */
export { createExecutor, DEFAULT_CONCURRENCY, type Executor, type ExecutorDeps, type RunOptions } from './executor';
export { planRun, type ExecutionPlan, type PlanOptions, type PlannedNode, type PortRef } from './plan';
export { validateWorkflow, formatProblem, type NodeRegistry, type WorkflowProblem } from './validate';
export {
  createMemoryCache, DEFAULT_CACHE_BYTES, type CacheEntry, type CacheStats, type CacheStore, type ManagedCache, type MemoryCache,
} from './cache';
export { createIdbCache, DEFAULT_IDB_CACHE_BYTES, IDB_CACHE_NAME, type IdbCache, type IdbCacheOptions } from './idb-cache';
export {
  estimateRun, type EstimateDeps, type EstimateTotals, type NodeEstimate, type NodeEstimateStatus, type RunEstimate,
} from './estimate';
export { nodeCost, type NodeCost } from './cost';
export { nextSeeds, planBatch, runBatch, type BatchPlan, type NextSeedsOptions, type SeedChange } from './seeds';
export {
  addRunToSession, addUsage, emptySessionUsage, emptyUsage, type ApiUsage, type ChatTokens, type SessionUsage,
} from '../api/usage';
export { nodeCacheKey } from './hash';
export type { ApiCallRecord, ExecutorEvent, ExecutorEventType, NodeCounts, NodeError, NodeOutputs, RunSummary } from './events';
export { base64ToBytes, toUiEvent, type UiEvent, type UiImage, type UiValue } from './transfer';
export type { WorkerApi, WorkerRunOptions, WorkerSettings } from './worker-api';
