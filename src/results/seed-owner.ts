/**
 * Which node's seed made an image, for "pin this seed": the image node itself, or, for an image
 * shown further down (a Preview), the nearest image node upstream whose own result holds the same
 * image (same seed, same size). Pinning sets that node's seed and fixes it.
 */
import type { NodeRegistry } from '../../nodes/index';
import { isWiredSlot, seedSlotsOf } from '../../nodes/seed-control';
import type { Workflow, WorkflowNode } from '../../workflow/schema';
import type { NodeResult } from '../run/run-state';
import { imagesOf, type ShownImage } from './object-urls';

export type SeedTarget =
  | { ok: true; nodeId: string; seed: number }
  | { ok: false; nodeId?: string; reason: string };

function hasSeedControl(node: WorkflowNode, registry: NodeRegistry): boolean {
  const def = registry.get(node.type);
  return def !== undefined && seedSlotsOf(def, node.params).length > 0;
}

const same = (a: ShownImage, b: ShownImage) => a.seed === b.seed && a.bytes === b.bytes && a.mime === b.mime;

/** The node whose seed `image` (shown on `nodeId`) used, or why it cannot be pinned. */
export function seedTarget(
  nodeId: string,
  image: ShownImage,
  workflow: Workflow,
  registry: NodeRegistry,
  resultOf: (nodeId: string) => NodeResult | undefined,
): SeedTarget | undefined {
  if (image.seed === undefined) return undefined;
  const byId = new Map(workflow.nodes.map((n) => [n.id, n]));
  const start = byId.get(nodeId);
  if (!start) return undefined;
  let owner: string | undefined;
  if (hasSeedControl(start, registry)) owner = nodeId;
  const seen = new Set([nodeId]);
  const queue = owner === undefined ? [nodeId] : [];
  while (owner === undefined && queue.length > 0) {
    const id = queue.shift()!;
    for (const edge of workflow.edges) {
      const from = edge.source.node;
      if (edge.target.node !== id || seen.has(from)) continue;
      seen.add(from);
      const node = byId.get(from);
      const result = resultOf(from);
      if (node && result && hasSeedControl(node, registry) && imagesOf(result.outputs).some((img) => same(img, image))) {
        owner = from;
        break;
      }
      queue.push(from);
    }
  }
  if (owner === undefined) return undefined;
  const ownerNode = byId.get(owner)!;
  const wired = new Set(workflow.edges.filter((e) => e.target.node === owner).map((e) => e.target.port));
  const slots = seedSlotsOf(registry.get(ownerNode.type)!, ownerNode.params);
  if (slots.every((slot) => isWiredSlot(slot, wired))) {
    return { ok: false, nodeId: owner, reason: 'its seed comes from a wire' };
  }
  return { ok: true, nodeId: owner, seed: image.seed };
}
