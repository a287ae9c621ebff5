/**
 * Between files and the document: a saved file holds each image as base64 (format v1, so every
 * file stands alone), the editor's document holds a reference into the asset store (ref.ts).
 * An image parameter is a top-level parameter whose value is an object with a `b64` field (the
 * Image loader's `image`, Inpaint's `mask_paint`); both functions below touch only those.
 */
import { bytesToBase64, canonicalBase64Bytes, sniffImageFormat } from '../api/image-data';
import type { Workflow, WorkflowNode } from '../workflow/schema';
import { isAssetRef, type AssetRef } from './ref';
import type { AssetStore } from './store';

/** A reference whose bytes the store does not hold, named by node and parameter. */
export class MissingAssetError extends Error {
  constructor(readonly node: string, readonly param: string) {
    super(`node '${node}', field '${param}': its image is no longer in this browser's storage; choose or paint it again`);
    this.name = 'MissingAssetError';
  }
}

type ImageParam = { b64: string } & Record<string, unknown>;

function imageParams(node: WorkflowNode): [string, ImageParam][] {
  const found: [string, ImageParam][] = [];
  for (const [name, value] of Object.entries(node.params)) {
    if (typeof value === 'object' && value !== null && typeof (value as { b64?: unknown }).b64 === 'string') {
      found.push([name, value as ImageParam]);
    }
  }
  return found;
}

/** Whether any image parameter of the workflow is a reference (so it needs inlining to leave). */
export function hasAssetRefs(workflow: Workflow): boolean {
  return workflow.nodes.some((node) => imageParams(node).some(([, v]) => isAssetRef(v.b64)));
}

async function mapImages(
  workflow: Workflow,
  change: (node: WorkflowNode, name: string, b64: string) => Promise<string | undefined>,
): Promise<Workflow> {
  let changed = false;
  const nodes = await Promise.all(workflow.nodes.map(async (node) => {
    let params: Record<string, unknown> | undefined;
    for (const [name, value] of imageParams(node)) {
      const b64 = await change(node, name, value.b64);
      if (b64 === undefined) continue;
      params ??= { ...node.params };
      params[name] = { ...value, b64 };
    }
    if (params === undefined) return node;
    changed = true;
    return { ...node, params };
  }));
  return changed ? { ...workflow, nodes } : workflow;
}

/**
 * The workflow with every base64 image put into `store` and replaced by its reference. Strings
 * that are not an image's canonical base64 are left as they are, for the checks to report, and
 * so is an image the store fails to keep.
 */
export function internalizeImages(workflow: Workflow, store: AssetStore): Promise<Workflow> {
  return mapImages(workflow, async (_node, _name, b64) => {
    if (isAssetRef(b64)) return undefined;
    // Only base64 that encodes back exactly is swapped, so a save writes the very text it read.
    const bytes = canonicalBase64Bytes(b64);
    const format = bytes && sniffImageFormat(bytes);
    if (bytes === undefined || format === undefined) return undefined;
    // A store that cannot keep it (IndexedDB refused in a private window) leaves the base64.
    return store.put(bytes, `image/${format}`).catch(() => undefined);
  });
}

/**
 * The workflow with every reference replaced by its image's base64, for a file, a link, the
 * clipboard or an image's embedded workflow. Throws a MissingAssetError naming the node and
 * parameter when the store has lost an image.
 */
export function inlineImages(workflow: Workflow, store: AssetStore): Promise<Workflow> {
  return mapImages(workflow, async (node, name, b64) => {
    if (!isAssetRef(b64)) return undefined;
    const asset = await store.get(b64);
    if (asset === undefined) throw new MissingAssetError(node.id, name);
    return bytesToBase64(asset.bytes);
  });
}

/**
 * `inlineImages` without waiting, from what the store holds in memory; undefined when some image
 * is not at hand (the caller then takes the asynchronous way).
 */
export function inlineImagesNow(workflow: Workflow, store: AssetStore): Workflow | undefined {
  if (!hasAssetRefs(workflow)) return workflow;
  const nodes: WorkflowNode[] = [];
  for (const node of workflow.nodes) {
    let params: Record<string, unknown> | undefined;
    for (const [name, value] of imageParams(node)) {
      if (!isAssetRef(value.b64)) continue;
      const asset = store.peek(value.b64 as AssetRef);
      if (asset === undefined) return undefined;
      params ??= { ...node.params };
      params[name] = { ...value, b64: bytesToBase64(asset.bytes) };
    }
    nodes.push(params === undefined ? node : { ...node, params });
  }
  return { ...workflow, nodes };
}
