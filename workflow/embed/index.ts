/**
 * A workflow and its image manifest, carried inside the image's own bytes (JPEG: APP9 segments,
 * PNG: iTXt chunks), so dropping a downloaded image on the canvas restores its workflow. The
 * image data is never touched. Pure: runs in the editor, the worker and the CLI.
 *
 * The workflow goes in as the caller serialised it; scanning it for credentials first is the
 * caller's part (export-scan.ts). The manifest is scrubbed here again, whatever built it.
 */
import { type EmbedPart, ImageEmbedError, checkSize, utf8 } from './bytes';
import { embedInJpeg, isJpeg, readFromJpeg } from './jpeg';
import { scrubManifest } from './manifest';
import { embedInPng, isPng, readFromPng } from './png';

export { ImageEmbedError, MAX_EMBEDDED_BYTES } from './bytes';
export {
  IMAGE_MANIFEST_FORMAT, IMAGE_MANIFEST_VERSION, ImageManifestSchema, buildImageManifest, describeImageText, readImageManifest, scrubManifest,
  type ImageManifest, type ImageRef, type ManifestCall, type ManifestImage, type ManifestSource,
} from './manifest';
export { crc32 } from './png';
export { extractComfyContent, type ComfyImageContent } from './comfy';
export { sha256Hex } from '../../api/image-data';

export interface EmbedContent {
  /** The workflow file's text (serializeWorkflow's output). */
  workflow: string;
  /** The manifest of the request that made the image (buildImageManifest's output). */
  manifest?: object;
}

export interface ExtractedContent {
  workflow?: string;
  manifest?: Record<string, unknown>;
  /** Why the manifest is missing although the image had one (damaged, cut short). */
  manifestProblem?: string;
}

/** The image formats a workflow can be embedded in. */
export type EmbedFormat = 'jpeg' | 'png';

const MIME_FORMATS: Readonly<Record<string, EmbedFormat>> = { 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/png': 'png' };

/** The format of an image's bytes, when a workflow can be embedded in it. */
export function embedFormat(bytes: Uint8Array): EmbedFormat | undefined {
  return isJpeg(bytes) ? 'jpeg' : isPng(bytes) ? 'png' : undefined;
}

/** Whether images of this mime type can carry a workflow (JPEG and PNG can; WebP and GIF cannot). */
export function canEmbedWorkflow(mime: string): boolean {
  return MIME_FORMATS[mime.toLowerCase()] !== undefined;
}

/**
 * The image's bytes with `content` embedded, replacing whatever Atelier had embedded before.
 * Throws an ImageEmbedError when the image is not a readable JPEG or PNG, when its bytes
 * contradict `mime`, or when the content is too big to carry.
 */
export function embedWorkflow(bytes: Uint8Array, mime: string, content: EmbedContent): Uint8Array {
  const claimed = MIME_FORMATS[mime.toLowerCase()];
  if (!claimed) throw new ImageEmbedError(`a workflow can be embedded in JPEG and PNG images, not in ${mime || 'this file'}`);
  const format = embedFormat(bytes);
  if (format !== claimed) {
    throw new ImageEmbedError(`the image is said to be ${mime} but its bytes ${format ? `are a ${format.toUpperCase()}` : 'are not an image Atelier can write into'}`);
  }
  if (typeof content.workflow !== 'string' || content.workflow === '') throw new ImageEmbedError('there is no workflow to embed');
  const parts = new Map<EmbedPart, Uint8Array>([['workflow', utf8(content.workflow)]]);
  if (content.manifest !== undefined) {
    let text: string | undefined;
    try {
      text = JSON.stringify(scrubManifest(content.manifest));
    } catch {
      text = undefined;
    }
    if (text === undefined) throw new ImageEmbedError('the manifest cannot be written as JSON');
    parts.set('manifest', utf8(text));
  }
  for (const [part, data] of parts) checkSize(data.length, part);
  return format === 'jpeg' ? embedInJpeg(bytes, parts) : embedInPng(bytes, parts);
}

/**
 * What Atelier embedded in an image: undefined when the bytes are not a JPEG or PNG or carry
 * nothing of Atelier's. Throws an ImageEmbedError (with a message fit to show) when the embedded
 * workflow is damaged, incomplete, too big or from a newer Atelier; a damaged manifest only
 * sets `manifestProblem`. The workflow text
 * still has to go through loadWorkflow, like any file from anyone.
 */
export function extractWorkflow(bytes: Uint8Array): ExtractedContent | undefined {
  const format = embedFormat(bytes);
  if (!format) return undefined;
  const { parts, cut } = format === 'jpeg' ? readFromJpeg(bytes) : readFromPng(bytes);
  if (!parts.found) return undefined;
  const out: ExtractedContent = {};
  const workflow = parts.text('workflow', cut);
  if (workflow !== undefined) out.workflow = workflow;
  try {
    const manifest = parts.text('manifest', cut);
    if (manifest !== undefined) out.manifest = parseManifest(manifest);
  } catch (error) {
    // The workflow is what the person came for: a damaged manifest does not cost them it.
    if (!(error instanceof ImageEmbedError) || workflow === undefined) throw error;
    out.manifestProblem = error.message;
  }
  return out;
}

function parseManifest(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ImageEmbedError("the image's manifest is damaged: it is not JSON");
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ImageEmbedError("the image's manifest is damaged: it is not a JSON object");
  }
  return value as Record<string, unknown>;
}
