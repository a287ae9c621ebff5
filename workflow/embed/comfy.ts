/**
 * What ComfyUI saved in a PNG: its SaveImage node writes the API-format graph as tEXt `prompt`
 * and the editor's graph as tEXt `workflow` (nodes.py SaveImage, PIL's PngInfo.add_text, which
 * falls back to iTXt for text that is not Latin-1). The texts are returned as they are; the
 * pipeline reader (api/backends/comfyui/pipeline) parses them like any file from anyone.
 */
import { readPngText } from './png';

export interface ComfyImageContent {
  /** The API-format workflow (`prompt`), as JSON text. */
  prompt?: string;
  /** The UI-format workflow (`workflow`), as JSON text. */
  workflow?: string;
}

/** ComfyUI's texts in a PNG, or undefined when it carries neither. Throws an ImageEmbedError when one is damaged. */
export function extractComfyContent(bytes: Uint8Array): ComfyImageContent | undefined {
  const found = readPngText(bytes, ['prompt', 'workflow']);
  const prompt = found.get('prompt');
  const workflow = found.get('workflow');
  if (prompt === undefined && workflow === undefined) return undefined;
  return { ...(prompt === undefined ? {} : { prompt }), ...(workflow === undefined ? {} : { workflow }) };
}
