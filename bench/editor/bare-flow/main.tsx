/**
 * The baseline for the editor bench: React Flow with nothing of Atelier's, drawing the same graph
 * (the bench's `graph.json`, else the 500-node one) as plain form-filled nodes (title, handles, a
 * few fields each), every node rendered. The bench measures it exactly as it measures the editor,
 * so the two figures can be compared on this machine, where painting is done in software.
 */
import { Background, Handle, Position, ReactFlow, type Edge, type Node, type NodeProps } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import './page.css';
import { createRoot } from 'react-dom/client';
import type { Workflow } from '../../../workflow/schema';
import { bigWorkflow } from '../workflows';

type FormNode = Node<{ title: string; params: Record<string, unknown> }>;

function FormNodeView({ data }: NodeProps<FormNode>) {
  return (
    <div style={{ width: 300, padding: 8, border: '1px solid #45475a', borderRadius: 8, background: '#313244' }}>
      <Handle type="target" position={Position.Left} />
      <strong>{data.title}</strong>
      {Object.entries(data.params).map(([name, value]) => (
        <label key={name} style={{ display: 'flex', justifyContent: 'space-between', gap: 8, marginTop: 4 }}>
          {name}
          <input defaultValue={String(value)} style={{ width: 150 }} />
        </label>
      ))}
      <label style={{ display: 'flex', justifyContent: 'space-between', gap: 8, marginTop: 4 }}>
        sampler
        <select defaultValue="DDIM" style={{ width: 156 }}>
          <option>DDIM</option>
          <option>K_EULER</option>
        </select>
      </label>
      <Handle type="source" position={Position.Right} />
    </div>
  );
}

/** The graph to draw: `graph.json` beside the page when the bench put one there, else the 500-node one. */
async function graph(): Promise<Pick<Workflow, 'nodes' | 'edges'>> {
  const answer = await fetch('graph.json');
  return answer.ok ? (await answer.json() as Pick<Workflow, 'nodes' | 'edges'>) : bigWorkflow();
}

void graph().then((workflow) => {
  const nodes: FormNode[] = workflow.nodes.map((n) => ({
    id: n.id,
    type: 'form',
    position: n.position,
    data: { title: n.title ?? n.type, params: n.params },
  }));
  const edges: Edge[] = workflow.edges.map((e) => ({ id: e.id, source: e.source.node, target: e.target.node }));
  createRoot(document.getElementById('root')!).render(
    <ReactFlow defaultNodes={nodes} defaultEdges={edges} nodeTypes={{ form: FormNodeView }} fitView minZoom={0.02} colorMode="dark">
      <Background />
    </ReactFlow>,
  );
});
