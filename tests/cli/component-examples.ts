/**
 * The examples that use components (make-examples.ts writes them): each is built as a plain graph
 * and made into components the way the editor's Make component does, then its instances are given
 * their own values.
 */
import { makeComponent } from '../../workflow/make-component';
import type { Workflow, WorkflowEdge, WorkflowNode } from '../../workflow/index';

type Build = (title: string, description: string, nodes: WorkflowNode[], edges: WorkflowEdge[]) => Workflow;
type NodeAt = (id: string, type: string, title: string, position: { x: number; y: number }, params: Record<string, unknown>) => WorkflowNode;
type EdgeOf = (source: string, sourcePort: string, target: string, targetPort: string) => WorkflowEdge;
type At = (col: number, row?: number) => { x: number; y: number };

/** The instance's values: its shown parameters set. */
function setShown(wf: Workflow, id: string, params: Record<string, unknown>): void {
  wf.nodes.find((n) => n.id === id)!.params = params;
}

export function componentExamples(workflow: Build, node: NodeAt, edge: EdgeOf, at: At): { file: string; workflow: Workflow }[] {
  // One restyle, stored once, used twice at two strengths from the same drawing.
  const restyleGraph = workflow('One restyle, two strengths',
    'A component "Watercolour restyle" (image to image, strength and prompt on its face) is used twice on one drawing: a light touch and a heavy one. Open it to change both at once.', [
      node('draw', 'text-to-image', 'Draw', at(0, 0.5), { engine: 'sdxl', width: 1024, height: 1024, seed: 31, prompt: 'a harbour town with fishing boats, morning light' }),
      node('light', 'image-to-image', 'Image to image', at(1), {
        engine: 'sdxl', width: 1024, height: 1024, seed: 32, strength: 0.35, style_preset: 'Watercolor',
        prompt: 'a harbour town with fishing boats, watercolour painting',
      }),
      node('preview-light', 'preview', 'Light touch', at(2), {}),
      node('heavy', 'image-to-image', 'Image to image', at(1, 1), {
        engine: 'sdxl', width: 1024, height: 1024, seed: 32, strength: 0.35, style_preset: 'Watercolor',
        prompt: 'a harbour town with fishing boats, watercolour painting',
      }),
      node('preview-heavy', 'preview', 'Heavy touch', at(2, 1), {}),
    ], [
      edge('draw', 'image', 'light', 'image'), edge('light', 'image', 'preview-light', 'value'),
      edge('draw', 'image', 'heavy', 'image'), edge('heavy', 'image', 'preview-heavy', 'value'),
    ]);
  const shownRestyle = (inner: string) => [
    { name: 'strength', label: 'How far it may move', node: inner, param: 'strength' },
    { name: 'prompt', label: 'Restyle prompt', node: inner, param: 'prompt' },
  ];
  let restyle = makeComponent(restyleGraph, new Set(['light']), { name: 'Watercolour restyle', shown: shownRestyle('light') }).workflow;
  // The second use is an instance of the same definition, as a paste of the first would be.
  const first = restyle.nodes.find((n) => n.type === 'component:watercolour-restyle')!;
  const heavy = restyle.nodes.find((n) => n.id === 'heavy')!;
  restyle = {
    ...restyle,
    nodes: restyle.nodes.map((n) => (n.id === 'heavy' ? { id: 'restyle-heavy', type: first.type, title: 'Heavy restyle', position: heavy.position, params: {} } : n)),
    edges: restyle.edges.map((e) => {
      const source = e.source.node === 'heavy' ? { node: 'restyle-heavy', port: 'image' } : e.source;
      const target = e.target.node === 'heavy' ? { node: 'restyle-heavy', port: 'image' } : e.target;
      return edge(source.node, source.port, target.node, target.port);
    }),
  };
  first.title = 'Light restyle';
  setShown(restyle, first.id, { strength: 0.3 });
  setShown(restyle, 'restyle-heavy', { strength: 0.75 });

  // A chat-written picture as one node, used for two ideas side by side.
  const ideaGraph = workflow('Two ideas, one component',
    'A component "Picture from an idea" (a chat model writes the prompt, SDXL draws it) shows the idea and the seed on its face; two instances draw two ideas. Unpack one to see inside.', [
      node('writer', 'chat-prompt-writer', 'Prompt writer', at(0), {
        user: 'Write an image prompt about a lighthouse in a storm.', max_tokens: 50, temperature: 0.7,
      }),
      node('draw', 'text-to-image', 'Draw it', at(1), { engine: 'sdxl', width: 1024, height: 1024, seed: 41, steps: 30 }),
      node('preview-a', 'preview', 'First idea', at(2), {}),
    ], [edge('writer', 'text', 'draw', 'prompt'), edge('draw', 'image', 'preview-a', 'value')]);
  const made = makeComponent(ideaGraph, new Set(['writer', 'draw']), {
    name: 'Picture from an idea',
    shown: [
      { name: 'idea', label: 'Idea', node: 'writer', param: 'user' },
      { name: 'seed', label: 'Seed', node: 'draw', param: 'seed' },
    ],
  });
  const ideas = made.workflow;
  const one = ideas.nodes.find((n) => n.id === made.instanceId)!;
  one.title = 'Lighthouse';
  ideas.nodes.push(
    { id: 'fox', type: one.type, title: 'Fox', position: at(0, 1), params: { idea: 'Write an image prompt about a red fox asleep in the snow.', seed: 42 } },
    node('preview-b', 'preview', 'Second idea', at(2, 1), {}),
  );
  ideas.edges.push(edge('fox', 'image', 'preview-b', 'value'));
  return [{ file: 'restyle-component.json', workflow: restyle }, { file: 'idea-component.json', workflow: ideas }];
}
