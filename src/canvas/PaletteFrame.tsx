/**
 * The node palette's box and search field, drawn the moment the palette opens (by double-click,
 * Ctrl+K or "/", the toolbar, or a wire dropped on empty canvas), with the list of node types
 * (Palette.tsx) under it: what is typed goes into this field, arrows and Enter to the list.
 */
import { Suspense, useEffect, useId, useRef, useState, type ComponentType } from 'react';
import { closePalette, type PaletteRequest } from '../ui/ui-state';
import { KIND_LABEL } from '../store/ports';

/** A key the list acts on. */
export type PaletteKey = 'ArrowDown' | 'ArrowUp' | 'Enter';

/** Hands the list the keys pressed in the search field, holding those pressed before it came. */
export class PaletteKeys {
  private held: PaletteKey[] = [];
  private handler: ((keys: readonly PaletteKey[]) => void) | null = null;

  press(key: PaletteKey): void {
    if (this.handler) this.handler([key]);
    else this.held.push(key);
  }

  /** The list takes the keys from now on, first those held for it; returns how it lets go. */
  attach(handler: (keys: readonly PaletteKey[]) => void): () => void {
    this.handler = handler;
    const held = this.held.splice(0);
    if (held.length > 0) handler(held);
    return () => {
      if (this.handler === handler) this.handler = null;
    };
  }
}

export interface PaletteListProps {
  request: PaletteRequest;
  query: string;
  /** The listbox's id; option i is `${listId}-${i}`. */
  listId: string;
  keys: PaletteKeys;
  /** The option the arrows are on, for the search field's aria-activedescendant. */
  onActive: (optionId: string | undefined) => void;
}

const WIDTH = 340;
const HEIGHT = 420;

export function PaletteFrame({ request, List }: { request: PaletteRequest; List: ComponentType<PaletteListProps> }) {
  const [query, setQuery] = useState('');
  const [activeId, setActiveId] = useState<string>();
  const [keys] = useState(() => new PaletteKeys());
  // Where the keyboard was when the palette opened: Escape goes back there.
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null));
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();

  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      if (root.current && e.target instanceof Node && !root.current.contains(e.target)) closePalette();
    };
    window.addEventListener('pointerdown', onDown, true);
    return () => window.removeEventListener('pointerdown', onDown, true);
  }, []);

  const left = Math.max(8, Math.min(request.screen.x, window.innerWidth - WIDTH - 8));
  const top = Math.max(8, Math.min(request.screen.y, window.innerHeight - HEIGHT - 8));
  const heading = request.connect
    ? `Add a node that ${request.connect.side === 'output' ? 'takes' : 'gives'} ${KIND_LABEL[request.connect.kind]}`
    : 'Add a node';

  return (
    <div ref={root} className="palette" role="dialog" aria-label={heading} style={{ left, top, width: WIDTH, maxHeight: HEIGHT }}>
      <p className="palette-heading">{heading}</p>
      <input
        className="input palette-search"
        autoFocus
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        aria-label="Search nodes"
        placeholder="Search nodes…"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp' || e.key === 'Enter') {
            e.preventDefault();
            keys.press(e.key);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            closePalette();
            if (opener?.isConnected) opener.focus({ preventScroll: true });
          }
        }}
      />
      <Suspense fallback={<p className="palette-empty">Loading the node types…</p>}>
        <List request={request} query={query} listId={listId} keys={keys} onActive={setActiveId} />
      </Suspense>
    </div>
  );
}
