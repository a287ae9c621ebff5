/**
 * The workflow and a manifest inside every image the CLI writes, so an output can be dropped on
 * the canvas or run again as it is. The workflow is the one that ran (after `--set`), with the
 * seeds it used pinned so that it makes the image again, checked for credential-like text first;
 * the manifest is per image: the node that made it, its engine, its requests (images as size and
 * sha256) and that image's seed. Neither ever holds the token or an endpoint.
 */
import { distinctiveSecrets, withoutDistinctiveSecrets } from '../api/redact';
import type { NodeRegistry } from '../nodes/index';
import { catalogueLoadOptions } from '../nodes/load-options';
import type { ImageData } from '../nodes/types';
import type { ExecutorEvent } from '../workers/events';
import { seedUsed } from '../nodes/seed-used';
import { seedsOf } from './manifest';
import { pinSeedsUsed } from '../workers/seeds';
import { ImageEmbedError, buildImageManifest, canEmbedWorkflow, embedWorkflow, type ManifestCall } from '../workflow/embed';
import { WorkflowSaveError } from '../workflow/errors';
import { REMOVED_MARK, removeFindings, scanWorkflowForExport } from '../workflow/export-scan';
import { type PathSegment, formatPath } from '../workflow/path';
import type { Workflow } from '../workflow/schema';
import { serializeWorkflow } from '../workflow/serialize';

export interface EmbedderOptions {
  /** The workflow as it runs (overrides applied). */
  workflow: Workflow;
  registry: NodeRegistry;
  atelierVersion: string;
  /** The tokens: taken out of the embedded workflow and manifest where distinctive (api/redact.ts). */
  secrets: readonly string[];
  /** The requests a node made, with their images digested (the request recorder's). */
  callsOf(nodeId: string): readonly ManifestCall[];
  now(): Date;
  /** Something the user should know (printed, and kept in manifest.json); never holds a secret. */
  warn(text: string): void;
}

export interface ImageEmbedder {
  /** Feed every executor event before its outputs are written: it notes which node made each image. */
  onEvent(event: ExecutorEvent): void;
  /**
   * The bytes to write for `image` into `file`: the service's bytes with the workflow and the
   * image's manifest embedded, or the service's bytes alone (with a warning) when the image
   * cannot carry them. `nodeId` is the node whose output is being written.
   */
  bytesFor(image: ImageData, file: string, nodeId: string): Uint8Array;
}

/** The node that first output an image (a Preview or a bypassed node only passes it on), and when. */
interface Origin {
  nodeId: string;
  made: Date;
}

/**
 * `workflow` with every occurrence of a distinctive secret in its text replaced, and where they
 * were. A short or word-like token (`text`, `ollama`) is someone's words in a file: a node type,
 * a port, a prompt; only a real key pasted into a field is taken out.
 */
function withoutSecrets(workflow: Workflow, secrets: readonly string[]): { workflow: Workflow; places: string[] } {
  const places: string[] = [];
  const present = distinctiveSecrets(secrets);
  if (present.length === 0) return { workflow, places };
  const walk = (value: unknown, at: PathSegment[]): unknown => {
    if (typeof value === 'string') {
      if (!present.some((s) => value.includes(s))) return value;
      places.push(formatPath(at));
      return withoutDistinctiveSecrets(value, present, REMOVED_MARK);
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, [...at, i]));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...at, k])]));
  };
  return { workflow: walk(workflow, []) as Workflow, places };
}

/**
 * The workflow to embed, with credential-like text removed (one warning per finding, naming the
 * node and field, never the secret); undefined, with the reason given, when what is left cannot
 * be shared safely.
 */
function workflowToEmbed(options: EmbedderOptions): Workflow | undefined {
  const { workflow, registry, secrets, warn } = options;
  const declaredParams = catalogueLoadOptions(registry).declaredParams;
  const { findings } = scanWorkflowForExport(workflow, { declaredParams });
  for (const f of findings.filter((f) => f.remedy !== 'manual')) {
    warn(`${f.field} holds ${f.kind}: it is left out of the workflow embedded in the images (${f.path})`);
  }
  const cleaned = withoutSecrets(findings.length === 0 ? workflow : removeFindings(workflow, findings), secrets);
  for (const place of cleaned.places) warn(`${place} holds the ATELIER_TOKEN value: it is left out of the workflow embedded in the images`);

  // What removal cannot fix (a credential-like node type or port name) keeps the workflow out.
  const left = scanWorkflowForExport(cleaned.workflow, { declaredParams }).findings;
  if (left.length > 0) {
    const named = left.map((f) => `${f.field} (${f.path}) holds ${f.kind}`).join('; ');
    warn(`the images are written without the workflow: ${named}, which only an edit of the file can remove`);
    return undefined;
  }
  return cleaned.workflow;
}

export function createImageEmbedder(options: EmbedderOptions): ImageEmbedder {
  const { workflow, registry, now, warn } = options;
  const byId = new Map(workflow.nodes.map((n) => [n.id, n]));
  const origins = new Map<string, Origin>();
  /** The seed each node that made images used (seedUsed), for pinning in the embedded workflow. */
  const seeds = new Map<string, number>();
  /** Worked out when the first image is written: a run that writes none has nothing to warn about. */
  let cleaned: { workflow: Workflow | undefined } | undefined;
  let text: { seeds: number; value: string } | undefined;

  /**
   * The workflow text for an image written now: the seeds used so far pinned (pinSeedsUsed).
   * Every node an image comes from has ended before it is written, so the image runs again to
   * the same bytes; a node that ends later, after this file was written, is not in it.
   */
  const embeddedText = (): string | undefined => {
    cleaned ??= { workflow: workflowToEmbed(options) };
    if (cleaned.workflow === undefined) return undefined;
    if (text?.seeds !== seeds.size) {
      try {
        text = { seeds: seeds.size, value: serializeWorkflow(pinSeedsUsed(cleaned.workflow, registry, seeds)) };
      } catch (error) {
        if (!(error instanceof WorkflowSaveError)) throw error;
        warn(`the images are written without the workflow: ${error.message}`);
        cleaned.workflow = undefined;
        return undefined;
      }
    }
    return text.value;
  };

  const noteOrigin = (image: ImageData, origin: Origin) => {
    if (!origins.has(image.b64)) origins.set(image.b64, origin);
  };

  const manifestFor = (image: ImageData, nodeId: string) => {
    const origin = origins.get(image.b64) ?? { nodeId, made: now() };
    const node = byId.get(origin.nodeId);
    const type = node?.type ?? 'unknown';
    const typeVersion = registry.get(type)?.version;
    return buildImageManifest({
      atelierVersion: options.atelierVersion,
      node: { id: origin.nodeId, type, ...(node?.title === undefined ? {} : { title: node.title }) },
      ...(typeVersion === undefined ? {} : { typeVersion }),
      calls: options.callsOf(origin.nodeId),
      image,
      created: origin.made,
      secrets: options.secrets,
    });
  };

  return {
    onEvent(event) {
      if (event.type !== 'node-done' && event.type !== 'node-item-done') return;
      const origin: Origin = { nodeId: event.nodeId, made: now() };
      for (const value of Object.values(event.outputs)) {
        if (value.kind === 'image') noteOrigin(value.value, origin);
        if (value.kind === 'images') for (const image of value.value) noteOrigin(image, origin);
      }
      if (event.type !== 'node-done') return;
      // A node that ran once per item is pinned only when every item used the one seed: items
      // with seeds of their own cannot all come back from one seed in the file.
      const seed = seedUsed(event.outputs);
      const one = event.items === undefined || seedsOf(event.outputs).length <= 1;
      if (seed !== undefined && one) seeds.set(event.nodeId, seed);
    },
    bytesFor(image, file, nodeId) {
      const raw = Buffer.from(image.b64, 'base64');
      const workflowText = embeddedText();
      if (workflowText === undefined) return raw;
      if (!canEmbedWorkflow(image.mime)) {
        warn(`${file} is written as it is: ${image.mime} images cannot carry the workflow (JPEG and PNG can)`);
        return raw;
      }
      try {
        return embedWorkflow(raw, image.mime, { workflow: workflowText, manifest: manifestFor(image, nodeId) });
      } catch (error) {
        if (!(error instanceof ImageEmbedError)) throw error;
        warn(`${file} is written as it is, without the workflow: ${error.message}`);
        return raw;
      }
    },
  };
}
