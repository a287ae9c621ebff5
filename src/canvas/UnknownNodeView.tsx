/**
 * A node whose type this build does not know (a newer Atelier, another vendor's node): kept as it
 * is, parameters verbatim, shown read-only as text (never as HTML), with the ports its wires use
 * so those wires stay drawn. It cannot run; the run's validation says so.
 */
import { useStore, type NodeProps } from '@xyflow/react';
import { memo, useMemo } from 'react';
import { useEditor } from '../store/react';
import { componentIdOf } from '../../workflow/components';
import type { CanvasNode } from './derive';
import { PortColumns } from './PortRows';
import type { ShownPort } from './shown-ports';
import { useRemeasureOnChange } from './use-port-key';
import { isLowZoom } from './zoom';

const MAX_SHOWN = 4000;

function port(name: string): ShownPort {
  return { name, label: name, kind: 'unknown', connected: true, optional: true, missing: false };
}

function UnknownNodeViewImpl({ id, selected }: NodeProps<CanvasNode>) {
  const node = useEditor((s) => s.index.nodeById.get(id));
  const inbound = useEditor((s) => s.index.inbound.get(id));
  const outbound = useEditor((s) => s.index.outbound.get(id));
  const compact = useStore(isLowZoom);
  const inputs = useMemo(() => [...(inbound?.keys() ?? [])].map(port), [inbound]);
  const outputs = useMemo(() => [...new Set(outbound?.map((e) => e.source.port) ?? [])].map(port), [outbound]);
  const key = `${inputs.map((p) => p.name).join(',')}|${outputs.map((p) => p.name).join(',')}`;
  useRemeasureOnChange(id, key);
  const text = useMemo(() => {
    const json = JSON.stringify(node?.params ?? {}, null, 2);
    return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN)}\n…` : json;
  }, [node?.params]);
  if (!node) return null;
  return (
    <div className={`atelier-node unknown ${selected ? 'selected' : ''} ${compact ? 'compact' : ''}`} data-node-type={node.type}>
      <header className="node-header cat-unknown">
        <span className="node-title">{node.title || (componentIdOf(node.type) !== undefined ? 'Missing component' : 'Unknown node')}</span>
        <span className="node-type">{node.type}</span>
      </header>
      <PortColumns inputs={inputs} outputs={outputs} compact={compact} />
      {!compact && (
        <div className="unknown-body nodrag">
          {componentIdOf(node.type) !== undefined
            ? <p className="muted">The definition of component <code>{componentIdOf(node.type)}</code> is not in this workflow. The node is kept exactly as it is and saved with the workflow, but it cannot run or be opened.</p>
            : <p className="muted">This build does not know the type <code>{node.type}</code>. The node is kept exactly as it is and saved with the workflow, but it cannot run.</p>}
          <pre className="params-json nowheel" aria-label="Parameters, as written in the file">{text}</pre>
        </div>
      )}
    </div>
  );
}

export const UnknownNodeView = memo(UnknownNodeViewImpl, (a, b) => a.id === b.id && a.selected === b.selected);
