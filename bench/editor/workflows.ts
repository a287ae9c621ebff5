/** Workflows the editor bench opens: a big graph to draw, and one that makes many large images. */
import type { Workflow, WorkflowEdge, WorkflowNode } from '../../workflow/schema';

const META = { description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };

function edge(source: string, sourcePort: string, target: string, targetPort: string): WorkflowEdge {
  return { id: `${source}:${sourcePort}->${target}:${targetPort}`, source: { node: source, port: sourcePort }, target: { node: target, port: targetPort } };
}

/**
 * `chains` rows of five nodes each (text → chat prompt writer → text to image → image to image →
 * preview), every node with its form filled: what a large real workflow is made of.
 */
export function bigWorkflow(chains = 100): Workflow {
  const nodes: WorkflowNode[] = [];
  const edges: WorkflowEdge[] = [];
  // Eight chains side by side: the whole graph is about as wide for its height as a screen.
  for (let row = 0; row < chains; row++) {
    const x = (row % 8) * 2100;
    const y = Math.floor(row / 8) * 760;
    const id = (part: string) => `${part}-${row}`;
    nodes.push(
      { id: id('subject'), type: 'text', title: `Subject ${row + 1}`, position: { x, y }, params: { text: `a lighthouse number ${row + 1} on a cliff at dusk` } },
      { id: id('writer'), type: 'chat-prompt-writer', position: { x: x + 400, y }, params: { user: 'Write an image prompt about {{subject}}.', max_tokens: 40, temperature: 0.7 } },
      { id: id('draw'), type: 'text-to-image', position: { x: x + 800, y }, params: { engine: 'sdxl', width: 1024, height: 1024, steps: 30, seed: row, sampler: 'K_EULER', style_preset: 'cinematic' } },
      { id: id('restyle'), type: 'image-to-image', position: { x: x + 1200, y }, params: { engine: 'sdxl', prompt: 'watercolour', strength: 0.6, seed: row + 1 } },
      { id: id('preview'), type: 'preview', position: { x: x + 1600, y }, params: {} },
    );
    edges.push(
      edge(id('subject'), 'text', id('writer'), 'subject'),
      edge(id('writer'), 'text', id('draw'), 'prompt'),
      edge(id('draw'), 'image', id('restyle'), 'image'),
      edge(id('restyle'), 'image', id('preview'), 'value'),
    );
  }
  return { format: 'atelier.workflow', version: 1, metadata: { title: `Bench: ${chains * 5} nodes`, ...META }, nodes, edges };
}

/**
 * `nodes` text-to-image nodes of `perNode` 1024×1024 images each, in one row: a wide screen
 * shows them all at a zoom where nodes draw their results.
 */
export function imageWorkflow(nodes = 10, perNode = 10): Workflow {
  return {
    format: 'atelier.workflow',
    version: 1,
    metadata: { title: `Bench: ${nodes * perNode} images`, ...META },
    nodes: Array.from({ length: nodes }, (_, i) => ({
      id: `draw-${i}`,
      type: 'text-to-image',
      position: { x: i * 360, y: 0 },
      params: { engine: 'sdxl', prompt: `a mountain lake, variation ${i}`, width: 1024, height: 1024, num_images: perNode, steps: 20, seed: 1000 + i * perNode },
    })),
    edges: [],
  };
}
