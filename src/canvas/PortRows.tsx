/**
 * A node's ports as rows: inputs on the left edge, outputs on the right, each a React Flow handle
 * coloured by the kind it carries, with its label beside it.
 */
import { Handle, Position } from '@xyflow/react';
import { KIND_LABEL } from './ports';
import type { ShownPort } from './shown-ports';

function kindName(port: ShownPort): string {
  return port.kind === 'unknown' ? 'missing port' : KIND_LABEL[port.kind];
}

export function InputPort({ port, compact }: { port: ShownPort; compact: boolean }) {
  return (
    <div className={`port-row port-in ${port.missing ? 'missing' : ''}`} data-port={port.name}>
      <Handle
        type="target"
        position={Position.Left}
        id={port.name}
        className={`port-handle kind-${port.kind} ${port.connected ? 'connected' : ''}`}
        aria-label={`${port.label} input, takes ${kindName(port)}`}
        title={`${port.label} (${kindName(port)})${port.description ? `: ${port.description}` : ''}`}
      />
      {!compact && (
        <span className="port-label">
          {port.label}
          {!port.optional && !port.connected && <span className="required" aria-label="required"> *</span>}
        </span>
      )}
    </div>
  );
}

export function OutputPort({ port, compact }: { port: ShownPort; compact: boolean }) {
  return (
    <div className="port-row port-out" data-port={port.name}>
      {!compact && <span className="port-label">{port.label}</span>}
      <Handle
        type="source"
        position={Position.Right}
        id={port.name}
        className={`port-handle kind-${port.kind} ${port.connected ? 'connected' : ''}`}
        aria-label={`${port.label} output, gives ${kindName(port)}`}
        title={`${port.label} (${kindName(port)})${port.description ? `: ${port.description}` : ''}`}
      />
    </div>
  );
}

export function PortColumns({ inputs, outputs, compact }: { inputs: readonly ShownPort[]; outputs: readonly ShownPort[]; compact: boolean }) {
  if (inputs.length === 0 && outputs.length === 0) return null;
  return (
    <div className="ports">
      <div className="port-column inputs">{inputs.map((p) => <InputPort key={p.name} port={p} compact={compact} />)}</div>
      <div className="port-column outputs">{outputs.map((p) => <OutputPort key={p.name} port={p} compact={compact} />)}</div>
    </div>
  );
}
