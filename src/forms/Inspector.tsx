/**
 * The inspector: the selected node's whole form beside the canvas. It is the same generated form
 * the node draws (NodeForm), with every field in view and the same problems under them; an edit
 * here is the same edit as on the node (one undo step, autosaved). It follows the selection
 * (once the focus leaves a node's own form: twin-focus.ts), and asks for one when there is none.
 */
import { useMemo } from 'react';
import { inputsFor } from '../store/ports';
import { itemOf } from '../store/frames';
import { useEditor } from '../store/react';
import { useNodeType } from '../components/use-node-type';
import NodeForm from './NodeForm';
import { AppNodeActions } from '../appview/AppMarks';
import { useHeldWhileNodeFormFocused } from './twin-focus';

/** Loaded with the node forms (NodeView.tsx), not with the first paint. */

const NO_INPUTS: readonly never[] = [];

/** The one node selected, or how many items are (a string keeps re-renders to real changes). */
function selectedNode(selection: ReadonlySet<string>): string {
  if (selection.size !== 1) return `#${selection.size}`;
  const only = itemOf([...selection][0]!);
  return only.kind === 'node' ? only.id : '#other';
}

export function Inspector() {
  const picked = useHeldWhileNodeFormFocused(useEditor((s) => selectedNode(s.selection.nodes)));
  const id = picked.startsWith('#') ? undefined : picked;
  const node = useEditor((s) => (id === undefined ? undefined : s.index.nodeById.get(id)));
  const inbound = useEditor((s) => (id === undefined ? undefined : s.index.inbound.get(id)));
  const asInput = useEditor((s) => (id === undefined ? undefined : s.asInput.get(id)));
  const def = useNodeType(node);
  const params = node?.params;
  const inputs = useMemo(() => (def && params ? inputsFor(def, params) : NO_INPUTS), [def, params]);

  let body;
  if (node && !def) {
    body = <p className="inspector__empty">Atelier does not know this node's type ({node.type}): its settings are kept as they are.</p>;
  } else if (!node || !def) {
    const many = picked === '#other' || Number(picked.slice(1)) > 1;
    body = (
      <p className="inspector__empty">
        {many ? 'Select one node to see all its settings' : 'Select a node to see all its settings'}
      </p>
    );
  } else {
    const title = node.title || def.title;
    body = (
      <>
        <h3 className="inspector__title">{title}</h3>
        {title !== def.title && <p className="inspector__type">{def.title}</p>}
        <AppNodeActions nodeId={node.id} def={def} />
        <NodeForm key={node.id} nodeId={node.id} def={def} params={node.params} inputs={inputs} inbound={inbound} asInput={asInput} all />
      </>
    );
  }

  return (
    <section className="inspector" aria-label="Inspector">
      <h2 className="run-panel__heading">Node settings</h2>
      {body}
    </section>
  );
}
