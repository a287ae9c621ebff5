/**
 * The open menu of a node's ▶ button (NodeRunMenu.tsx), also its right-click menu: "Run to here"
 * and "Run from here", and on a component instance "Face…" (which inner fields it shows, as its
 * button row offers). WAI-ARIA menu pattern: arrows move, Enter chooses, Escape closes and
 * returns focus. Fetched the first time a menu opens.
 */
import { useRef, type KeyboardEvent, type RefObject } from 'react';
import { isComponentNode } from '../../nodes/component-node';
import { openEditFace } from '../components/dialog-state';
import { useEditor, useEditorStore } from '../store/react';
import { menuKey, useMenuFocus } from '../ui/menu-focus';
import { useRunControls } from './useRunControls';

interface Item {
  label: string;
  hint: string;
  keys?: string;
  /** A run item, unavailable while a run is under way; an edit (Face…) is not. */
  runs: boolean;
  act(): void;
}

export interface NodeRunMenuListProps {
  nodeId: string;
  label: string;
  button: RefObject<HTMLButtonElement | null>;
  /** Closes the menu, giving the focus back to the ▶ button when `refocus`. */
  close(refocus: boolean): void;
}

export default function NodeRunMenuList({ nodeId, label, button, close }: NodeRunMenuListProps) {
  const { runTo, runFrom, running } = useRunControls();
  const store = useEditorStore();
  const instance = useEditor((s) => {
    const node = s.index.nodeById.get(nodeId);
    return node !== undefined && isComponentNode(node);
  });
  const menu = useRef<HTMLDivElement>(null);

  const items: Item[] = [
    { label: 'Run to here', hint: 'Run this node and what it needs; cached results are reused', keys: 'Control+Shift+Enter', runs: true, act: () => runTo(nodeId) },
    { label: 'Run from here', hint: 'Re-make this node and everything after it; what it needs comes from the cache', keys: 'Control+Alt+Enter', runs: true, act: () => runFrom(nodeId) },
    ...(instance ? [{ label: 'Face…', hint: 'Choose which inner fields it shows, and their labels: every instance changes', runs: false, act: () => openEditFace(store, nodeId) }] : []),
  ];

  useMenuFocus(true, menu, button, close);

  const onMenuKey = (e: KeyboardEvent) => {
    // The canvas must not move the node or clear the selection while the menu has the keys.
    e.stopPropagation();
    menuKey(e, menu.current, close);
  };

  return (
    <div ref={menu} role="menu" aria-label={`Run ${label}`} className="node-run-menu__list nodrag nowheel nokey" onKeyDown={onMenuKey}>
      {items.map((item) => {
        const off = running && item.runs;
        return (
          <button
            key={item.label}
            type="button"
            role="menuitem"
            tabIndex={-1}
            className={`node-run-menu__item${item.runs ? '' : ' node-run-menu__item--edit'}`}
            aria-disabled={off || undefined}
            aria-keyshortcuts={item.keys}
            title={off ? 'A run is under way' : item.hint}
            onClick={() => {
              if (off) return;
              close(false);
              item.act();
            }}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
