/**
 * The workflow file format: schema, loading, saving, carrying it inside images, the credential
 * scan before it leaves the machine, and helpers. Used by the editor, the worker
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
export {
  ImageEmbedError, MAX_EMBEDDED_BYTES, IMAGE_MANIFEST_FORMAT, IMAGE_MANIFEST_VERSION, ImageManifestSchema,
  buildImageManifest, canEmbedWorkflow, crc32, describeImageText, embedFormat, embedWorkflow, extractWorkflow,
  readImageManifest, scrubManifest, sha256Hex,
  type EmbedContent, type EmbedFormat, type ExtractedContent, type ImageManifest, type ImageRef, type ManifestCall,
  type ManifestImage, type ManifestSource,
} from './embed';
export {
  REMOVED_MARK, findAllCredentialLike, maskCredential, removeCredentialLike, removeFindings, scanWorkflowForExport,
  type ExportFinding, type ExportScan, type ExportScanOptions, type Remedy,
} from './export-scan';
