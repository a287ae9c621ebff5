/**
 * Short messages at the corner of the screen: what happened (a file opened) or what was refused
 * and why (a wire of the wrong kind). Errors stay longer and are announced assertively.
 */
import { createSmallStore, useSmallStore } from './small-store';

export type ToastKind = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

const MAX_TOASTS = 4;
const DURATION: Record<ToastKind, number> = { info: 4000, success: 3500, warning: 7000, error: 8000 };

const toasts = createSmallStore<readonly Toast[]>([]);
let nextId = 1;

export function dismissToast(id: number): void {
  toasts.set((list) => list.filter((t) => t.id !== id));
}

/** Shows a message; the same message shown again replaces the earlier one instead of stacking. */
export function toast(message: string, kind: ToastKind = 'info'): void {
  const id = nextId++;
  toasts.set((list) => [...list.filter((t) => t.message !== message), { id, kind, message }].slice(-MAX_TOASTS));
  setTimeout(() => dismissToast(id), DURATION[kind]);
}

export function Toasts() {
  const list = useSmallStore(toasts);
  const polite = list.filter((t) => t.kind !== 'error');
  const urgent = list.filter((t) => t.kind === 'error');
  const render = (t: Toast) => (
    <div key={t.id} className={`toast toast-${t.kind}`}>
      <span className="toast-message">{t.message}</span>
      <button type="button" className="icon-button" aria-label="Dismiss message" onClick={() => dismissToast(t.id)}>×</button>
    </div>
  );
  return (
    <div className="toasts">
      <div role="status" aria-live="polite">{polite.map(render)}</div>
      <div role="alert" aria-live="assertive">{urgent.map(render)}</div>
    </div>
  );
}
