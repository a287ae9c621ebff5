/**
 * A downloaded image carries its story: the workflow as it was run (with the seeds
 * it used pinned, so that it runs again to the same picture) and a manifest of the request that
 * made it (node, engine, parameters, seed, node version), embedded in the JPEG or PNG itself
 * (workflow/embed). Before that the workflow is scanned for credential-like
 * text (workflow/export-scan): findings are shown, and the download goes on with them removed,
 * or as the bare image. The manifest is scrubbed of every token and endpoint the settings hold.
 * Loaded when the first download is asked for.
 */
import { version as atelierVersion } from '../../package.json';
import { bytesToBase64 } from '../../api/image-data';
import type { NodeRegistry } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import { buildImageManifest, canEmbedWorkflow, embedWorkflow, ImageEmbedError, type ManifestCall } from '../../workflow/embed';
import { removeFindings, scanWorkflowForExport, type ExportFinding } from '../../workflow/export-scan';
import { serializeWorkflow } from '../../workflow/serialize';
import type { Workflow } from '../../workflow/schema';
import { inlineImages, MissingAssetError } from '../../assets/inline';
import { pageAssets } from '../files/assets';
import { findingPlaces } from '../files/load-report';
import { downloadBlob } from '../ui/download';

export interface ImageDownload {
  image: Blob;
  mime: string;
  width?: number;
  height?: number;
  seed?: number;
  /** The pool server that made it, by label. */
  madeOn?: string;
  fileName: string;
  /** The workflow as it was run; without one the image goes as it is. */
  workflow?: Workflow;
  /** The seeds the run used, by node: pinned in the embedded workflow so that it makes the image again. */
  seeds?: ReadonlyMap<string, number>;
  /** Pins them (the run worker decides which seeds would not repeat: RunController.pinSeeds). */
  pinSeeds(workflow: Workflow, used: ReadonlyMap<string, number>): Promise<Workflow>;
  /** The node that made the image and the requests it sent. */
  maker?: { node: { id: string; type: string; title?: string }; typeVersion?: number; calls: readonly ManifestCall[] };
  /** Tokens and endpoints of the settings: never let into the manifest. */
  secrets: readonly string[];
  registry: NodeRegistry;
}

export type PreparedDownload =
  | { kind: 'ready'; bytes: Uint8Array; fileName: string; mime: string; embedded: boolean; note?: string }
  | {
    kind: 'findings';
    fileName: string;
    mime: string;
    findings: ExportFinding[];
    /** Where each finding is, by field label and node title. */
    places: string[];
    /** False when a finding is one only a person can fix (a node type, a port name). */
    removable: boolean;
    /** The image with the workflow embedded, findings removed. */
    withoutFindings(): Uint8Array;
    /** The image as the node made it, nothing embedded. */
    imageOnly: Uint8Array;
  };

/** The bytes to download for `d`, or the findings a person must decide on first. */
export async function prepareImageDownload(d: ImageDownload): Promise<PreparedDownload> {
  const bytes = new Uint8Array(await d.image.arrayBuffer());
  const plain = (note?: string): PreparedDownload => ({ kind: 'ready', bytes, fileName: d.fileName, mime: d.mime, embedded: false, ...(note ? { note } : {}) });
  if (!d.workflow) return plain();
  if (!canEmbedWorkflow(d.mime)) return plain(`${d.mime} images cannot carry a workflow: downloaded without it`);

  const manifest = d.maker && buildImageManifest({
    atelierVersion,
    node: d.maker.node,
    ...(d.maker.typeVersion === undefined ? {} : { typeVersion: d.maker.typeVersion }),
    calls: d.maker.calls,
    image: {
      b64: bytesToBase64(bytes),
      mime: d.mime,
      ...(d.seed === undefined ? {} : { seed: d.seed }),
      ...(d.width === undefined ? {} : { width: d.width }),
      ...(d.height === undefined ? {} : { height: d.height }),
      ...(d.madeOn === undefined ? {} : { madeOn: d.madeOn }),
    },
    secrets: d.secrets,
  });
  const embed = (workflow: Workflow) => embedWorkflow(bytes, d.mime, { workflow: serializeWorkflow(workflow), ...(manifest ? { manifest } : {}) });
  const { declaredParams } = catalogueLoadOptions(d.registry);
  let workflow: Workflow;
  try {
    // The file must stand alone: images the document refers to go in as base64.
    workflow = await inlineImages(d.seeds ? await d.pinSeeds(d.workflow, d.seeds) : d.workflow, pageAssets);
  } catch (error) {
    if (error instanceof MissingAssetError) return plain(`the workflow could not be embedded (${error.message}): downloaded without it`);
    throw error;
  }
  const { findings } = scanWorkflowForExport(workflow, { declaredParams });
  try {
    if (findings.length === 0) return { kind: 'ready', bytes: embed(workflow), fileName: d.fileName, mime: d.mime, embedded: true };
  } catch (error) {
    if (error instanceof ImageEmbedError) return plain(`the workflow could not be embedded (${error.message}): downloaded without it`);
    throw error;
  }
  return {
    kind: 'findings',
    fileName: d.fileName,
    mime: d.mime,
    findings,
    places: findingPlaces(findings, workflow, d.registry),
    removable: findings.every((f) => f.remedy !== 'manual'),
    withoutFindings: () => embed(removeFindings(workflow, findings)),
    imageOnly: bytes,
  };
}

/** Starts the browser's download of `bytes` under `fileName`. */
export function saveBytes(bytes: Uint8Array, mime: string, fileName: string): void {
  downloadBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime }), fileName);
}
