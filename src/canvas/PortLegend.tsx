/** What the port colours mean. */
import { Panel } from '@xyflow/react';
import type { PortKind } from '../../nodes/types';
import { KIND_LABEL } from '../store/ports';

const KINDS: readonly PortKind[] = ['text', 'number', 'image', 'images', 'texts'];

export function PortLegendList() {
  return (
    <ul className="port-legend" aria-label="Port colours">
      {KINDS.map((kind) => (
        <li key={kind}><span className={`legend-dot kind-${kind}`} aria-hidden="true" />{KIND_LABEL[kind]}</li>
      ))}
    </ul>
  );
}

export function PortLegend() {
  return (
    <Panel position="bottom-right" className="legend-panel">
      <PortLegendList />
    </Panel>
  );
}
