/**
 * Drawing wires: React Flow's connection callbacks, wired to the store's connection check. A
 * refused wire says why; a wire dropped on empty canvas opens the palette with the nodes that can
 * take it; a wire end dragged off into nothing disconnects it.
 */
import { useReactFlow, type Connection, type Edge, type FinalConnectionState, type Handle, type IsValidConnection, type OnConnectEnd } from '@xyflow/react';
import { useMemo } from 'react';
import type { PortRef } from '../../workflow/schema';
import type { EditorStore } from '../store/editor-store';
import { toast } from '../ui/toast';
import { openPalette, type PaletteRequest } from '../ui/ui-state';
import { canConnect, type ConnectCheck } from '../store/can-connect';
import type { CanvasNode } from './derive';
import { kindsTakenBy, portsOf } from '../store/ports';

/** The output and input ends of a wire between two handles, whichever was dragged from. */
export function endsOf(a: Pick<Handle, 'nodeId' | 'id' | 'type'>, b: Pick<Handle, 'nodeId' | 'id' | 'type'>): { from: PortRef; to: PortRef } | undefined {
  if (a.type === b.type) return undefined;
  const [source, target] = a.type === 'source' ? [a, b] : [b, a];
  return { from: { node: source.nodeId, port: source.id ?? '' }, to: { node: target.nodeId, port: target.id ?? '' } };
}

/** Why two handles under a wire cannot be joined, or undefined when they can. */
export function refusal(store: EditorStore, a: Pick<Handle, 'nodeId' | 'id' | 'type'>, b: Pick<Handle, 'nodeId' | 'id' | 'type'>): string | undefined {
  const ends = endsOf(a, b);
  if (!ends) return a.type === 'source' ? 'an output connects to an input, not to another output' : 'an input connects to an output, not to another input';
  const check = canConnect(store.getState().view, ends.from, ends.to, store.registry);
  return check.ok ? undefined : check.reason;
}

function clientPoint(event: MouseEvent | TouchEvent): { x: number; y: number } {
  if ('changedTouches' in event) {
    const touch = event.changedTouches[0];
    return { x: touch?.clientX ?? 0, y: touch?.clientY ?? 0 };
  }
  return { x: event.clientX, y: event.clientY };
}

function report(check: ConnectCheck): void {
  if (!check.ok) toast(`Not connected: ${check.reason}`, 'warning');
}

/** What the palette needs to offer nodes for a wire dragged from `handle`. */
function paletteConnection(store: EditorStore, handle: Handle): PaletteRequest['connect'] {
  const node = store.getState().index.nodeById.get(handle.nodeId);
  if (!node || handle.id == null) return undefined;
  const ports = portsOf(node, store.registry);
  if (handle.type === 'source') {
    const out = ports.outputs.find((p) => p.name === handle.id);
    return out && { from: { node: node.id, port: out.name }, kind: out.kind, side: 'output' };
  }
  const input = ports.inputs.find((p) => p.name === handle.id);
  return input && { to: { node: node.id, port: input.name }, kind: input.kind, side: 'input', accepts: kindsTakenBy(input) };
}

export function useConnectHandlers(store: EditorStore) {
  const rf = useReactFlow<CanvasNode>();
  return useMemo(() => {
    const isValidConnection: IsValidConnection = (c) =>
      c.sourceHandle != null && c.targetHandle != null &&
      canConnect(store.getState().view, { node: c.source, port: c.sourceHandle }, { node: c.target, port: c.targetHandle }, store.registry).ok;

    const onConnect = (c: Connection) => {
      if (c.sourceHandle == null || c.targetHandle == null) return;
      report(store.connect({ node: c.source, port: c.sourceHandle }, { node: c.target, port: c.targetHandle }));
    };

    const onConnectEnd: OnConnectEnd = (event, state: FinalConnectionState) => {
      if (state.isValid || !state.fromHandle) return;
      if (state.toHandle) {
        const reason = refusal(store, state.fromHandle, state.toHandle);
        if (reason) toast(`Not connected: ${reason}`, 'warning');
        return;
      }
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('.react-flow__node')) return;
      const connect = paletteConnection(store, state.fromHandle);
      if (!connect) return;
      const screen = clientPoint(event);
      openPalette({ screen, flow: rf.screenToFlowPosition(screen), connect });
    };

    const onReconnect = (old: Edge, c: Connection) => {
      if (c.sourceHandle == null || c.targetHandle == null) return;
      report(store.reconnect(old.id, { node: c.source, port: c.sourceHandle }, { node: c.target, port: c.targetHandle }));
    };

    const onReconnectEnd = (_event: MouseEvent | TouchEvent, edge: Edge, _type: unknown, state: FinalConnectionState) => {
      // Dragged off into empty canvas: the wire is removed, as in ComfyUI.
      if (!state.isValid && !state.toHandle) store.disconnect([edge.id]);
    };

    return { isValidConnection, onConnect, onConnectEnd, onReconnect, onReconnectEnd };
  }, [store, rf]);
}
