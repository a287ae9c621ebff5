/**
 * A workflow file chosen or dropped for a ComfyUI workflow node: its texts (a JSON file's, or a
 * PNG's `prompt` and `workflow` chunks), the ComfyUI server in Settings asked for `/object_info`
 * (a UI-format file needs it to read its widgets; an API-format one gets its inputs' real types
 * from it), and the node's params with the default choice applied. A refusal is one line.
 */
import { z } from 'zod';
import { importPipeline, type ImportedPipeline, type InfoOrReason, type PipelineSource } from '../../api/backends/comfyui/pipeline/import';
import { PipelineError } from '../../api/backends/comfyui/pipeline/model';
import { readObjectInfo, type ObjectInfo } from '../../api/backends/comfyui/pipeline/object-info';
import { comfyWorkflowParams, type ComfyWorkflowParams } from '../../nodes/comfy-workflow';
import { extractComfyContent, ImageEmbedError } from '../../workflow/embed';
import { ApiError } from '../../api/errors';
import { createTransport } from '../../api/backends/comfyui/transport';
import type { BackendCredentials, ImageBackendSettings } from '../settings/backend-types';

/** Where ComfyUI listens when its base URL is left empty (its describe.ts's defaultBaseUrl). */
const COMFY_DEFAULT_URL = 'http://127.0.0.1:8188';
/** A server that has not answered by then is taken as unreachable: the person is waiting. */
const INFO_TIMEOUT_MS = 10_000;
/** The largest file read: a workflow is text, a PNG holds it beside the picture. */
export const MAX_WORKFLOW_FILE_BYTES = 60 * 1024 * 1024;

/** Whether a file is a PNG (by its first bytes). */
export function isPngBytes(bytes: Uint8Array): boolean {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return bytes.length >= 8 && sig.every((b, i) => bytes[i] === b);
}

/**
 * The workflow texts of a file: a PNG's ComfyUI chunks, else the file as JSON text. Throws a
 * PipelineError saying why when a PNG carries no ComfyUI workflow or a chunk is damaged.
 */
export function sourceOfBytes(bytes: Uint8Array, name: string): PipelineSource {
  if (bytes.length > MAX_WORKFLOW_FILE_BYTES) throw new PipelineError(`'${name}' is ${Math.round(bytes.length / 1024 / 1024)} MB; Atelier reads workflow files up to ${MAX_WORKFLOW_FILE_BYTES / 1024 / 1024} MB`);
  if (!isPngBytes(bytes)) return { api: new TextDecoder().decode(bytes) };
  let content;
  try {
    content = extractComfyContent(bytes);
  } catch (error) {
    if (error instanceof ImageEmbedError) throw new PipelineError(`'${name}' carries a ComfyUI workflow that cannot be read: ${error.message}`);
    throw error;
  }
  if (content === undefined) throw new PipelineError(`'${name}' carries no ComfyUI workflow (ComfyUI's SaveImage writes it into the PNGs it saves)`);
  return { ...(content.prompt === undefined ? {} : { api: content.prompt }), ...(content.workflow === undefined ? {} : { ui: content.workflow }) };
}

/** The ComfyUI chosen in Settings → Image backend: its base URL and its credential (a proxy's token), if any. */
export interface ComfyServer {
  baseUrl: string;
  token?: string;
}

/** The slots in the order they are looked at: all engines first, then each engine's own. */
function comfySlots(backends: ImageBackendSettings) {
  return [['all', backends.all] as const, ...Object.entries(backends.engines).flatMap(([id, slot]) => (slot === undefined ? [] : [[id, slot] as const]))];
}

/** The base URL of the ComfyUI chosen in Settings → Image backend (all engines first), or undefined. */
export function comfyBaseUrl(backends: ImageBackendSettings): string | undefined {
  return comfyServer(backends, {})?.baseUrl;
}

/**
 * The ComfyUI chosen in Settings → Image backend (all engines first) with the credential stored
 * for that slot (Settings' key `slot:comfyui`), or undefined when none is chosen.
 */
export function comfyServer(backends: ImageBackendSettings, credentials: BackendCredentials): ComfyServer | undefined {
  for (const [id, slot] of comfySlots(backends)) {
    if (slot.kind !== 'comfyui') continue;
    const url = slot.fields.comfyui?.baseUrl.trim() ?? '';
    const token = Object.hasOwn(credentials, `${id}:comfyui`) ? credentials[`${id}:comfyui`]?.trim() ?? '' : '';
    return { baseUrl: (url === '' ? COMFY_DEFAULT_URL : url).replace(/\/+$/, ''), ...(token === '' ? {} : { token }) };
  }
  return undefined;
}

/**
 * The server's `/object_info`, or why it could not be had (one line, no URL parts beyond the
 * origin). Asked as the ComfyUI backend asks (its transport): the credential goes in the
 * `Authorization` header, never in the URL, and never into the reason.
 */
export async function askObjectInfo(server: ComfyServer | string | undefined, fetcher: typeof fetch = fetch): Promise<InfoOrReason> {
  if (server === undefined) return { unreachable: 'no ComfyUI server is chosen in Settings → Image backend' };
  const { baseUrl, token } = typeof server === 'string' ? { baseUrl: server, token: undefined } : server;
  let origin: string;
  try {
    const url = new URL(baseUrl);
    origin = url.origin;
    if (url.username !== '' || url.password !== '') return { unreachable: `the ComfyUI base URL in Settings (${origin}) carries a user name or password: put a proxy's token in the credential field instead` };
  } catch {
    return { unreachable: 'the ComfyUI base URL in Settings is not a URL' };
  }
  try {
    const transport = createTransport({
      baseUrl, ...(token === undefined ? {} : { token }), fetch: fetcher,
      timeouts: { headersMs: INFO_TIMEOUT_MS, idleMs: INFO_TIMEOUT_MS }, retry: { maxAttempts: 1 },
    });
    return { info: readObjectInfo(await transport.getJson('/object_info', z.unknown(), { signal: AbortSignal.timeout(INFO_TIMEOUT_MS) })) };
  } catch (error) {
    if (error instanceof ApiError && error.status !== undefined) return { unreachable: `the ComfyUI server at ${origin} answered ${error.status}` };
    if (error instanceof TypeError && /token/.test(error.message)) return { unreachable: `the credential for ComfyUI in Settings cannot be sent: ${error.message}` };
    return { unreachable: `the ComfyUI server at ${origin} could not be reached (is it running, started with --enable-cors-header for this page?)` };
  }
}

export interface ChosenWorkflow {
  params: ComfyWorkflowParams;
  imported: ImportedPipeline;
  /** The server's node list when it was reached, for the inputs' types and choices. */
  info?: ObjectInfo;
}

/**
 * Reads a chosen file into a ComfyUI workflow node's params. The server is asked only when it
 * helps: always for a UI-format file (refused without it), and for an API-format one to learn
 * its inputs' types (read without it otherwise). Throws a PipelineError with the reason.
 */
export async function chooseWorkflow(bytes: Uint8Array, name: string, server: () => Promise<InfoOrReason>): Promise<ChosenWorkflow> {
  const source = sourceOfBytes(bytes, name);
  const reached = await server();
  const imported = importPipeline(source, reached);
  const info = 'info' in reached ? reached.info : undefined;
  return { params: comfyWorkflowParams(imported, name), imported, ...(info === undefined ? {} : { info }) };
}
