/**
 * Wiring without a mouse: every port is a tab stop; Enter (or Space) on one port, then on a port
 * of the other side, makes the wire through the same check as a drag, and Escape drops the
 * half-made wire. Each step is announced.
 */
import type { EditorStore } from '../store/editor-store';
import { shownName } from '../store/names';
import { announce } from '../ui/announce';
import { useSyncExternalStore } from 'react';
import { createSmallStore } from '../ui/small-store';
import { toast } from '../ui/toast';
import { portsOf } from '../store/ports';

export interface PortEnd {
  nodeId: string;
  port: string;
  side: 'output' | 'input';
}

const pending = createSmallStore<PortEnd | null>(null);

/** Whether a keyboard wire under way starts at `end` (each port re-renders only when that changes). */
export function useWireStartsAt(end: PortEnd): boolean {
  const at = () => {
    const start = pending.get();
    return start !== null && start.nodeId === end.nodeId && start.port === end.port && start.side === end.side;
  };
  return useSyncExternalStore(pending.subscribe, at, at);
}

function describe(store: EditorStore, end: PortEnd): string {
  const node = store.getState().index.nodeById.get(end.nodeId);
  if (!node) return end.port;
  const ports = portsOf(node, store.registry);
  const label = (end.side === 'output' ? ports.outputs : ports.inputs).find((p) => p.name === end.port)?.label ?? end.port;
  return `${shownName(node, store.registry)}: ${label}`;
}

function onEscape(event: KeyboardEvent): void {
  if (event.key !== 'Escape' || pending.get() === null) return;
  event.preventDefault();
  event.stopPropagation();
  cancelWire();
}

export function cancelWire(): void {
  if (pending.get() === null) return;
  pending.set(null);
  window.removeEventListener('keydown', onEscape, { capture: true });
  announce('Wire cancelled');
}

/** Enter on a port: starts a wire there, or ends the one under way on it. */
export function pressPort(store: EditorStore, end: PortEnd): void {
  const start = pending.get();
  if (start === null || start.side === end.side) {
    if (start === null) window.addEventListener('keydown', onEscape, { capture: true });
    pending.set(end);
    announce(`Wiring from ${describe(store, end)}. Move to ${end.side === 'output' ? 'an input' : 'an output'} and press Enter; Escape cancels.`);
    return;
  }
  const [from, to] = start.side === 'output' ? [start, end] : [end, start];
  const check = store.connect({ node: from.nodeId, port: from.port }, { node: to.nodeId, port: to.port });
  if (!check.ok) {
    // The wire stays under way: another port may take it.
    announce(`Not connected: ${check.reason}`);
    toast(`Not connected: ${check.reason}`, 'warning');
    return;
  }
  pending.set(null);
  window.removeEventListener('keydown', onEscape, { capture: true });
  announce(`Connected ${describe(store, from)} to ${describe(store, to)}`);
}

/** Says which node is selected when the selection changes to one node, or how many items. */
export function announceSelection(store: EditorStore): () => void {
  let last = store.getState().selection;
  return store.subscribe(() => {
    const { selection, index } = store.getState();
    if (selection === last) return;
    last = selection;
    const count = selection.nodes.size + selection.edges.size;
    if (count === 0) return;
    const only = selection.nodes.size === 1 && selection.edges.size === 0 ? index.nodeById.get([...selection.nodes][0]!) : undefined;
    announce(only ? `Selected: ${shownName(only, store.registry)}` : `${count} items selected`);
  });
}
