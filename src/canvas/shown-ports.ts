/**
 * Which input ports a node shows: its ports, except parameter ports (prompt, seed) that are
 * neither connected nor switched to "as input"; plus any connected port the node no longer has
 * (a removed `{{name}}`), marked missing so its wire stays visible and fixable instead of vanishing.
 */
import type { PortKind, PortSpec } from '../../nodes/types';
import type { InboundEdges } from '../store/graph-index';

export interface ShownPort {
  name: string;
  label: string;
  kind: PortKind | 'unknown';
  connected: boolean;
  optional: boolean;
  /** Connected, but the node has no such port (any more). */
  missing: boolean;
  description?: string;
}

export function shownInputs(inputs: readonly PortSpec[], inbound: InboundEdges | undefined, asInput: ReadonlySet<string> | undefined): ShownPort[] {
  const shown: ShownPort[] = [];
  for (const port of inputs) {
    const connected = inbound?.has(port.name) === true;
    if (port.param !== undefined && !connected && asInput?.has(port.name) !== true) continue;
    shown.push({
      name: port.name,
      label: port.label,
      kind: port.kind,
      connected,
      optional: port.optional === true,
      missing: false,
      ...(port.description ? { description: port.description } : {}),
    });
  }
  for (const name of inbound?.keys() ?? []) {
    if (inputs.some((p) => p.name === name)) continue;
    shown.push({ name, label: name, kind: 'unknown', connected: true, optional: true, missing: true, description: 'This node has no such input now; remove the wire or restore the port.' });
  }
  return shown;
}

/** Outputs as shown: all of them. */
export function shownOutputs(outputs: readonly PortSpec[], connected: ReadonlySet<string>): ShownPort[] {
  return outputs.map((port) => ({
    name: port.name,
    label: port.label,
    kind: port.kind,
    connected: connected.has(port.name),
    optional: true,
    missing: false,
    ...(port.description ? { description: port.description } : {}),
  }));
}
