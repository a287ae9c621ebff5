/**
 * A note on the canvas: its text drawn as safe Markdown (markdown.tsx), edited in place by
 * double-click, Enter on the selected note or the Edit button (a new, empty note starts so);
 * Escape or a click outside ends the editing. Resizable when selected. Notes never run.
 */
import { NodeResizer, type NodeProps } from '@xyflow/react';
import { memo, useMemo, useState } from 'react';
import { noteItem } from '../store/frames';
import { useEditor, useEditorStore } from '../store/react';
import { TextArea } from '../ui/TextArea';
import type { FrameNode } from './derive-frames';
import { renderMarkdown } from './markdown';
import { useFrameResize } from './use-frame-resize';

function NoteViewImpl({ data, selected }: NodeProps<FrameNode>) {
  const store = useEditorStore();
  const id = data.itemId;
  const note = useEditor((s) => s.doc.notes?.find((n) => n.id === id));
  // A new, empty note opens ready to write in.
  const [editing, setEditing] = useState(() => note?.text === '');
  const resize = useFrameResize(noteItem(id));
  const text = note?.text ?? '';
  const rendered = useMemo(() => (text.trim() === '' ? null : renderMarkdown(text)), [text]);
  if (!note) return null;

  return (
    <div
      className={`note ${selected ? 'selected' : ''} ${editing ? 'editing' : ''}`}
      onDoubleClick={(e) => {
        e.stopPropagation();
        setEditing(true);
      }}
    >
      <NodeResizer isVisible={selected} minWidth={120} minHeight={60} {...resize} />
      <header className="note-header">
        <span className="note-label">Note</span>
        <button
          type="button"
          className="icon-button nodrag"
          aria-label={editing ? 'Done editing the note' : 'Edit the note'}
          aria-pressed={editing}
          onClick={() => setEditing(!editing)}
        >
          {editing ? '✓' : '✎'}
        </button>
      </header>
      {editing
        ? (
          <TextArea
            className="note-input nodrag nowheel"
            aria-label="Note text (Markdown)"
            value={text}
            autoFocus
            maxLength={10_000}
            placeholder="Write a note: **bold**, *italic*, `code`, - lists, [links](https://…)"
            onText={(next) => store.setNoteText(id, next, { typing: true })}
            onBlur={() => setEditing(false)}
            onKeyDown={(e, field) => {
              e.stopPropagation();
              if (e.key === 'Escape') field.blur();
            }}
          />
        )
        : (
          <div className="note-body nowheel" aria-label="Note text">
            {rendered ?? <p className="muted">Double-click to write a note.</p>}
          </div>
        )}
    </div>
  );
}

export const NoteView = memo(NoteViewImpl, (a, b) => a.id === b.id && a.selected === b.selected && a.data === b.data);
