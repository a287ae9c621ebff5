/**
 * The workflow file: a zod schema with a literal format name and version (CONVENTIONS 11).
 * This is the current version's shape; older versions are migrated before the parse.
 */
import { z } from 'zod';

export const WORKFLOW_FORMAT = 'atelier.workflow';
export const WORKFLOW_VERSION = 1;

export const PortRefSchema = z.strictObject({
  node: z.string().min(1).max(100),
  port: z.string().min(1).max(100),
});

export const WorkflowNodeSchema = z.strictObject({
  id: z.string().min(1).max(100),
  type: z.string().min(1).max(100),
  /** Version of the node type that wrote the parameters. */
  typeVersion: z.number().int().min(1).optional(),
  position: z.strictObject({ x: z.number(), y: z.number() }),
  /** The user's own name for the node, shown instead of the type's title. */
  title: z.string().max(200).optional(),
  params: z.record(z.string(), z.unknown()),
});
export type WorkflowNode = z.infer<typeof WorkflowNodeSchema>;

export const WorkflowEdgeSchema = z.strictObject({
  id: z.string().min(1).max(200),
  source: PortRefSchema,
  target: PortRefSchema,
});
export type WorkflowEdge = z.infer<typeof WorkflowEdgeSchema>;

export const WorkflowMetadataSchema = z.strictObject({
  title: z.string().max(200),
  description: z.string().max(10_000),
  created: z.string().max(40),
  modified: z.string().max(40),
});

export const WorkflowSchema = z.strictObject({
  format: z.literal(WORKFLOW_FORMAT),
  version: z.literal(WORKFLOW_VERSION),
  metadata: WorkflowMetadataSchema,
  nodes: z.array(WorkflowNodeSchema),
  edges: z.array(WorkflowEdgeSchema),
});
export type Workflow = z.infer<typeof WorkflowSchema>;
