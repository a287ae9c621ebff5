/**
 * The workflow a first visit opens with: a chat model writes a prompt, SDXL draws it, img2img
 * restyles the picture, and a preview shows it, all on the local engines (the default settings).
 */
import { registry } from '../../nodes/index';
import { createWorkflow, edgeIdFor } from '../../workflow/create';
import type { PortRef, Workflow, WorkflowEdge, WorkflowNode } from '../../workflow/schema';

function node(id: string, type: string, x: number, y: number, params: Record<string, unknown> = {}): WorkflowNode {
  const def = registry.get(type);
  if (!def) throw new Error(`the starter workflow needs node type '${type}'`);
  const parsed = def.params.parse(params) as Record<string, unknown>;
  const defined = Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined));
  return { id, type, position: { x, y }, params: defined };
}

function wire(from: PortRef, to: PortRef): WorkflowEdge {
  return { id: edgeIdFor(from, to), source: from, target: to };
}

export function starterWorkflow(): Workflow {
  const base = createWorkflow({
    title: 'Prompt → picture → restyle',
    description: 'A chat model writes an image prompt, SDXL draws it, and image to image restyles the result as stained glass.',
  });
  return {
    ...base,
    nodes: [
      node('prompt-writer', 'chat-prompt-writer', 0, 40, {
        user: 'A lighthouse on a cliff at dusk, waves below, seen from the sea.',
      }),
      node('text-to-image', 'text-to-image', 400, 0, { seed: 1234, style_preset: 'cinematic' }),
      // The preset, not only the prompt's words, makes the restyle plain on the local engines,
      // and at this strength the scene below stays recognisable.
      node('image-to-image', 'image-to-image', 800, 0, {
        prompt: 'the same scene as a stained glass window, bold lead lines, jewel colours',
        style_preset: 'Stained Glass',
        strength: 0.55,
        seed: 1234,
      }),
      node('preview', 'preview', 1200, 80, { filename: 'lighthouse' }),
    ],
    edges: [
      wire({ node: 'prompt-writer', port: 'text' }, { node: 'text-to-image', port: 'prompt' }),
      wire({ node: 'text-to-image', port: 'image' }, { node: 'image-to-image', port: 'image' }),
      wire({ node: 'image-to-image', port: 'image' }, { node: 'preview', port: 'value' }),
    ],
  };
}
