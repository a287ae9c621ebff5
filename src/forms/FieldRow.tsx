/**
 * One parameter in a node's form: its label, the control for its kind, the "as input" switch for
 * parameters a port can supply, "from <node>" when one does, and its problems underneath.
 */
import { memo, type ComponentType } from 'react';
import type { WorkflowEdge } from '../../workflow/schema';
import { useEditor, useEditorStore } from '../store/react';
import type { FieldSpec } from './field-plan';
import { NumberWidget, SelectWidget, SliderWidget, TextAreaWidget, TextWidget, ToggleWidget } from './widgets/basic';
import { ImageWidget } from './widgets/image';
import { TriggersWidget, WeightsWidget } from './widgets/records';
import { PromptWidget } from './widgets/prompt';
import { AssetWidget, ControlNetWidget, EngineWidget, LinesWidget, ModelWidget, ResolutionWidget, SeedWidget } from './widgets/special';
import type { SetOptions, WidgetProps } from './widgets/types';
import { fieldWidgetOverride } from './widget-overrides';
import { AppParamToggle } from '../appview/AppMarks';

const WIDGETS: Record<FieldSpec['widget'], ComponentType<WidgetProps>> = {
  text: TextWidget,
  textarea: TextAreaWidget,
  prompt: PromptWidget,
  number: NumberWidget,
  slider: SliderWidget,
  select: SelectWidget,
  toggle: ToggleWidget,
  resolution: ResolutionWidget,
  seed: SeedWidget,
  controlnet: ControlNetWidget,
  asset: AssetWidget,
  model: ModelWidget,
  weights: WeightsWidget,
  triggers: TriggersWidget,
  lines: LinesWidget,
  image: ImageWidget,
  engine: EngineWidget,
};

/** Controls whose label is not for a single input element get aria-labelledby instead. */
const GROUPS = new Set<FieldSpec['widget']>(['weights', 'triggers', 'image']);

export interface FieldRowProps {
  nodeId: string;
  nodeType: string;
  spec: FieldSpec;
  value: unknown;
  params: Readonly<Record<string, unknown>>;
  issues: readonly string[] | undefined;
  /** The wire into this parameter's port, when connected. */
  wire: WorkflowEdge | undefined;
  /** The port is shown (connected, or switched on). */
  asInput: boolean;
  /** Keeps element ids apart where a second form for the same node is drawn (the inspector's). */
  idPrefix?: string;
  /** Shows the "Add to app" switch (the inspector's form). */
  appMark?: boolean;
}

function SourceTitle({ nodeId }: { nodeId: string }) {
  const store = useEditorStore();
  const title = useEditor((s) => {
    const node = s.index.nodeById.get(nodeId);
    return node ? node.title || store.registry.get(node.type)?.title || node.type : nodeId;
  });
  return <>{title}</>;
}

export const FieldRow = memo(function FieldRow({ nodeId, nodeType, spec, value, params, issues, wire, asInput, idPrefix = '', appMark = false }: FieldRowProps) {
  const store = useEditorStore();
  const base = `${idPrefix}f-${nodeId}-${spec.name}`;
  const id = `${base}-input`;
  const labelId = `${base}-label`;
  const descriptionId = spec.description ? `${base}-desc` : undefined;
  const issuesId = issues && issues.length > 0 ? `${base}-issues` : undefined;
  const describedBy = [descriptionId, issuesId].filter(Boolean).join(' ') || undefined;
  const Widget = fieldWidgetOverride(nodeType, spec.name) ?? WIDGETS[spec.widget];
  const set = (next: unknown, options?: SetOptions) => store.setParam(nodeId, spec.name, next, options);
  const setMany = (values: Record<string, unknown>) => store.setParams(nodeId, values, { label: `change ${spec.title.toLowerCase()}` });
  const group = GROUPS.has(spec.widget);

  return (
    <div className={`field field-${spec.widget} ${issuesId ? 'has-issues' : ''}`} data-field={spec.name}>
      <div className="field-label-row">
        {group
          ? <span id={labelId} className="field-label" title={spec.description}>{spec.title}</span>
          : <label id={labelId} htmlFor={id} className="field-label" title={spec.description}>{spec.title}</label>}
        {spec.port && (
          <button
            type="button"
            className={`as-input ${asInput ? 'on' : ''}`}
            aria-pressed={asInput}
            aria-label={`${spec.title} as input`}
            title={wire ? 'Switch off to disconnect and use the field again' : `Show an input port for ${spec.title}`}
            onClick={() => store.setAsInput(nodeId, spec.port!.name, !asInput)}
          >
            as input
          </button>
        )}
        {appMark && <AppParamToggle nodeId={nodeId} param={spec.name} title={spec.title} />}
      </div>
      {descriptionId && <span id={descriptionId} className="visually-hidden">{spec.description}</span>}
      {wire
        ? (
          <p className="from-port" id={id} tabIndex={-1}>
            from <strong><SourceTitle nodeId={wire.source.node} /></strong>
            <span className="muted"> · {wire.source.port}</span>
          </p>
        )
        : (
          <div aria-labelledby={group ? labelId : undefined} role={group ? 'group' : undefined} className="field-control">
            <Widget id={id} nodeId={nodeId} spec={spec} value={value} params={params} set={set} setMany={setMany} describedBy={describedBy} invalid={issuesId !== undefined} />
          </div>
        )}
      {issuesId && (
        <ul id={issuesId} className="field-issues">
          {issues!.map((m) => <li key={m} className="field-issue">{m}</li>)}
        </ul>
      )}
    </div>
  );
});
