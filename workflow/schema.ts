/**
 * The workflow file: a zod schema with a literal format name and version. This
 * is the single definition of the current version's shape: the loader parses with it, the
 * serialiser takes its field order from it, and the published JSON Schema is generated from it.
 * Older versions are migrated (migrations.ts) before the parse.
 *
 * Everything is keyed by name, never by position, and nothing volatile is part of
 * it: selection, measured sizes and drag state belong to the editor, not to the file.
 */
import { z } from 'zod';
import { checkComponents } from './component-checks';
import { AppSchema, checkApp } from './app';
import { GROUP_COLORS, WORKFLOW_FORMAT, WORKFLOW_VERSION } from './format';
import { DEFAULT_LIMITS, MAX_COORDINATE, TEXT_LIMITS } from './limits';

export { GROUP_COLORS, WORKFLOW_FORMAT, WORKFLOW_VERSION, type GroupColor } from './format';

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

/** How big a note or a group may be drawn: from a sticky note to a frame around a whole graph. */
export const MIN_FRAME_SIZE = 40;
export const MAX_FRAME_SIZE = 1e6;
const extent = z.number().min(MIN_FRAME_SIZE).max(MAX_FRAME_SIZE);

export const SizeSchema = z.strictObject({ width: extent, height: extent }).describe('Width and height on the canvas.');
export type Size = z.infer<typeof SizeSchema>;

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
  // Like bypass, the default is never written: files that do not cross lists keep their bytes.
  fanOut: z.enum(['zip', 'cross'], { error: 'must be "zip" or "cross"' })
    .transform((mode): 'cross' | undefined => (mode === 'cross' ? 'cross' : undefined)).optional()
    .describe('How the node pairs the items of two or more lists that reach inputs taking one value: "zip" (item by item, the default) or "cross" (every combination).'),
  position: PositionSchema,
  // View state, like the position; written only when collapsed, so files without it keep their bytes.
  collapsed: z.boolean().transform((on): boolean | undefined => (on ? true : undefined)).optional()
    .describe('When true the canvas draws the node as its title bar and ports only; it runs as ever.'),
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

/** Notes and groups in one file, at most. */
export const MAX_NOTES = 2000;
export const MAX_GROUPS = 1000;

/**
 * A note on the canvas: text for people, never run. Notes live beside the nodes, not among them,
 * so the executor, the CLI and the plan never see them.
 */
export const WorkflowNoteSchema = z.strictObject({
  id: nodeId.describe('Unique among the notes; groups refer to the note by it.'),
  position: PositionSchema,
  size: SizeSchema,
  text: z.string().max(TEXT_LIMITS.description)
    .describe('Plain text, or a safe subset of Markdown (paragraphs, emphasis, code, lists, http(s) and mailto links); never HTML.'),
});
export type WorkflowNote = z.infer<typeof WorkflowNoteSchema>;

/** A titled, coloured frame: moving it moves its nodes and notes. Never run. */
export const WorkflowGroupSchema = z.strictObject({
  id: nodeId.describe('Unique among the groups.'),
  title: z.string().max(TEXT_LIMITS.title).describe("The frame's title."),
  color: z.enum(GROUP_COLORS, { error: `must be one of ${GROUP_COLORS.join(', ')}` }).describe("The frame's colour."),
  position: PositionSchema,
  size: SizeSchema,
  nodes: z.array(nodeId).max(DEFAULT_LIMITS.maxNodes).default([]).describe('The ids of the nodes in the group; a node is in one group at most.'),
  notes: z.array(nodeId).max(MAX_NOTES).default([]).describe('The ids of the notes in the group; a note is in one group at most.'),
});
export type WorkflowGroup = z.infer<typeof WorkflowGroupSchema>;

/** The node type of an instance of a component: the prefix and the definition's id (components.ts). */
export const COMPONENT_TYPE_PREFIX = 'component:';
/** Definitions in one file, and inner nodes in one definition, at most. */
export const MAX_COMPONENTS = 500;
export const MAX_COMPONENT_NODES = 1000;

/** Names on a component's face appear in `--set node.name=value`: plain, like node ids. */
const faceName = z.string().min(1, 'must not be empty').max(TEXT_LIMITS.id).regex(/^[A-Za-z0-9_-]+$/, "letters, digits, '_' and '-' only");
const label = z.string().max(TEXT_LIMITS.title);

export const ComponentInputSchema = z.strictObject({
  name: faceName.describe("The instance's input port."),
  label: label.optional().describe('What the port is called on the node; the name when absent.'),
  targets: z.array(PortRefSchema).min(1).max(MAX_COMPONENT_NODES).describe('The inner input ports it feeds (one wire crossing the border may feed several).'),
});
export type ComponentInput = z.infer<typeof ComponentInputSchema>;

export const ComponentOutputSchema = z.strictObject({
  name: faceName.describe("The instance's output port."),
  label: label.optional(),
  source: PortRefSchema.describe('The inner output port it carries.'),
});
export type ComponentOutput = z.infer<typeof ComponentOutputSchema>;

export const ComponentParamSchema = z.strictObject({
  name: faceName.describe("The key in each instance's params, and in --set."),
  label: label.describe('What the field is called on the node.'),
  node: PortRefSchema.shape.node.describe('The inner node whose parameter this is.'),
  param: PortRefSchema.shape.port.describe("The inner node's parameter name."),
});
export type ComponentParam = z.infer<typeof ComponentParamSchema>;

export const ComponentDefinitionSchema = z.strictObject({
  id: PortRefSchema.shape.node.describe('Unique among the components; instances have type "component:<id>".'),
  name: z.string().min(1, 'must not be empty').max(TEXT_LIMITS.title).describe("The component's name, shown on its instances."),
  description: z.string().max(TEXT_LIMITS.description).optional(),
  revision: z.number().int().min(1).max(1_000_000_000).describe('Counts the edits of the definition.'),
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits').describe('SHA-256 of the definition\'s content (nodes, edges, inputs, outputs, params), as componentHash computes it.'),
  nodes: z.array(WorkflowNodeSchema).min(1, 'a component holds at least one node').max(MAX_COMPONENT_NODES),
  edges: z.array(WorkflowEdgeSchema).max(MAX_COMPONENT_NODES * 4),
  inputs: z.array(ComponentInputSchema).max(MAX_COMPONENT_NODES).default([]),
  outputs: z.array(ComponentOutputSchema).max(MAX_COMPONENT_NODES).default([]),
  params: z.array(ComponentParamSchema).max(MAX_COMPONENT_NODES).default([]),
});
export type ComponentDefinition = z.infer<typeof ComponentDefinitionSchema>;

/** The document without the cross-checks: its shape gives the serialiser its field order. */
export const WorkflowShapeSchema = z.strictObject({
  format: z.literal(WORKFLOW_FORMAT),
  // 1 for files without components, 2 for files with them (format.ts, versionFor).
  version: z.union([z.literal(1), z.literal(WORKFLOW_VERSION)]),
  metadata: WorkflowMetadataSchema,
  nodes: z.array(WorkflowNodeSchema).max(DEFAULT_LIMITS.maxNodes),
  edges: z.array(WorkflowEdgeSchema).max(DEFAULT_LIMITS.maxEdges),
  // Optional, and written only when there are some, so files without them keep their bytes.
  notes: z.array(WorkflowNoteSchema).max(MAX_NOTES).optional().describe('Notes on the canvas, for people; never run.'),
  groups: z.array(WorkflowGroupSchema).max(MAX_GROUPS).optional().describe('Frames that hold nodes and notes together; never run.'),
  // Written only when there are some (format version 2): files without them keep version 1 and their bytes.
  components: z.array(ComponentDefinitionSchema).max(MAX_COMPONENTS).optional()
    .describe('Component definitions, each stored once; nodes of type "component:<id>" are its instances.'),
  // Optional like notes: a list over the graph that runs nothing of its own (app.ts).
  app: AppSchema.optional(),
});

/** The workflow file, current version, with the checks that span fields. */
export const WorkflowSchema = WorkflowShapeSchema.superRefine((workflow, ctx) => {
  for (const issue of crossCheck(workflow)) ctx.addIssue({ code: 'custom', ...issue });
  for (const issue of checkComponents(workflow, crossCheck)) ctx.addIssue({ code: 'custom', ...issue });
});
export type Workflow = z.infer<typeof WorkflowSchema>;

interface CrossIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Checks that no field can make alone: unique ids, edges between nodes that exist, at most one
 * edge into each input port, and groups holding nodes and notes that exist, each in one group at
 * most. Ports themselves are the node types' business (the executor).
 */
export function crossCheck(workflow: Pick<Workflow, 'nodes' | 'edges' | 'notes' | 'groups'> & Partial<Pick<Workflow, 'app'>>): CrossIssue[] {
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
  issues.push(...checkAnnotations(workflow, nodeIndex), ...checkApp(workflow.app, nodeIndex));
  return issues;
}

/** Unique note and group ids; group members that exist and belong to one group only. */
function checkAnnotations(workflow: Pick<Workflow, 'notes' | 'groups'>, nodeIndex: ReadonlyMap<string, number>): CrossIssue[] {
  const issues: CrossIssue[] = [];
  const noteIndex = new Map<string, number>();
  (workflow.notes ?? []).forEach((note, i) => {
    const first = noteIndex.get(note.id);
    if (first === undefined) noteIndex.set(note.id, i);
    else issues.push({ path: ['notes', i, 'id'], message: `duplicate note id '${note.id}' (also notes[${first}])` });
  });
  const groupIndex = new Map<string, number>();
  const memberOf = { nodes: new Map<string, string>(), notes: new Map<string, string>() };
  (workflow.groups ?? []).forEach((group, i) => {
    const first = groupIndex.get(group.id);
    if (first === undefined) groupIndex.set(group.id, i);
    else issues.push({ path: ['groups', i, 'id'], message: `duplicate group id '${group.id}' (also groups[${first}])` });
    for (const kind of ['nodes', 'notes'] as const) {
      const exists = kind === 'nodes' ? nodeIndex : noteIndex;
      const noun = kind === 'nodes' ? 'node' : 'note';
      // Written without defaults (in memory), a list may be absent.
      (group[kind] ?? []).forEach((id, j) => {
        const path = ['groups', i, kind, j];
        if (!exists.has(id)) {
          issues.push({ path, message: `no ${noun} '${id}'` });
          return;
        }
        const other = memberOf[kind].get(id);
        if (other === undefined) memberOf[kind].set(id, group.id);
        else issues.push({ path, message: `${noun} '${id}' is already in group '${other}'` });
      });
    }
  });
  return issues;
}
