/**
 * Whether a node's results are pictures, known before it runs: a node that sends image requests
 * or draws one itself (the Contact sheet) and has an image output, or a Preview fed by an image
 * port. Such a node keeps a picture-sized place for its results from the start, so a finished run
 * fills it instead of making the node taller. The Image loader shows its picture in its form.
 */
import { IMAGE_NODE_TYPES } from '../../nodes/api-use';
import type { NodeRegistry } from '../../nodes/index';
import type { AnyNodeDefinition, PortKind } from '../../nodes/types';
import type { GraphIndex } from '../store/graph-index';
import { outputsFor } from '../store/ports';

const PICTURE: ReadonlySet<PortKind> = new Set(['image', 'images']);

function picturesOut(def: AnyNodeDefinition | undefined, params: Record<string, unknown>): boolean {
  return def !== undefined && (def.imageRequest !== undefined || def.localWork === true || IMAGE_NODE_TYPES.has(def.type)) && outputsFor(def, params).some((p) => PICTURE.has(p.kind));
}

export function makesPictures(index: GraphIndex, registry: NodeRegistry, nodeId: string): boolean {
  const node = index.nodeById.get(nodeId);
  const def = node && registry.get(node.type);
  if (!def) return false;
  if (picturesOut(def, node.params)) return true;
  if (outputsFor(def, node.params).length > 0) return false;
  // A node without outputs shows what it is given: pictures when an image port feeds it.
  for (const edge of index.inbound.get(nodeId)?.values() ?? []) {
    const from = index.nodeById.get(edge.source.node);
    const fromDef = from && registry.get(from.type);
    const port = from && fromDef && outputsFor(fromDef, from.params).find((p) => p.name === edge.source.port);
    if (port && PICTURE.has(port.kind)) return true;
  }
  return false;
}
