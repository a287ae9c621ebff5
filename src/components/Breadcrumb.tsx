/**
 * The way into an opened component, over the canvas: the workflow, then each component opened,
 * each a button back out to it (Escape with nothing selected goes out one level too).
 */
import { Panel } from '@xyflow/react';
import { useEditor, useEditorStore } from '../store/react';

export function Breadcrumb() {
  const store = useEditorStore();
  const depth = useEditor((s) => s.scope.length);
  // Re-read when the names change (a rename of the workflow or of a component).
  useEditor((s) => s.doc.metadata.title);
  useEditor((s) => s.doc.components);
  if (depth === 0) return null;
  const crumbs = store.breadcrumb();
  return (
    <Panel position="top-center" className="component-breadcrumb">
      <nav aria-label="Component path">
        <ol>
          {crumbs.map((crumb, i) => (
            <li key={crumb.level}>
              {i < crumbs.length - 1
                ? <button type="button" className="button small" onClick={() => store.closeComponent(crumb.level)}>{crumb.label}</button>
                : <span aria-current="page">{crumb.label}</span>}
            </li>
          ))}
        </ol>
        <span className="muted">Editing the definition: every instance changes with it</span>
      </nav>
    </Panel>
  );
}
