/**
 * Carries out a focus request (`focusNode(nodeId, field)`): centres the node (zooming in far
 * enough for its form to be drawn), then focuses the field's control once React Flow has rendered
 * it.
 */
import type { ReactFlowInstance } from '@xyflow/react';
import type { FocusRequest } from '../store/state';
import type { CanvasNode } from './derive';
import { autoFit } from './auto-fit';
import { LOW_ZOOM } from './zoom';

/**
 * What to focus in a field, best first: the control that takes its value, then the "from <node>"
 * line of a wired port, then any button. The "as input" switch in the label row comes first in
 * the field but is never what the person came to fix; on it, the next keys typed would go to
 * the canvas's shortcuts.
 */
const FIELD_CONTROLS = ['textarea, select, input:not([type=hidden]):not([hidden])', '[tabindex]', 'button'];

function fieldControl(field: Element): HTMLElement | null {
  for (const selector of FIELD_CONTROLS) {
    const control = field.querySelector<HTMLElement>(selector);
    if (control) return control;
  }
  return null;
}

function nodeElement(id: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
}

function focusTarget(request: FocusRequest, aliases: Readonly<Record<string, string>>): HTMLElement | null {
  const node = nodeElement(request.nodeId);
  if (!node) return null;
  if (request.field !== undefined) {
    const top = request.field.split('.')[0] ?? request.field;
    const alias = aliases[top];
    const field = (alias === undefined ? null : node.querySelector(`[data-field="${CSS.escape(alias)}"]`))
      ?? node.querySelector(`[data-field="${CSS.escape(top)}"]`);
    const control = field && fieldControl(field);
    if (control) return control;
    // Not drawn yet (a closed "More options" opens on this request): wait for it.
    if (node.querySelector('.node-form') && !field && node.querySelector('details.more:not([open])')) return null;
  }
  return node;
}

/**
 * Shows the node and focuses what `request` names (a field reported under another's name by
 * `aliases`: the form's FIELD_ALIASES); returns how to stop trying.
 */
export function reveal(rf: ReactFlowInstance<CanvasNode>, request: FocusRequest, aliases: Readonly<Record<string, string>>): () => void {
  let frame = 0;
  const node = rf.getInternalNode(request.nodeId);
  if (!node) return () => undefined;
  const width = node.measured.width ?? 300;
  const height = node.measured.height ?? 200;
  const { x, y } = node.internals.positionAbsolute;
  const zoom = Math.max(rf.getViewport().zoom, LOW_ZOOM + 0.4);
  autoFit.stop();
  void rf.setCenter(x + width / 2, y + Math.min(height / 2, 240), { zoom, duration: 250 });
  const started = performance.now();
  const attempt = () => {
    const target = focusTarget(request, aliases);
    if (target && performance.now() - started > 260) {
      target.focus({ preventScroll: true });
      return;
    }
    if (performance.now() - started < 1500) frame = requestAnimationFrame(attempt);
    else nodeElement(request.nodeId)?.focus({ preventScroll: true });
  };
  frame = requestAnimationFrame(attempt);
  return () => cancelAnimationFrame(frame);
}

/**
 * Focuses a node's box once React Flow has drawn it, so the keyboard goes on from there: Tab
 * reaches its ports and fields. A node just added is hidden until React Flow has measured it,
 * and a hidden element takes no focus, so this tries each frame until the focus holds.
 */
export function focusWhenDrawn(id: string): void {
  const started = performance.now();
  const attempt = () => {
    const node = nodeElement(id);
    node?.focus({ preventScroll: true });
    if (node && document.activeElement === node) return;
    if (performance.now() - started < 1500) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}
