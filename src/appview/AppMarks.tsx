/**
 * Marking the app from the inspector: a parameter's "Add to app" switch, and on a node whose whole
 * point is one value (an Image loader's picture, a Text node's text) or a result (Preview / save)
 * the node-wide "Add to app as input" or "as output". Each mark is one undo step (app-actions.ts).
 */
import type { AnyNodeDefinition } from '../../nodes/types';
import { useEditor, useEditorStore } from '../store/react';

/** Node types marked whole through their one main parameter. */
const WHOLE_NODE_INPUT = new Map<string, string>([['image-loader', 'image'], ['text', 'text']]);
/** Node types whose results the app's gallery can show. */
const OUTPUT_TYPES = new Set(['preview']);

/** Whether a node of this type can be an app output. */
export function isAppOutputType(type: string): boolean {
  return OUTPUT_TYPES.has(type);
}

/** The parameter's "Add to app" switch, beside its label in the inspector. */
export function AppParamToggle({ nodeId, param, title }: { nodeId: string; param: string; title: string }) {
  const store = useEditorStore();
  const name = useEditor((s) => s.doc.app?.inputs.find((i) => i.node === nodeId && i.param === param)?.name);
  const marked = name !== undefined;
  return (
    <button
      type="button"
      className={`as-input app-mark ${marked ? 'on' : ''}`}
      aria-pressed={marked}
      aria-label={`Add ${title} to app`}
      title={marked ? `In the app's form as “${name}”: click to take it out` : `Add ${title} to the app's form (App view, and --input on the command line)`}
      onClick={() => (marked ? store.unmarkAppInput(name) : store.markAppInput(nodeId, param))}
    >
      {marked ? 'in app' : '+ app'}
    </button>
  );
}

/** The node-wide marks under the inspector's title, for the node types that have one. */
export function AppNodeActions({ nodeId, def }: { nodeId: string; def: AnyNodeDefinition }) {
  const store = useEditorStore();
  const param = WHOLE_NODE_INPUT.get(def.type);
  const inputName = useEditor((s) => (param === undefined ? undefined : s.doc.app?.inputs.find((i) => i.node === nodeId && i.param === param)?.name));
  const isOutput = useEditor((s) => s.doc.app?.outputs.some((o) => o.node === nodeId) === true);
  if (param === undefined && !isAppOutputType(def.type)) return null;
  return (
    <div className="app-marks" role="group" aria-label="App">
      {param !== undefined && (
        inputName === undefined
          ? <button type="button" className="button small" onClick={() => store.markAppInput(nodeId, param)}>Add to app as input</button>
          : <button type="button" className="button small" onClick={() => store.unmarkAppInput(inputName)}>Remove from app inputs</button>
      )}
      {isAppOutputType(def.type) && (
        isOutput
          ? <button type="button" className="button small" onClick={() => store.unmarkAppOutput(nodeId)}>Remove from app outputs</button>
          : <button type="button" className="button small" onClick={() => store.markAppOutput(nodeId)}>Add to app as output</button>
      )}
    </div>
  );
}
