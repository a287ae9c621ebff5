/**
 * The workflow file format: schema, loading, saving and helpers. Used by the editor, the worker
 * and the CLI alike, so nothing here touches the DOM or Node-only modules.
 */
export {
  WORKFLOW_FORMAT, WORKFLOW_VERSION, WorkflowSchema, WorkflowNodeSchema, WorkflowEdgeSchema, WorkflowMetadataSchema,
  PortRefSchema, PositionSchema, crossCheck,
  type Workflow, type WorkflowNode, type WorkflowEdge, type WorkflowMetadata, type PortRef,
} from './schema';
export { loadWorkflow, type LoadOptions, type LoadResult } from './load';
export { serializeWorkflow } from './serialize';
export { createWorkflow, touchModified, uniqueNodeId, edgeIdFor, type Clock, type NewWorkflow } from './create';
export {
  WorkflowError, WorkflowLoadError, WorkflowSaveError, type WorkflowIssue, type WorkflowWarning, type WorkflowWarningCode,
} from './errors';
export { findCredentialLike, isCredentialKey, isEndpointKey, type CredentialLike } from './credentials';
export { scanForCredentials, type CredentialFinding, type DeclaredParams } from './scrub';
export { MIGRATIONS, applyMigrations, type Migration } from './migrations';
export { DEFAULT_LIMITS, type WorkflowLimits } from './limits';
