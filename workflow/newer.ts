/**
 * Opening a file from a newer Atelier, best-effort: fields this build does not know are removed
 * (each with a warning, since saving will not keep them) so that the rest parses with the
 * current schema. Params are records by name and are kept whole; nodes are never removed.
 */
import type { WarningSink, WorkflowWarning } from './errors';
import { type PathSegment, formatPath } from './path';
import { type JsonObject, isJsonObject } from './sanitize';
import {
  PortRefSchema, PositionSchema, SizeSchema, WorkflowEdgeSchema, WorkflowGroupSchema, WorkflowMetadataSchema, WorkflowNodeSchema,
  WorkflowNoteSchema, WorkflowShapeSchema,
} from './schema';

const known = (shape: object): ReadonlySet<string> => new Set(Object.keys(shape));
const ROOT_KEYS = known(WorkflowShapeSchema.shape);
const METADATA_KEYS = known(WorkflowMetadataSchema.shape);
const NODE_KEYS = known(WorkflowNodeSchema.shape);
const POSITION_KEYS = known(PositionSchema.shape);
const EDGE_KEYS = known(WorkflowEdgeSchema.shape);
const PORT_KEYS = known(PortRefSchema.shape);
const FRAME_KEYS = { notes: known(WorkflowNoteSchema.shape), groups: known(WorkflowGroupSchema.shape) };
const SIZE_KEYS = known(SizeSchema.shape);

const FRAME_SCHEMAS = { notes: WorkflowNoteSchema, groups: WorkflowGroupSchema };

/** Whether every item of a newer file's notes or groups reads as this version's, its unknown fields aside. */
function readableList(value: unknown, list: 'notes' | 'groups'): boolean {
  if (!Array.isArray(value)) return false;
  const knownOnly = (object: JsonObject, keys: ReadonlySet<string>) => Object.fromEntries(Object.entries(object).filter(([k]) => keys.has(k)));
  return value.every((item) => {
    if (!isJsonObject(item)) return false;
    const copy = knownOnly(item, FRAME_KEYS[list]);
    if (isJsonObject(item.position)) copy.position = knownOnly(item.position, POSITION_KEYS);
    if (isJsonObject(item.size)) copy.size = knownOnly(item.size, SIZE_KEYS);
    return FRAME_SCHEMAS[list].safeParse(copy).success;
  });
}

/**
 * Removes the fields the current schema does not know, in place. One warning per field name and
 * kind of object (a newer `color` on every node is one warning, with the count), at its first place.
 */
export function dropUnknownFields(doc: JsonObject, fileVersion: number, warnings: WarningSink): void {
  const found = new Map<string, { warning: WorkflowWarning; count: number; noun: string }>();
  const prune = (object: JsonObject, keys: ReadonlySet<string>, path: PathSegment[], noun: string, nodeId?: string) => {
    for (const key of Object.keys(object)) {
      if (keys.has(key)) continue;
      delete object[key];
      // The path without indices names the kind of object: nodes[3].color and nodes[9].color are one field.
      const kind = `${path.filter((p) => typeof p === 'string').join('.')}.${key}`;
      const seen = found.get(kind);
      if (seen) {
        seen.count++;
        continue;
      }
      const warning: WorkflowWarning = { code: 'unknown-field-dropped', path: formatPath([...path, key]), message: '' };
      if (nodeId !== undefined) warning.nodeId = nodeId;
      found.set(kind, { warning, count: 1, noun });
    }
  };

  // A newer file's notes or groups that would not read as this version's are dropped whole,
  // like any field this build does not understand, rather than refusing the file.
  const rootKeys = new Set([...ROOT_KEYS].filter((key) => (key !== 'notes' && key !== 'groups') || readableList(doc[key], key)));
  prune(doc, rootKeys, [], 'file');
  if (isJsonObject(doc.metadata)) prune(doc.metadata, METADATA_KEYS, ['metadata'], 'file');
  if (Array.isArray(doc.nodes)) {
    doc.nodes.forEach((node, i) => {
      if (!isJsonObject(node)) return;
      const nodeId = typeof node.id === 'string' ? node.id : undefined;
      prune(node, NODE_KEYS, ['nodes', i], 'nodes', nodeId);
      if (isJsonObject(node.position)) prune(node.position, POSITION_KEYS, ['nodes', i, 'position'], 'nodes', nodeId);
    });
  }
  if (Array.isArray(doc.edges)) {
    doc.edges.forEach((edge, i) => {
      if (!isJsonObject(edge)) return;
      prune(edge, EDGE_KEYS, ['edges', i], 'edges');
      for (const end of ['source', 'target'] as const) {
        const ref = edge[end];
        if (isJsonObject(ref)) prune(ref, PORT_KEYS, ['edges', i, end], 'edges');
      }
    });
  }
  for (const list of ['notes', 'groups'] as const) {
    const items = doc[list];
    if (!Array.isArray(items)) continue;
    items.forEach((item, i) => {
      if (!isJsonObject(item)) return;
      prune(item, FRAME_KEYS[list], [list, i], list);
      if (isJsonObject(item.position)) prune(item.position, POSITION_KEYS, [list, i, 'position'], list);
      if (isJsonObject(item.size)) prune(item.size, SIZE_KEYS, [list, i, 'size'], list);
    });
  }

  for (const { warning, count, noun } of found.values()) {
    const where = count > 1 ? ` (in ${count} ${noun})` : '';
    warning.message = `a field from format version ${fileVersion} that this build does not understand${where}; it is not kept when you save`;
    warnings.add(warning);
  }
}
