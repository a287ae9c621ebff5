/**
 * "Run to here" and "Run from here" on a node: a ▶ button in the node's title bar opens a small
 * menu (WAI-ARIA menu pattern: arrows move, Enter chooses, Escape closes and returns focus), and
 * a right-click anywhere on the node opens the same menu. Ctrl+Shift+Enter and Ctrl+Alt+Enter
 * do the same for the selected node (RunProvider).
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useRunContext } from './context';
import { useRunControls } from './useRunControls';

interface Item {
  label: string;
  hint: string;
  keys: string;
  act(): void;
}

export function NodeRunMenu({ nodeId }: { nodeId: string }) {
  const { describeNode } = useRunContext();
  const { runTo, runFrom, running } = useRunControls();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const label = describeNode(nodeId).label;

  const items: Item[] = [
    { label: 'Run to here', hint: 'Run this node and what it needs; cached results are reused', keys: 'Control+Shift+Enter', act: () => runTo(nodeId) },
    { label: 'Run from here', hint: 'Re-make this node and everything after it; what it needs comes from the cache', keys: 'Control+Alt+Enter', act: () => runFrom(nodeId) },
  ];

  // A right-click on the node opens the menu, instead of the browser's.
  useEffect(() => {
    const node = button.current?.closest('.react-flow__node');
    if (!node) return;
    const onContextMenu = (event: Event) => {
      if (event.target instanceof Element && event.target.closest('input, textarea, select, [contenteditable="true"]')) return;
      event.preventDefault();
      setOpen(true);
    };
    node.addEventListener('contextmenu', onContextMenu);
    return () => node.removeEventListener('contextmenu', onContextMenu);
  }, []);

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    window.addEventListener('pointerdown', onDown, true);
    return () => window.removeEventListener('pointerdown', onDown, true);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

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
    <span className="node-run-menu nodrag nokey">
      <button
        ref={button}
        type="button"
        className="icon-button nodrag"
        aria-label={`Run options for ${label}`}
        aria-haspopup="menu"
        aria-expanded={open}
        title="Run to here, run from here (right-click the node)"
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            e.stopPropagation();
            setOpen(true);
          }
        }}
      >
        ▶
      </button>
      {open && (
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
      )}
    </span>
  );
}
