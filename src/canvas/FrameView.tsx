/**
 * A group's frame: a coloured, titled box behind its nodes. Only the title bar takes the pointer
 * (drag it to move the group with everything in it; double-click or the pencil to rename); the
 * inside lets clicks through, so the canvas under it still selects, pans and opens the palette.
 */
import { NodeResizer, type NodeProps } from '@xyflow/react';
import { memo, useState } from 'react';
import { GROUP_COLORS, type GroupColor } from '../../workflow/format';
import { groupItem } from '../store/frames';
import { useEditor, useEditorStore } from '../store/react';
import type { FrameNode } from './derive-frames';
import { TitleInput } from './TitleInput';
import { useFrameResize } from './use-frame-resize';

function FrameViewImpl({ data, selected }: NodeProps<FrameNode>) {
  const store = useEditorStore();
  const id = data.itemId;
  const group = useEditor((s) => s.doc.groups?.find((g) => g.id === id));
  const [editing, setEditing] = useState(false);
  const resize = useFrameResize(groupItem(id));
  if (!group) return null;
  const count = group.nodes.length + group.notes.length;

  const done = (next: string | undefined) => {
    setEditing(false);
    if (next !== undefined && next.trim() !== group.title) store.setGroupTitle(id, next);
  };

  return (
    <div className={`frame frame-${group.color} ${selected ? 'selected' : ''}`}>
      <NodeResizer isVisible={selected} minWidth={120} minHeight={80} {...resize} />
      <header
        className="frame-header"
        onDoubleClick={(e) => {
          e.stopPropagation();
          setEditing(true);
        }}
      >
        {editing
          ? (
            <TitleInput label="Group title" initial={group.title} onDone={done} />
          )
          : (
            <>
              <span className="frame-title" title={`${group.title}: ${count} item${count === 1 ? '' : 's'}`}>{group.title}</span>
              <button type="button" className="icon-button frame-tool nodrag" aria-label={`Rename group ${group.title}`} onClick={() => setEditing(true)}>✎</button>
              <select
                className="frame-color nodrag"
                aria-label={`Colour of group ${group.title}`}
                value={group.color}
                onChange={(e) => store.setGroupColor(id, e.target.value as GroupColor)}
              >
                {GROUP_COLORS.map((color) => <option key={color} value={color}>{color}</option>)}
              </select>
            </>
          )}
      </header>
    </div>
  );
}

export const FrameView = memo(FrameViewImpl, (a, b) => a.id === b.id && a.selected === b.selected && a.data === b.data);
