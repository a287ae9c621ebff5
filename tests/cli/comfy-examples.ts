/**
 * The examples with a ComfyUI workflow node (make-examples.ts writes them with the others): FLUX.1
 * [dev] with its prompt from the Chat prompt writer, SD 3.5 over a chat's eight prompts into a
 * contact sheet, an SDXL picture through an ESRGAN upscale, and a face-detail pass that needs the
 * ComfyUI-Impact-Pack custom nodes. Their workflows are the ones ComfyUI wrote into the pictures
 * of comfyanonymous/ComfyUI_examples (tests/fixtures/comfyui-pipelines).
 */
import { importPipeline } from '../../api/backends/comfyui/pipeline/import';
import { comfyWorkflowParams, type ComfyWorkflowParams } from '../../nodes/comfy-workflow';
import type { WorkflowEdge, WorkflowNode } from '../../workflow/index';
import { fixtureText, recordedObjectInfo } from '../backends/comfyui/pipeline/fixtures';

/** The example files that hold a ComfyUI workflow node: they run on a ComfyUI backend only. */
export const COMFY_EXAMPLES = ['comfy-flux-from-chat', 'comfy-sd35-contact-sheet', 'comfy-upscale', 'comfy-face-detail'] as const;


type At = (col: number, row?: number) => { x: number; y: number };
type Node = (id: string, type: string, title: string, position: { x: number; y: number }, params: Record<string, unknown>) => WorkflowNode;
type Edge = (source: string, sourcePort: string, target: string, targetPort: string) => WorkflowEdge;

/** A pipeline's node params, with `prompt` made a port when `promptPort` (a wire gives it). */
function pipeline(api: string, source: string, promptPort: boolean, values: Record<string, unknown> = {}): ComfyWorkflowParams {
  const params = comfyWorkflowParams(importPipeline({ api }, { info: recordedObjectInfo() }), source);
  if (promptPort) {
    params.fields = params.fields.map((f) => (f.name === 'prompt' ? { ...f, as: 'port' as const } : f));
    delete params.values.prompt;
  }
  Object.assign(params.values, values);
  return params;
}

/** The upscale part of the ESRGAN example: a picture in, ImageUpscaleWithModel, saved. */
const UPSCALE = JSON.stringify({
  1: { class_type: 'LoadImage', inputs: { image: 'example.png' }, _meta: { title: 'Picture' } },
  2: { class_type: 'UpscaleModelLoader', inputs: { model_name: 'RealESRGAN_x2.pth' }, _meta: { title: 'Upscale model' } },
  3: { class_type: 'ImageUpscaleWithModel', inputs: { upscale_model: ['2', 0], image: ['1', 0] } },
  4: { class_type: 'SaveImage', inputs: { images: ['3', 0], filename_prefix: 'upscaled' }, _meta: { title: 'Upscaled' } },
});

export function comfyExamples<T>(build: (file: string, title: string, description: string, nodes: WorkflowNode[], edges: WorkflowEdge[]) => T, at: At, node: Node, edge: Edge): T[] {
  return [
    build('comfy-flux-from-chat.json', 'ComfyUI: FLUX.1 [dev] from a chat prompt',
      'A chat model writes the prompt; a whole ComfyUI FLUX.1 [dev] workflow draws it. Needs a ComfyUI backend with the FLUX files.', [
        node('subject', 'text', 'Subject', at(0), { text: 'a fox in the snow at first light' }),
        node('writer', 'chat-prompt-writer', 'Prompt writer', at(1), { user: 'Write an image prompt about {{subject}}.', max_tokens: 60, temperature: 0.7 }),
        node('flux', 'comfy-workflow', 'FLUX.1 [dev] (ComfyUI)', at(2), pipeline(fixtureText('flux-dev', 'api'), 'flux_dev_example.png', true, { seed: 42, width: 1024, height: 768 })),
        node('preview', 'preview', 'Preview', at(3), {}),
      ], [edge('subject', 'text', 'writer', 'subject'), edge('writer', 'text', 'flux', 'prompt'), edge('flux', 'images', 'preview', 'value')]),

    build('comfy-sd35-contact-sheet.json', 'ComfyUI: SD 3.5 over eight prompts',
      'A chat model writes eight prompts; the ComfyUI SD 3.5 workflow draws each, and a contact sheet captions them. Needs a ComfyUI backend.', [
        node('writer', 'chat-prompt-writer', 'Eight prompts', at(0), {
          user: 'Write eight short image prompts about a harbour at dusk, one per line.', answer_as: 'lines', max_tokens: 400, temperature: 0.8,
        }),
        node('sd35', 'comfy-workflow', 'SD 3.5 (ComfyUI)', at(1), pipeline(fixtureText('sd35', 'api'), 'sd3.5_simple_example.png', true, { width: 512, height: 512 })),
        node('sheet', 'contact-sheet', 'Contact sheet', at(2), { columns: 4, cell_size: 256 }),
        node('preview', 'preview', 'Preview', at(3), { filename: 'harbour-sheet' }),
      ], [
        edge('writer', 'items', 'sd35', 'prompt'), edge('sd35', 'images', 'sheet', 'images'), edge('writer', 'items', 'sheet', 'captions'),
        edge('sheet', 'image', 'preview', 'value'),
      ]),

    build('comfy-upscale.json', 'ComfyUI: SDXL picture, ESRGAN upscale',
      'SDXL draws a picture, and a ComfyUI workflow (UpscaleModelLoader, ImageUpscaleWithModel) doubles it. Needs a ComfyUI backend.', [
        node('draw', 'text-to-image', 'Draw (SDXL)', at(0), { engine: 'sdxl', prompt: 'a lighthouse on a cliff, oil painting', width: 1024, height: 1024, seed: 3, steps: 20 }),
        node('up', 'comfy-workflow', 'Upscale ×2 (ComfyUI)', at(1), pipeline(UPSCALE, 'esrgan-upscale.json', false)),
        node('preview', 'preview', 'Preview', at(2), {}),
      ], [edge('draw', 'image', 'up', 'image'), edge('up', 'upscaled', 'preview', 'value')]),

    build('comfy-face-detail.json', 'ComfyUI: face detail (custom nodes)',
      'SDXL draws a portrait and a ComfyUI FaceDetailer pass sharpens the face. Needs ComfyUI-Impact-Pack on the ComfyUI server: a stock one says so before anything is sent.', [
        node('draw', 'text-to-image', 'Portrait (SDXL)', at(0), { engine: 'sdxl', prompt: 'a portrait of an old sailor, soft window light', width: 1024, height: 1024, seed: 12, steps: 20 }),
        node('face', 'comfy-workflow', 'Face detail (ComfyUI)', at(1), pipeline(fixtureText('face-detail', 'api'), 'face-detail.json', false)),
        node('preview', 'preview', 'Preview', at(2), {}),
      ], [edge('draw', 'image', 'face', 'image'), edge('face', 'fixed_face', 'preview', 'value')]),
  ];
}
