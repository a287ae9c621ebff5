/**
 * The open menu of a node's ▶ button (NodeRunMenu.tsx): "Run to here" and "Run from here"
 * (WAI-ARIA menu pattern: arrows move, Enter chooses, Escape closes and returns focus). Fetched
 * the first time a menu opens.
 */
import { useRef, type KeyboardEvent, type RefObject } from 'react';
import { menuKey, useMenuFocus } from '../ui/menu-focus';
import { useRunControls } from './useRunControls';

interface Item {
  label: string;
  hint: string;
  keys: string;
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
  const menu = useRef<HTMLDivElement>(null);

  const items: Item[] = [
    { label: 'Run to here', hint: 'Run this node and what it needs; cached results are reused', keys: 'Control+Shift+Enter', act: () => runTo(nodeId) },
    { label: 'Run from here', hint: 'Re-make this node and everything after it; what it needs comes from the cache', keys: 'Control+Alt+Enter', act: () => runFrom(nodeId) },
  ];

  useMenuFocus(true, menu, button, close);

  const onMenuKey = (e: KeyboardEvent) => {
    // The canvas must not move the node or clear the selection while the menu has the keys.
    e.stopPropagation();
    menuKey(e, menu.current, close);
  };

  return (
    <div ref={menu} role="menu" aria-label={`Run ${label}`} className="node-run-menu__list nodrag nowheel nokey" onKeyDown={onMenuKey}>
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="node-run-menu__item"
          aria-disabled={running || undefined}
          aria-keyshortcuts={item.keys}
          title={running ? 'A run is under way' : item.hint}
          onClick={() => {
            if (running) return;
            close(false);
            item.act();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
