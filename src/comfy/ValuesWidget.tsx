/**
 * The fields a ComfyUI workflow node's author chose, on the node face, each with its own label and
 * the control for its kind: long text for a prompt, a number (a seed with Atelier's new-seed
 * button), a switch, a list of the server's choices when known. Clearing a field falls back to
 * the workflow's own value.
 */
import type { PipelineChoice } from '../../api/backends/comfyui/pipeline/discover';
import { inputInfo } from '../../api/backends/comfyui/pipeline/object-info';
import type { FieldSpec } from '../forms/field-plan';
import type { WidgetProps } from '../forms/widget-overrides';
import { NumberWidget, SelectWidget, TextAreaWidget, TextWidget, ToggleWidget } from '../forms/widgets/basic';
import { randomSeed } from '../forms/widgets/special';
import { useEditorStore } from '../store/react';
import { useSmallStore } from '../ui/small-store';
import { objectInfoStore } from './apply';
import { isSeedChoice } from './choices';
import { useComfyParams } from './PipelineWidget';

function isLongText(choice: PipelineChoice, value: unknown): boolean {
  return /prompt|text|t5xxl|clip_[lg]/.test(choice.targets[0]?.input ?? '') || (typeof value === 'string' && value.length > 60);
}

export function ValuesWidget({ id, nodeId }: WidgetProps) {
  const store = useEditorStore();
  const p = useComfyParams(nodeId);
  const info = useSmallStore(objectInfoStore);
  const fields = (p.fields ?? []).filter((c) => c.as === 'field');
  const values = p.values ?? {};
  const classOf = new Map((p.pipeline?.nodes ?? []).map((n) => [n.id, n.class_type]));
  if (fields.length === 0) {
    return <p className="muted" id={id}>{(p.pipeline?.nodes.length ?? 0) === 0 ? 'Choose a workflow file first.' : 'No fields chosen: pick inputs in the inspector (Inputs).'}</p>;
  }

  const setValue = (name: string, value: unknown, typing?: boolean) => {
    const next: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) if (k !== name) next[k] = v;
    if (value !== undefined) next[name] = value;
    store.setParams(nodeId, { values: next }, typing ? { groupKey: `param:${nodeId}:values:${name}` } : { label: `change ${name}` });
  };

  return (
    <div className="stack comfy-values" id={id}>
      {fields.map((c) => {
        const fieldId = `${id}-${c.name}`;
        const first = c.targets[0]!;
        const spec0 = inputInfo(info, classOf.get(first.node) ?? '', first.input);
        const spec: FieldSpec = {
          name: c.name, title: c.label, widget: 'text', section: 'main',
          ...(spec0?.min === undefined ? {} : { min: spec0.min }),
          ...(spec0?.max === undefined ? {} : { max: spec0.max }),
          ...(spec0?.type === 'INT' || isSeedChoice(c) ? { integer: true } : {}),
          ...(spec0?.choices === undefined ? {} : { options: spec0.choices.map((o) => ({ value: o, label: o })) }),
        };
        const value = values[c.name];
        const props = {
          id: fieldId, nodeId, spec, value, params: {}, describedBy: undefined, invalid: false,
          set: (v: unknown, o?: { typing?: boolean }) => setValue(c.name, v, o?.typing),
          setMany: () => undefined,
        };
        let control;
        if (c.kind === 'number') {
          control = isSeedChoice(c)
            ? (
              <div className="seed-row">
                <NumberWidget {...props} placeholder="seed" />
                <button type="button" className="icon-button" aria-label={`New random ${c.label.toLowerCase()}`} title="New random seed" onClick={() => setValue(c.name, randomSeed())}>⚄</button>
              </div>
            )
            : <NumberWidget {...props} />;
        } else if (c.kind === 'boolean') control = <ToggleWidget {...props} />;
        else if (c.kind === 'choice' && spec.options !== undefined) control = <SelectWidget {...props} />;
        else if (isLongText(c, value)) control = <TextAreaWidget {...props} rows={3} />;
        else control = <TextWidget {...props} />;
        return (
          <div key={c.name} className="field comfy-value" data-field={`values.${c.name}`}>
            <label className="field-label" htmlFor={fieldId}>{c.label}</label>
            {control}
          </div>
        );
      })}
    </div>
  );
}
