/**
 * The App view's gallery: each output the author marked, in order, under its label, with the
 * node's run status (queued, progress, done, or why it failed or was skipped, naming the node
 * at fault) and its results as the graph shows them (a click opens the viewer; each image
 * downloads with the workflow as it was run embedded).
 */
import type { AppOutput } from '../../workflow/app';
import { NodeResults, NodeRunStatus } from '../run';
import { useNodePhase, useNodeResult, useRunContext } from '../run/context';

function Output({ output }: { output: AppOutput }) {
  const { describeNode } = useRunContext();
  const nodeLabel = describeNode(output.node).label;
  const label = output.label?.trim() || nodeLabel;
  const result = useNodeResult(output.node);
  const phase = useNodePhase(output.node);
  return (
    <section className="app-output" aria-label={label}>
      <h3 className="app-output__title">{label}</h3>
      <NodeRunStatus nodeId={output.node} />
      <NodeResults nodeId={output.node} />
      {!result && phase === undefined && <p className="app-output__empty">Run to see {label} here.</p>}
    </section>
  );
}

export function AppOutputs({ outputs }: { outputs: readonly AppOutput[] }) {
  if (outputs.length === 0) return null;
  return (
    <section className="app-view__outputs" aria-label="Outputs">
      <h2 className="app-view__heading">Outputs</h2>
      {outputs.map((output) => <Output key={output.node} output={output} />)}
    </section>
  );
}
