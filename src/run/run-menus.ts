/**
 * Which node's run menu is open (at most one), for the ▶ buttons (NodeRunMenu.tsx): each button
 * listens to its own node only. A right-click on a node opens its menu (`openRunMenuOnContextMenu`).
 */
import { createKeyedStore } from '../ui/small-store';

export interface RunMenus {
  isOpen(nodeId: string): boolean;
  open(nodeId: string): void;
  close(nodeId: string): void;
  subscribe(nodeId: string, listener: () => void): () => void;
}

export function createRunMenus(): RunMenus {
  const opened = createKeyedStore<true>();
  let current: string | undefined;
  return {
    isOpen: (nodeId) => opened.get(nodeId) === true,
    open(nodeId) {
      if (current !== undefined && current !== nodeId) opened.set(current, undefined);
      current = nodeId;
      opened.set(nodeId, true);
    },
    close(nodeId) {
      if (current === nodeId) current = undefined;
      opened.set(nodeId, undefined);
    },
    subscribe: opened.subscribe,
  };
}

/**
 * A right-click on a node that has a run menu opens it instead of the browser's menu; in a text
 * field or a list the browser's stays (to paste, to spell-check).
 */
export function openRunMenuOnContextMenu(menus: RunMenus): (event: MouseEvent) => void {
  return (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const node = target?.closest<HTMLElement>('.react-flow__node');
    if (!target || !node || !node.querySelector('.node-run-menu')) return;
    if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
    const nodeId = node.dataset.id;
    if (nodeId === undefined) return;
    event.preventDefault();
    menus.open(nodeId);
  };
}
