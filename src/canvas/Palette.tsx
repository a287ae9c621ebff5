/**
 * The node palette's list: the node types matching the search by title, category or description,
 * arrows and Enter to choose. For a wire dropped on empty canvas only the nodes that can take it
 * are offered, and the chosen one arrives connected. Its box and search field (PaletteFrame.tsx)
 * hand it the keys pressed there. The search index is built when it opens.
 */
import { useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { CATEGORIES } from '../../nodes/index';
import type { AnyNodeDefinition } from '../../nodes/types';
import { portAccepts } from '../../nodes/values';
import { useEditorStore } from '../store/react';
import { closePalette, type PaletteRequest } from '../ui/ui-state';
import type { PaletteKey, PaletteListProps } from './PaletteFrame';
import { inputsFor, outputsFor } from '../store/ports';
import { focusWhenDrawn } from './reveal';
import { componentNodeDefinition } from '../../nodes/component-node';
import { listMyComponents, type MyComponent } from '../components/my-components';
import { toast } from '../ui/toast';

/** My components, read when the palette opens (none until they arrive, or when storage is refused). */
function useMyComponents(): readonly MyComponent[] {
  const [mine, setMine] = useState<readonly MyComponent[]>([]);
  useEffect(() => {
    let live = true;
    listMyComponents().then((list) => live && setMine(list), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  return mine;
}

interface Entry {
  def: AnyNodeDefinition;
  category: string;
  haystack: string;
  /** A component from My components: its definitions join the workflow's when chosen. */
  pack?: MyComponent;
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
    const defaults = def.params.safeParse({});
    return outputsFor(def, defaults.success ? (defaults.data as Record<string, unknown>) : {}).some((p) => (connect.accepts ?? [connect.kind]).includes(p.kind));
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

/** Where the arrows go from `index` in a list of `count`, round the ends. */
function step(index: number, key: Exclude<PaletteKey, 'Enter'>, count: number): number {
  const n = Math.max(1, count);
  return (index + (key === 'ArrowDown' ? 1 : n - 1)) % n;
}

export default function PaletteList({ request, query, listId, keys, onActive }: PaletteListProps) {
  const store = useEditorStore();
  const mine = useMyComponents();
  const entries = useMemo<Entry[]>(() => {
    const entry = (def: AnyNodeDefinition, category: string, pack?: MyComponent): Entry => ({
      def, category, haystack: `${def.title} ${category} ${def.description} ${def.type}`.toLowerCase(), ...(pack ? { pack } : {}),
    });
    const builtIn = compatible(store.registry.list(), request.connect)
      .map((def) => entry(def, CATEGORIES.find((c) => c.id === def.category)?.label ?? def.category));
    // Components: this workflow's (not one open now, which cannot contain itself), then My components.
    const { doc, scope } = store.getState();
    const open = new Set(scope.map((l) => l.componentId));
    const here = (doc.components ?? []).filter((c) => !open.has(c.id)).flatMap((c) => store.registry.get(`component:${c.id}`) ?? []);
    const saved = mine.map((pack) => ({ pack, def: componentNodeDefinition(pack.main, store.registry) }));
    return [
      ...builtIn,
      ...compatible(here, request.connect).map((def) => entry(def, "This workflow's components")),
      ...saved.filter(({ def }) => compatible([def], request.connect).length > 0).map(({ def, pack }) => entry(def, 'My components', pack)),
    ];
  }, [store, request.connect, mine]);
  const results = useMemo(() => searchEntries(entries, query), [entries, query]);
  // Where the arrows are holds for the query it was set with; a new query starts at the top.
  const [active, setActive] = useState({ query, index: 0 });
  const current = Math.min(active.query === query ? active.index : 0, Math.max(0, results.length - 1));
  const optionId = results.length > 0 ? `${listId}-${current}` : undefined;

  useEffect(() => onActive(optionId), [onActive, optionId]);

  useEffect(() => {
    if (optionId) document.getElementById(optionId)?.scrollIntoView({ block: 'nearest' });
  }, [optionId]);

  const choose = (entry: Entry | undefined) => {
    if (!entry) return;
    const { connect, flow } = request;
    // A node feeding an input is placed to its left; one fed by an output, to the right.
    const at = connect?.side === 'input' ? { x: flow.x - 320, y: flow.y - 40 } : { x: flow.x, y: flow.y - 40 };
    const link = connect ? ('from' in connect ? { from: connect.from } : { to: connect.to }) : undefined;
    const options = { ...(link ? { connect: link } : {}), free: true };
    let id: string;
    try {
      id = entry.pack ? store.addComponent(entry.pack, at, options) : store.addNode(entry.def.type, at, options);
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'info');
      return;
    }
    closePalette();
    // The keyboard goes on from the new node (Tab reaches its ports and fields).
    focusWhenDrawn(id);
  };

  // The keys pressed in the search field, those pressed while this list was on its way first.
  useLayoutEffect(() => keys.attach((pressed) => {
    let index = current;
    for (const key of pressed) {
      if (key === 'Enter') {
        choose(results[index]);
        return;
      }
      index = step(index, key, results.length);
    }
    setActive({ query, index });
  }));

  let lastCategory = '';
  return (
    <ul id={listId} className="palette-list" role="listbox" aria-label="Node types">
      {results.length === 0 && <li className="palette-empty" role="presentation">No node matches “{query}”.</li>}
      {results.map((entry, i) => {
        const header = !query && entry.category !== lastCategory ? entry.category : null;
        lastCategory = entry.category;
        return (
          <li key={`${entry.pack ? 'mine:' : ''}${entry.def.type}`} role="presentation">
            {header && <p className="palette-category" aria-hidden="true">{header}</p>}
            <div
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === current}
              className={`palette-item cat-${entry.def.category} ${i === current ? 'active' : ''}`}
              onPointerMove={() => setActive({ query, index: i })}
              onClick={() => choose(entry)}
            >
              <span className="palette-title">{entry.def.title}</span>
              <span className="palette-description">{entry.def.description}</span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
