/**
 * The open menu of a node's ▶ button (NodeRunMenu.tsx): "Run to here" and "Run from here"
 * (WAI-ARIA menu pattern: arrows move, Enter chooses, Escape closes and returns focus). Fetched
 * the first time a menu opens.
 */
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
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

  useEffect(() => {
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) close(false);
    };
    window.addEventListener('pointerdown', onDown, true);
    return () => window.removeEventListener('pointerdown', onDown, true);
  }, [button, close]);

  const onMenuKey = (e: KeyboardEvent) => {
    // The canvas must not move the node or clear the selection while the menu has the keys.
    e.stopPropagation();
    const entries = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = entries.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown') entries[(at + 1) % entries.length]?.focus();
    else if (e.key === 'ArrowUp') entries[(at - 1 + entries.length) % entries.length]?.focus();
    else if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') close(false);
    else return;
    e.preventDefault();
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
