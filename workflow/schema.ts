/**
 * The workflow file: a zod schema with a literal format name and version (CONVENTIONS 11). This
 * is the single definition of the current version's shape: the loader parses with it, the
 * serialiser takes its field order from it, and the published JSON Schema is generated from it.
 * Older versions are migrated (migrations.ts) before the parse.
 *
 * Everything is keyed by name, never by position (CONVENTIONS 4), and nothing volatile is part of
 * it: selection, measured sizes and drag state belong to the editor, not to the file.
 */
import { z } from 'zod';
import { DEFAULT_LIMITS, MAX_COORDINATE, TEXT_LIMITS } from './limits';

export const WORKFLOW_FORMAT = 'atelier.workflow';
export const WORKFLOW_VERSION = 1;

/** Node ids appear in CLI flags (`--set node.param=value`), so they stay plain. */
const NODE_ID = /^[A-Za-z0-9_-]+$/;
const NODE_ID_RULE = "letters, digits, '_' and '-' only";
/** Type ids: 'text-to-image'; room for namespaced ones ('vendor/upscale'). */
const NODE_TYPE = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;
/** Port names and edge ids are defined by node types and the editor: any printable text. */
const PRINTABLE = /^\P{Cc}+$/u;

const nodeId = z
  .string()
  .min(1, 'must not be empty')
  .max(TEXT_LIMITS.id)
  .regex(NODE_ID, NODE_ID_RULE);

const printable = (max: number) =>
  z.string().min(1, 'must not be empty').max(max).regex(PRINTABLE, 'must not contain control characters');

const coordinate = z.number().min(-MAX_COORDINATE).max(MAX_COORDINATE);

/** An ISO 8601 timestamp with a zone, as `new Date().toISOString()` writes it. */
const timestamp = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time, such as 2026-01-31T12:00:00.000Z' });

export const PortRefSchema = z.strictObject({
  node: nodeId.describe('The id of a node in this workflow.'),
  port: printable(TEXT_LIMITS.port).describe("The port's name, as the node type defines it."),
});
export type PortRef = z.infer<typeof PortRefSchema>;

export const PositionSchema = z
  .strictObject({ x: coordinate, y: coordinate })
  .describe("The node's top-left corner on the canvas.");

export const WorkflowNodeSchema = z.strictObject({
  id: nodeId.describe('Unique in the workflow; edges and command-line overrides refer to the node by it.'),
  type: z
    .string()
    .min(1, 'must not be empty')
    .max(TEXT_LIMITS.type)
    .regex(NODE_TYPE, 'must be a type id such as text-to-image')
    .describe("The node type, such as 'text-to-image'. A type Atelier does not know is kept as it is."),
  typeVersion: z.number().int().min(1).max(1_000_000).optional()
    .describe('The version of the node type that wrote the parameters.'),
  title: z.string().max(TEXT_LIMITS.title).optional().describe("The user's own name for the node."),
  // `false` reads as absent, so a file only ever says `"bypass": true` and untouched files keep their bytes.
  bypass: z.boolean().transform((on): boolean | undefined => (on ? true : undefined)).optional()
    .describe('When true the node is not run: each output passes on the first connected input of a kind that converts to it.'),
  position: PositionSchema,
  params: z.record(z.string(), z.unknown()).default({})
    .describe("Parameters by name, in the API's own names; the node type checks them."),
});
export type WorkflowNode = z.infer<typeof WorkflowNodeSchema>;

export const WorkflowEdgeSchema = z.strictObject({
  id: printable(TEXT_LIMITS.edgeId).describe('Unique among the edges.'),
  source: PortRefSchema.describe('An output port.'),
  target: PortRefSchema.describe('An input port; it takes at most one edge.'),
});
export type WorkflowEdge = z.infer<typeof WorkflowEdgeSchema>;

export const WorkflowMetadataSchema = z.strictObject({
  title: z.string().max(TEXT_LIMITS.title),
  description: z.string().max(TEXT_LIMITS.description).default(''),
  created: timestamp,
  modified: timestamp,
});
export type WorkflowMetadata = z.infer<typeof WorkflowMetadataSchema>;

/** The document without the cross-checks: its shape gives the serialiser its field order. */
export const WorkflowShapeSchema = z.strictObject({
  format: z.literal(WORKFLOW_FORMAT),
  version: z.literal(WORKFLOW_VERSION),
  metadata: WorkflowMetadataSchema,
  nodes: z.array(WorkflowNodeSchema).max(DEFAULT_LIMITS.maxNodes),
  edges: z.array(WorkflowEdgeSchema).max(DEFAULT_LIMITS.maxEdges),
});

/** The workflow file, current version, with the checks that span fields. */
export const WorkflowSchema = WorkflowShapeSchema.superRefine((workflow, ctx) => {
  for (const issue of crossCheck(workflow)) ctx.addIssue({ code: 'custom', ...issue });
});
export type Workflow = z.infer<typeof WorkflowSchema>;

interface CrossIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Checks that no field can make alone: unique ids, edges between nodes that exist, and at most
 * one edge into each input port. Ports themselves are the node types' business (the executor).
 */
export function crossCheck(workflow: Pick<Workflow, 'nodes' | 'edges'>): CrossIssue[] {
  const issues: CrossIssue[] = [];
  const nodeIndex = new Map<string, number>();
  workflow.nodes.forEach((node, i) => {
    const first = nodeIndex.get(node.id);
    if (first === undefined) nodeIndex.set(node.id, i);
    else issues.push({ path: ['nodes', i, 'id'], message: `duplicate node id '${node.id}' (also nodes[${first}])` });
  });

  const edgeIndex = new Map<string, number>();
  const intoPort = new Map<string, number>();
  workflow.edges.forEach((edge, i) => {
    const first = edgeIndex.get(edge.id);
    if (first === undefined) edgeIndex.set(edge.id, i);
    else issues.push({ path: ['edges', i, 'id'], message: `duplicate edge id '${edge.id}' (also edges[${first}])` });

    for (const end of ['source', 'target'] as const) {
      if (!nodeIndex.has(edge[end].node)) {
        issues.push({ path: ['edges', i, end, 'node'], message: `no node '${edge[end].node}'` });
      }
    }

    // JSON.stringify keeps the key unambiguous whatever characters the port name holds.
    const port = JSON.stringify([edge.target.node, edge.target.port]);
    const earlier = intoPort.get(port);
    if (earlier === undefined) intoPort.set(port, i);
    else {
      issues.push({
        path: ['edges', i, 'target'],
        message: `input '${edge.target.port}' of node '${edge.target.node}' already has an edge (edges[${earlier}])`,
      });
    }
  });
  return issues;
}
