/**
 * A node's parameter form, generated from its definition (field-plan.ts), with the problems a run
 * would report shown under their fields (found by the run worker: use-checks.ts). On the node,
 * the fields beyond its main ones sit under "More options", rendered only when opened; a focus
 * request for one of them opens it. The inspector draws the same form with every field in view.
 */
import { memo, useEffect, useMemo, useState } from 'react';
import type { AnyNodeDefinition, PortSpec } from '../../nodes/types';
import type { InboundEdges } from '../store/graph-index';
import { useEditor } from '../store/react';
import { planFields, type FieldSpec } from './field-plan';
import { FieldRow } from './FieldRow';
import { formFocusHandlers, useHeldWhileTwinFocused } from './twin-focus';
import { useFormIssues } from './use-checks';

export interface NodeFormProps {
  nodeId: string;
  def: AnyNodeDefinition;
  params: Record<string, unknown>;
  inputs: readonly PortSpec[];
  inbound: InboundEdges | undefined;
  asInput: ReadonlySet<string> | undefined;
  /** Every field in view, none under "More options" (the inspector); its element ids get a prefix. */
  all?: boolean;
}

const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});
/** Widgets that read other parameters than their own. */
const NEEDS_PARAMS = new Set<FieldSpec['widget']>(['resolution', 'controlnet', 'engine']);

const NodeForm = memo(function NodeForm({ nodeId, def, params: liveParams, inputs, inbound, asInput, all = false }: NodeFormProps) {
  const place = all ? 'inspector' : 'node';
  const params = useHeldWhileTwinFocused(nodeId, place, liveParams);
  const fields = useMemo(() => planFields(def, params, inputs), [def, params, inputs]);
  const issues = useFormIssues(def, params, inputs, inbound);
  const focusField = useEditor((s) => (s.focus?.nodeId === nodeId ? s.focus.field : undefined));
  const focusSeq = useEditor((s) => (s.focus?.nodeId === nodeId ? s.focus.seq : 0));
  const [moreOpen, setMoreOpen] = useState(false);

  const main = all ? fields : fields.filter((f) => f.section === 'main');
  const more = all ? [] : fields.filter((f) => f.section === 'more');
  useEffect(() => {
    if (!all && focusField !== undefined && more.some((f) => f.name === focusField)) setMoreOpen(true);
    // Only a new focus request opens the section; the fields list changes with every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusSeq]);

  const shown = new Set(fields.map((f) => f.name));
  const elsewhere = [...issues.byField].filter(([name]) => !shown.has(name));
  const moreIssues = more.reduce((n, f) => n + (issues.byField.get(f.name)?.length ?? 0), 0);

  const row = (spec: FieldSpec) => {
    const port = spec.port;
    const wire = port ? inbound?.get(port.name) : undefined;
    return (
      <FieldRow
        key={spec.name}
        nodeId={nodeId}
        nodeType={def.type}
        spec={spec}
        value={params[spec.name]}
        params={NEEDS_PARAMS.has(spec.widget) ? params : NO_PARAMS}
        issues={issues.byField.get(spec.name)}
        wire={wire}
        asInput={port !== undefined && (wire !== undefined || asInput?.has(port.name) === true)}
        {...(all ? { idPrefix: 'inspector-', appMark: true } : {})}
      />
    );
  };

  return (
    <div className="node-form nodrag" {...formFocusHandlers(nodeId, place)}>
      {(issues.general.length > 0 || elsewhere.length > 0) && (
        <ul className="node-issues" aria-label="Problems with this node">
          {issues.general.map((m) => <li key={m}>{m}</li>)}
          {elsewhere.flatMap(([name, list]) => list.map((m) => <li key={`${name}:${m}`}>{name}: {m}</li>))}
        </ul>
      )}
      {main.map(row)}
      {more.length > 0 && (
        <details className="more" open={moreOpen} onToggle={(e) => setMoreOpen(e.currentTarget.open)}>
          <summary>
            More options
            {moreIssues > 0 && <span className="badge-issue" aria-label={`${moreIssues} problems`}>{moreIssues}</span>}
          </summary>
          {moreOpen && more.map(row)}
        </details>
      )}
    </div>
  );
});

export default NodeForm;
