/**
 * One input of the App view's form: the same widget the node's own form uses for that parameter
 * (a prompt's text area, the seed widget, a choice, the Image loader's picker, here also taking a
 * dropped file), under the author's label. An edit is an edit of the workflow (one undo step,
 * autosaved), so nothing typed here is lost by switching to the graph and back. Under it: the
 * form's own checks, a refused run's problems and the node's failure, each naming the node.
 */
import { useMemo, type DragEvent } from 'react';
import type { AppField } from '../../nodes/app-fields';
import { putImageFile } from '../files/commands';
import { FieldRow } from '../forms/FieldRow';
import { planFields, type FieldSpec } from '../forms/field-plan';
import { useFormIssues } from '../forms/use-checks';
import { useNodeRunState, useRunContext, useRunOverview } from '../run/context';
import { inputsFor } from '../store/ports';
import { useEditor, useEditorStore } from '../store/react';
import type { WorkflowNode } from '../../workflow/schema';
import type { AnyNodeDefinition } from '../../nodes/types';
import type { InboundEdges } from '../store/graph-index';

/** The element id of an input's control, for focusing it from a problem. */
export const appControlId = (nodeId: string, param: string) => `app-f-${nodeId}-${param}-input`;

/** Whether a problem's field (maybe dotted: `loras.0.weight`) is this parameter. */
const concerns = (field: string | undefined, param: string) => field === param || (field?.startsWith(`${param}.`) ?? false);

function useRunMessages(nodeId: string, param: string, nodeLabel: string): string[] {
  const { problems } = useRunOverview();
  const state = useNodeRunState(nodeId);
  return useMemo(() => {
    const mine = problems.filter((p) => p.nodeId === nodeId && concerns(p.field, param)).map((p) => `${nodeLabel}: ${p.message}`);
    const error = state?.phase === 'failed' ? state.error : undefined;
    if (error && (error.field === undefined || concerns(error.field, param))) mine.push(`${nodeLabel} failed: ${error.message}`);
    return mine;
  }, [problems, state, nodeId, param, nodeLabel]);
}

interface KnownProps {
  field: AppField;
  node: WorkflowNode;
  def: AnyNodeDefinition;
  inbound: InboundEdges | undefined;
}

function KnownField({ field, node, def, inbound }: KnownProps) {
  const store = useEditorStore();
  const { describeNode } = useRunContext();
  const params = node.params;
  const inputs = useMemo(() => inputsFor(def, params), [def, params]);
  const spec = useMemo(() => planFields(def, params, inputs).find((f) => f.name === field.param), [def, params, inputs, field.param]);
  const formIssues = useFormIssues(def, params, inputs, inbound).byField.get(field.param);
  const nodeLabel = describeNode(node.id).label;
  const runMessages = useRunMessages(node.id, field.param, nodeLabel);
  const issues = useMemo(() => {
    const all = [...(formIssues ?? []).map((m) => `${nodeLabel}: ${m}`), ...runMessages];
    return all.length === 0 ? undefined : [...new Set(all)];
  }, [formIssues, runMessages, nodeLabel]);

  if (!spec) {
    return (
      <div className="field app-field app-field--unused">
        <span className="field-label">{field.label}</span>
        <p className="field-hint">Not used by {nodeLabel} with its current settings.</p>
      </div>
    );
  }
  // The author's label; no "as input" switch: the form fills the parameter, the graph wires it.
  const shown: FieldSpec = { ...spec, title: field.label };
  delete shown.port;
  const wire = spec.port ? inbound?.get(spec.port.name) : undefined;
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    const file = e.dataTransfer.files[0];
    if (!file) return;
    e.preventDefault();
    void putImageFile(file, (value) => store.setParam(node.id, field.param, value));
  };
  return (
    <div
      className={`app-field app-field--${field.kind}`}
      {...(field.kind === 'image' && !wire ? { onDragOver: (e: DragEvent) => e.preventDefault(), onDrop } : {})}
    >
      <FieldRow
        nodeId={node.id}
        nodeType={def.type}
        spec={shown}
        value={params[field.param]}
        params={params}
        issues={issues}
        wire={wire}
        asInput={false}
        idPrefix="app-"
      />
    </div>
  );
}

/** One field of the App view's form. */
export function AppInputField({ field }: { field: AppField }) {
  const store = useEditorStore();
  const node = useEditor((s) => s.index.nodeById.get(field.nodeId));
  const inbound = useEditor((s) => s.index.inbound.get(field.nodeId));
  const def = node ? store.registry.get(node.type) : undefined;
  if (!node || !def) return null; // appFields lists these as problems
  return <KnownField field={field} node={node} def={def} inbound={inbound} />;
}
