/**
 * A menu button (WAI-ARIA menu pattern): the button opens a list of actions; arrows move between
 * them, Enter chooses, Escape closes and returns focus to the button.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { menuKey, useMenuFocus } from './menu-focus';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  shortcut?: string;
  /** Shown under the label (example descriptions). */
  detail?: string;
  disabled?: boolean;
}

export interface MenuButtonProps {
  label: ReactNode;
  ariaLabel?: string;
  /** Items, or a function that loads them when the menu opens (examples). */
  items: readonly MenuItem[] | (() => Promise<readonly MenuItem[]>);
  emptyText?: string;
  className?: string;
}

export function MenuButton({ label, ariaLabel, items, emptyText = 'Nothing here', className }: MenuButtonProps) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState<readonly MenuItem[] | null>(Array.isArray(items) ? items : null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const list = Array.isArray(items) ? items : loaded;

  useEffect(() => {
    if (!open || Array.isArray(items)) return;
    let live = true;
    void (items as () => Promise<readonly MenuItem[]>)().then((result) => {
      if (live) setLoaded(result);
    });
    return () => {
      live = false;
    };
  }, [open, items]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  useMenuFocus(open, menu, button, close, list);

  return (
    <div className={`menu ${className ?? ''}`}>
      <button
        ref={button}
        type="button"
        className="button toolbar-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={ariaLabel}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        {label}
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          className="menu-list"
          aria-label={ariaLabel ?? (typeof label === 'string' ? label : undefined)}
          onKeyDown={(e) => {
            if (menuKey(e, menu.current, close)) e.stopPropagation();
          }}
        >
          {list === null && <p className="menu-note">Loading…</p>}
          {list?.length === 0 && <p className="menu-note">{emptyText}</p>}
          {list?.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="menu-item"
              aria-disabled={item.disabled || undefined}
              onClick={() => {
                if (item.disabled) return;
                close(false);
                item.onSelect();
              }}
            >
              <span className="menu-item-label">{item.label}</span>
              {item.shortcut && <kbd className="menu-item-shortcut">{item.shortcut}</kbd>}
              {item.detail && <span className="menu-item-detail">{item.detail}</span>}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
