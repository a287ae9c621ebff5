/**
 * The node palette: search by title, category or description, arrows and Enter to choose. Opened
 * by double-click, Ctrl+K or "/", the toolbar, or a wire dropped on empty canvas (then only the
 * nodes that can take that wire are offered, and the chosen one arrives connected). It is part
 * of the first load, so keys typed right after Ctrl+K are never lost; its search index is built
 * when it opens.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { CATEGORIES } from '../../nodes/index';
import type { AnyNodeDefinition } from '../../nodes/types';
import { portAccepts } from '../../nodes/values';
import { useEditorStore } from '../store/react';
import { closePalette, type PaletteRequest } from '../ui/ui-state';
import { inputsFor, KIND_LABEL } from './ports';

interface Entry {
  def: AnyNodeDefinition;
  category: string;
  haystack: string;
}

/** The entries that can complete the wire of `connect` (all when there is none). */
function compatible(defs: readonly AnyNodeDefinition[], connect: PaletteRequest['connect']): AnyNodeDefinition[] {
  if (!connect) return [...defs];
  return defs.filter((def) => {
    if (connect.side === 'output') {
      const defaults = def.params.safeParse({});
      const inputs = inputsFor(def, defaults.success ? (defaults.data as Record<string, unknown>) : {});
      return inputs.some((p) => portAccepts(p, connect.kind));
    }
    return def.outputs.some((p) => (connect.accepts ?? [connect.kind]).includes(p.kind));
  });
}

/** Entries matching every word of the query, best first: title start, title, then the rest. */
export function searchEntries(entries: readonly Entry[], query: string): Entry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...entries];
  const score = (e: Entry) => {
    const title = e.def.title.toLowerCase();
    if (title.startsWith(words[0]!)) return 0;
    if (title.includes(words[0]!)) return 1;
    return 2;
  };
  return entries
    .filter((e) => words.every((w) => e.haystack.includes(w)))
    .map((e, i) => ({ e, i, s: score(e) }))
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.e);
}

const WIDTH = 340;
const HEIGHT = 420;

export default function Palette({ request }: { request: PaletteRequest }) {
  const store = useEditorStore();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const listId = useId();

  const entries = useMemo<Entry[]>(() => compatible(store.registry.list(), request.connect).map((def) => {
    const category = CATEGORIES.find((c) => c.id === def.category)?.label ?? def.category;
    return { def, category, haystack: `${def.title} ${category} ${def.description} ${def.type}`.toLowerCase() };
  }), [store, request.connect]);
  const results = useMemo(() => searchEntries(entries, query), [entries, query]);
  const current = Math.min(active, Math.max(0, results.length - 1));

  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      if (root.current && e.target instanceof Node && !root.current.contains(e.target)) closePalette();
    };
    window.addEventListener('pointerdown', onDown, true);
    return () => window.removeEventListener('pointerdown', onDown, true);
  }, []);

  useEffect(() => {
    document.getElementById(`${listId}-${current}`)?.scrollIntoView({ block: 'nearest' });
  }, [current, listId]);

  const choose = (entry: Entry | undefined) => {
    if (!entry) return;
    const { connect, flow } = request;
    // A node feeding an input is placed to its left; one fed by an output, to the right.
    const at = connect?.side === 'input' ? { x: flow.x - 320, y: flow.y - 40 } : { x: flow.x, y: flow.y - 40 };
    const link = connect ? ('from' in connect ? { from: connect.from } : { to: connect.to }) : undefined;
    store.addNode(entry.def.type, at, link ? { connect: link } : {});
    closePalette();
  };

  const left = Math.max(8, Math.min(request.screen.x, window.innerWidth - WIDTH - 8));
  const top = Math.max(8, Math.min(request.screen.y, window.innerHeight - HEIGHT - 8));
  const heading = request.connect
    ? `Add a node that ${request.connect.side === 'output' ? 'takes' : 'gives'} ${KIND_LABEL[request.connect.kind]}`
    : 'Add a node';

  let lastCategory = '';
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
        aria-activedescendant={results.length > 0 ? `${listId}-${current}` : undefined}
        aria-label="Search nodes"
        placeholder="Search nodes…"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((current + 1) % Math.max(1, results.length));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((current - 1 + results.length) % Math.max(1, results.length));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            choose(results[current]);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            closePalette();
          }
        }}
      />
      <ul id={listId} className="palette-list" role="listbox" aria-label="Node types">
        {results.length === 0 && <li className="palette-empty" role="presentation">No node matches “{query}”.</li>}
        {results.map((entry, i) => {
          const header = !query && entry.category !== lastCategory ? entry.category : null;
          lastCategory = entry.category;
          return (
            <li key={entry.def.type} role="presentation">
              {header && <p className="palette-category" aria-hidden="true">{header}</p>}
              <div
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === current}
                className={`palette-item cat-${entry.def.category} ${i === current ? 'active' : ''}`}
                onPointerMove={() => setActive(i)}
                onClick={() => choose(entry)}
              >
                <span className="palette-title">{entry.def.title}</span>
                <span className="palette-description">{entry.def.description}</span>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
