/**
 * A node's ports as rows: inputs on the left edge, outputs on the right, each a React Flow handle
 * coloured by the kind it carries, with its label beside it. Each handle is a tab stop: Enter or
 * Space on an output, then on an input, makes a wire (keyboard-wire.ts).
 */
import { Handle, Position, useNodeId } from '@xyflow/react';
import type { KeyboardEvent } from 'react';
import { useEditorStore } from '../store/react';
import { pressPort, useWireStartsAt, type PortEnd } from './keyboard-wire';
import { KIND_LABEL } from '../store/ports';
import type { ShownPort } from './shown-ports';

/** What makes a handle a keyboard control: its tab stop, its key, and whether a wire starts there. */
function usePortKeys(port: string, side: PortEnd['side']) {
  const store = useEditorStore();
  const nodeId = useNodeId() ?? '';
  const started = useWireStartsAt({ nodeId, port, side });
  return {
    tabIndex: 0,
    role: 'button',
    'aria-pressed': started,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      e.stopPropagation();
      pressPort(store, { nodeId, port, side });
    },
  } as const;
}

function kindName(port: ShownPort): string {
  return port.kind === 'unknown' ? 'missing port' : KIND_LABEL[port.kind];
}

export function InputPort({ port, compact }: { port: ShownPort; compact: boolean }) {
  const keys = usePortKeys(port.name, 'input');
  return (
    <div className={`port-row port-in ${port.missing ? 'missing' : ''}`} data-port={port.name}>
      <Handle
        type="target"
        position={Position.Left}
        id={port.name}
        className={`port-handle kind-${port.kind} ${port.connected ? 'connected' : ''}`}
        {...keys}
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
  const keys = usePortKeys(port.name, 'output');
  return (
    <div className="port-row port-out" data-port={port.name}>
      {!compact && <span className="port-label">{port.label}</span>}
      <Handle
        type="source"
        position={Position.Right}
        id={port.name}
        className={`port-handle kind-${port.kind} ${port.connected ? 'connected' : ''}`}
        {...keys}
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
