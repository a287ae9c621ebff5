/**
 * Which node's seed made an image, for "pin this seed": the image node itself, or, for an image
 * shown further down (a Preview), the nearest image node upstream whose own result holds the same
 * image (same seed, same size). Pinning sets that node's seed and fixes it. The search runs over
 * the workflow as it ran, components flattened: an inner node is found by its flat id
 * (`restyle-1/draw`), an instance's pictures lead to the inner nodes its face shows, and a
 * Preview after an instance finds the inner node that made its picture.
 */
import type { NodeRegistry } from '../../nodes/index';
import { isWiredSlot, seedSlotsOf } from '../../nodes/seed-control';
import { flattenComponents } from '../../workflow/flatten';
import type { Workflow, WorkflowNode } from '../../workflow/schema';
import { faceSources, type FaceSources } from '../run/component-rollup';
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

/** A run's workflow flattened, and its instances' face sources, worked out once per snapshot (every picture asks). */
const asRun = new WeakMap<Workflow, { flat: Workflow; faces: FaceSources }>();
function runShape(workflow: Workflow): { flat: Workflow; faces: FaceSources } {
  let shape = asRun.get(workflow);
  if (shape === undefined) {
    const flat = workflow.components === undefined ? undefined : flattenComponents(workflow);
    shape = flat?.ok === true ? { flat: flat.workflow, faces: faceSources(workflow) } : { flat: workflow, faces: new Map() };
    asRun.set(workflow, shape);
  }
  return shape;
}

/** The node whose seed `image` (shown on `nodeId`) used, or why it cannot be pinned. */
export function seedTarget(
  nodeId: string,
  image: ShownImage,
  workflow: Workflow,
  registry: NodeRegistry,
  resultOf: (nodeId: string) => NodeResult | undefined,
): SeedTarget | undefined {
  if (image.seed === undefined) return undefined;
  const { flat, faces } = runShape(workflow);
  const byId = new Map(flat.nodes.map((n) => [n.id, n]));
  const start = byId.get(nodeId);
  const made = (id: string) => {
    const node = byId.get(id);
    const result = resultOf(id);
    return node !== undefined && result !== undefined && hasSeedControl(node, registry) && imagesOf(result.outputs).some((img) => same(img, image));
  };
  // An instance shows the pictures of the inner nodes its face's outputs come from.
  const first = start ? [nodeId] : [...(faces.get(nodeId)?.values() ?? [])].map((ref) => ref.node).filter((id) => byId.has(id));
  if (first.length === 0) return undefined;
  let owner: string | undefined = start ? (hasSeedControl(start, registry) ? nodeId : undefined) : first.find(made);
  const seen = new Set(first);
  const queue = owner === undefined ? [...first] : [];
  while (owner === undefined && queue.length > 0) {
    const id = queue.shift()!;
    for (const edge of flat.edges) {
      const from = edge.source.node;
      if (edge.target.node !== id || seen.has(from)) continue;
      seen.add(from);
      if (made(from)) {
        owner = from;
        break;
      }
      queue.push(from);
    }
  }
  if (owner === undefined) return undefined;
  const ownerNode = byId.get(owner)!;
  const wired = new Set(flat.edges.filter((e) => e.target.node === owner).map((e) => e.target.port));
  const slots = seedSlotsOf(registry.get(ownerNode.type)!, ownerNode.params);
  if (slots.every((slot) => isWiredSlot(slot, wired))) {
    return { ok: false, nodeId: owner, reason: 'its seed comes from a wire' };
  }
  return { ok: true, nodeId: owner, seed: image.seed };
}
