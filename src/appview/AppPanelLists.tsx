/**
 * The app's lists in the side panel (AppPanel.tsx), once there is an app: the inputs (the form, in
 * order) and the outputs (the gallery, in order) the author marked, each with its label to edit,
 * a grip to drag it elsewhere (list-drag.ts), ↑ ↓ to reorder from the keyboard and × to take it
 * out; every change is one undo step and part of the file.
 */
import { useMemo, type HTMLAttributes } from 'react';
import { appFields, staleAppEntries } from '../../nodes/app-fields';
import type { App } from '../../workflow/app';
import { CommitInput } from '../settings/CommitInput';
import { useEditor, useEditorStore } from '../store/react';
import { dragClass, useListDrag, type ListDrag } from './list-drag';

interface RowProps {
  label: string;
  placeholder: string;
  detail: string;
  /** Why the entry points at nothing, when it does. */
  missing?: string | undefined;
  first: boolean;
  last: boolean;
  index: number;
  drag: ListDrag | null;
  grip: HTMLAttributes<HTMLElement>;
  onLabel(label: string): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}

function Row({ label, placeholder, detail, missing, first, last, index, drag, grip, onLabel, onMove, onRemove }: RowProps) {
  const shown = label || placeholder;
  return (
    <li className={`app-panel__row${dragClass(drag, index)}`}>
      {/* The pointer's way to reorder; the keyboard's is ↑ ↓, so the grip is no stop of its own. */}
      <span className="app-panel__grip" aria-hidden="true" title={`Drag ${shown} to reorder`} {...grip}>⠿</span>
      <CommitInput className="input app-panel__label" value={label} placeholder={placeholder} maxLength={200} aria-label={`Label of ${shown}`} onCommit={onLabel} />
      <span className="app-panel__detail">{detail}</span>
      {missing !== undefined && <span className="app-panel__missing field-issue">Missing: {missing}. Remove it with ×.</span>}
      <span className="app-panel__buttons">
        <button type="button" className="icon-button" disabled={first} onClick={() => onMove(-1)} aria-label={`Move ${shown} up`}>↑</button>
        <button type="button" className="icon-button" disabled={last} onClick={() => onMove(1)} aria-label={`Move ${shown} down`}>↓</button>
        <button type="button" className="icon-button" onClick={onRemove} aria-label={`Remove ${shown} from the app`}>×</button>
      </span>
    </li>
  );
}

export default function AppPanelLists({ app }: { app: App }) {
  const store = useEditorStore();
  const inputDrag = useListDrag((from, to) => {
    const name = app.inputs[from]?.name;
    if (name !== undefined) store.moveAppInputTo(name, to);
  });
  const outputDrag = useListDrag((from, to) => {
    const node = app.outputs[from]?.node;
    if (node !== undefined) store.moveAppOutputTo(node, to);
  });
  const doc = useEditor((s) => s.doc);
  // What each input is called when it has no label of its own: the node's and parameter's titles.
  const defaults = useMemo(() => {
    const bare = { ...doc, app: { inputs: app.inputs.map((i) => ({ name: i.name, node: i.node, param: i.param })), outputs: app.outputs } };
    return new Map(appFields(bare, store.registry).fields.map((f) => [f.name, f.label]));
  }, [doc, app, store.registry]);
  // Entries that point at nothing (a file from a build that did not remove them): shown as missing, for × to take out.
  const missing = useMemo(() => new Map(staleAppEntries(doc, store.registry).map((e) => [JSON.stringify([e.list, e.key]), e.message])), [doc, store.registry]);
  const nodeTitle = (id: string) => {
    const node = doc.nodes.find((n) => n.id === id);
    return node ? node.title?.trim() || store.registry.get(node.type)?.title || node.type : id;
  };

  return (
    <>
      <h3 className="app-panel__sub">Inputs</h3>
      {app.inputs.length === 0 ? <p className="app-panel__empty">None: the form will only have Run.</p> : (
        <ol className="app-panel__list" aria-label="App inputs">
          {app.inputs.map((input, i) => (
            <Row
              key={input.name}
              label={input.label ?? ''}
              placeholder={defaults.get(input.name) ?? `${nodeTitle(input.node)} › ${input.param}`}
              detail={`--input ${input.name}`}
              missing={missing.get(JSON.stringify(['inputs', input.name]))}
              first={i === 0}
              last={i === app.inputs.length - 1}
              index={i}
              drag={inputDrag.drag}
              grip={inputDrag.grip(i)}
              onLabel={(label) => store.labelAppInput(input.name, label)}
              onMove={(by) => store.moveAppInput(input.name, by)}
              onRemove={() => store.unmarkAppInput(input.name)}
            />
          ))}
        </ol>
      )}
      <h3 className="app-panel__sub">Outputs</h3>
      {app.outputs.length === 0 ? <p className="app-panel__empty">None: mark a Preview / save node to show its results.</p> : (
        <ol className="app-panel__list" aria-label="App outputs">
          {app.outputs.map((output, i) => (
            <Row
              key={output.node}
              label={output.label ?? ''}
              placeholder={nodeTitle(output.node)}
              detail={nodeTitle(output.node)}
              missing={missing.get(JSON.stringify(['outputs', output.node]))}
              first={i === 0}
              last={i === app.outputs.length - 1}
              index={i}
              drag={outputDrag.drag}
              grip={outputDrag.grip(i)}
              onLabel={(label) => store.labelAppOutput(output.node, label)}
              onMove={(by) => store.moveAppOutput(output.node, by)}
              onRemove={() => store.unmarkAppOutput(output.node)}
            />
          ))}
        </ol>
      )}
    </>
  );
}
