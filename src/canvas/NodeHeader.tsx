/**
 * A node's title bar: the user's title (or the type's), renamed in place by double-click, the
 * pencil button, or F2 on the selected node; Enter keeps, Escape cancels. The type shows beside a
 * custom title. The bypass button (or Ctrl+B) keeps the node in the graph without running it.
 * The title is always whole: long ones wrap, never cut short. The collapse button (or Ctrl+.)
 * folds the node to this bar and its ports. The overview (compact) shows the title and the run
 * menu only; the type, the bypass tag and the buttons, which its CSS hid there, are not drawn there.
 */
import { useState } from 'react';
import { useEditorStore } from '../store/react';
import { MOD } from './mod-key';
import { useRunSlots } from './run-slots';
import { TitleInput } from './TitleInput';

export interface NodeHeaderProps {
  nodeId: string;
  title: string;
  typeTitle: string;
  category: string;
  bypassed: boolean;
  /** Folded to the title bar and ports (view state saved in the file). */
  collapsed?: boolean;
  /** Drawn at overview zoom: the title and the run menu only. */
  compact?: boolean;
}

export function NodeHeader({ nodeId, title, typeTitle, category, bypassed, collapsed = false, compact = false }: NodeHeaderProps) {
  const store = useEditorStore();
  const { NodeRunMenu } = useRunSlots();
  const [editing, setEditing] = useState(false);
  const done = (next: string | undefined) => {
    setEditing(false);
    if (next !== undefined && next !== title) store.setNodeTitle(nodeId, next);
  };
  return (
    <header
      className={`node-header cat-${category}`}
      onDoubleClick={(e) => {
        e.stopPropagation();
        setEditing(true);
      }}
    >
      {editing
        ? (
          <TitleInput label="Node title" initial={title} onDone={done} />
        )
        : (
          <>
            <span className="node-titles">
              <span className="node-title" title={title === typeTitle ? typeTitle : `${title} (${typeTitle})`}>{title}</span>
              {!compact && title !== typeTitle && <span className="node-type">{typeTitle}</span>}
            </span>
            {!compact && bypassed && <span className="bypass-tag">bypassed</span>}
            {/* Hidden in the overview, but there for F2 (use-shortcuts.ts clicks it). */}
            <button type="button" className="icon-button rename nodrag" aria-label={`Rename node ${title}`} onClick={() => setEditing(true)}>✎</button>
            {NodeRunMenu && <NodeRunMenu nodeId={nodeId} />}
            {!compact && <button
              type="button"
              className={`icon-button bypass-toggle nodrag ${bypassed ? 'on' : ''}`}
              aria-label={`Bypass ${title}`}
              aria-pressed={bypassed}
              title={bypassed ? 'Bypassed: the node passes its input on instead of running (Ctrl+B to run it again)' : 'Bypass: keep the node but pass its input on instead of running it (Ctrl+B)'}
              onClick={() => store.toggleBypass([nodeId])}
            >
              ⤼
            </button>}
            {!compact && <button
              type="button"
              className="icon-button collapse-toggle nodrag"
              aria-label={`${collapsed ? 'Expand' : 'Collapse'} ${title}`}
              aria-expanded={!collapsed}
              title={collapsed ? `Expand: show the node's fields and results (${MOD}+.)` : `Collapse to the title bar and ports (${MOD}+.)`}
              onClick={() => store.toggleCollapsed([nodeId])}
            >
              {collapsed ? '▸' : '▾'}
            </button>}
          </>
        )}
    </header>
  );
}
