/**
 * What a file dropped on the canvas is, as far as ComfyUI is concerned: a ComfyUI workflow JSON
 * (API or UI format) becomes a ComfyUI workflow node where it is dropped; a PNG that carries a
 * ComfyUI workflow (and no Atelier one, which still opens) asks whether to use its workflow as a
 * node or load the picture. Pure tests of the bytes: the canvas decides what to do.
 */
import { isUiWorkflow } from '../../api/backends/comfyui/pipeline/ui-format';
import { extractComfyContent, extractWorkflow } from '../../workflow/embed';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether JSON text is a ComfyUI workflow rather than an Atelier one (whose loader reads anything else). */
export function isComfyWorkflowJson(text: string): boolean {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isObject(json) || json.format === 'atelier.workflow') return false;
  if (isUiWorkflow(json)) return true;
  const nodes = Object.values(json);
  return nodes.length > 0 && nodes.every((n) => isObject(n) && typeof n.class_type === 'string');
}

/** Whether image bytes carry a ComfyUI workflow and no Atelier one; a damaged image is left to the image path. */
export function carriesComfyOnly(bytes: Uint8Array): boolean {
  try {
    if (extractWorkflow(bytes)?.workflow !== undefined) return false;
    return extractComfyContent(bytes) !== undefined;
  } catch {
    return false;
  }
}
