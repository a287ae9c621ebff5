/**
 * What every menu here does with the focus, the pointer and the keys (WAI-ARIA menu pattern):
 * when it opens, the first item that can be chosen takes the focus (the first item when none
 * can); a press outside the menu and its button closes it; arrows move between the items, Escape
 * closes it and gives the focus back to the button, Tab closes it and lets the focus go on.
 * Used by the toolbar's menus (Menu.tsx) and a node's run menu (src/run/NodeRunMenuList.tsx).
 */
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

/** Focus on opening and close on a press outside, while `open`; again when `items` change (they loaded). */
export function useMenuFocus(
  open: boolean,
  menu: RefObject<HTMLElement | null>,
  button: RefObject<HTMLElement | null>,
  close: (refocus: boolean) => void,
  items?: unknown,
): void {
  const latestClose = useRef(close);
  useEffect(() => {
    latestClose.current = close;
  });
  useEffect(() => {
    if (!open) return;
    const first = menu.current?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')
      ?? menu.current?.querySelector<HTMLElement>('[role="menuitem"]');
    first?.focus();
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) latestClose.current(false);
    };
    window.addEventListener('pointerdown', onDown, true);
    return () => window.removeEventListener('pointerdown', onDown, true);
  }, [open, items, menu, button]);
}

/** Acts on a menu's own keys; true (and the key's default prevented) when it was one of them. */
export function menuKey(e: KeyboardEvent, menu: HTMLElement | null, close: (refocus: boolean) => void): boolean {
  const entries = [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const at = entries.indexOf(document.activeElement as HTMLElement);
  if (e.key === 'ArrowDown') entries[(at + 1 + entries.length) % entries.length]?.focus();
  else if (e.key === 'ArrowUp') entries[(at - 1 + entries.length) % entries.length]?.focus();
  else if (e.key === 'Escape') close(true);
  else if (e.key === 'Tab') close(false);
  else return false;
  e.preventDefault();
  return true;
}
