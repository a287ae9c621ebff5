/**
 * The fields a ComfyUI workflow node's author chose, on the node face, each with its own label and
 * the control for its kind: long text for a prompt, a number, a seed (the image nodes' seed widget
 * and its mode after each run, for a seed port too: the seed sent when no wire gives one), a switch, a list of the server's choices when known. Clearing a field falls back to
 * the workflow's own value.
 */
import type { PipelineChoice } from '../../api/backends/comfyui/pipeline/discover';
import { inputInfo } from '../../api/backends/comfyui/pipeline/object-info';
import type { FieldSpec } from '../forms/field-plan';
import type { WidgetProps } from '../forms/widget-overrides';
import { NumberWidget, SelectWidget, TextAreaWidget, TextWidget, ToggleWidget } from '../forms/widgets/basic';
import { SeedWidget } from '../forms/widgets/special';
import { SEED_MODES, type SeedMode } from '../../nodes/image-params';
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
  // A seed port shows its seed too: the one sent when no wire gives it, with its mode.
  const fields = (p.fields ?? []).filter((c) => c.as === 'field' || isSeedChoice(c));
  const modes = p.seed_modes ?? {};
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

  const setMode = (name: string, mode: SeedMode) => {
    const next: Record<string, SeedMode> = {};
    for (const [k, v] of Object.entries(modes)) if (k !== name) next[k] = v;
    if (mode !== 'fixed') next[name] = mode;
    store.setParams(nodeId, { seed_modes: next }, { label: `change ${name}: after each run` });
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
        if (isSeedChoice(c)) {
          // The image nodes' seed widget (a number, or Random: a new seed each run) and their modes.
          const mode = Object.hasOwn(modes, c.name) ? modes[c.name] : 'fixed';
          control = (
            <>
              <SeedWidget {...props} />
              <label className="inline-check">
                <span>After each run</span>
                <select
                  className="input select"
                  aria-label={`${c.label}: after each run`}
                  value={mode}
                  onChange={(e) => setMode(c.name, e.target.value as SeedMode)}
                >
                  {SEED_MODES.map((m) => <option key={m} value={m}>{m}</option>)}
                </select>
              </label>
            </>
          );
        } else if (c.kind === 'number') {
          control = <NumberWidget {...props} />;
        } else if (c.kind === 'boolean') control = <ToggleWidget {...props} />;
        else if (c.kind === 'choice' && spec.options !== undefined) control = <SelectWidget {...props} />;
        else if (isLongText(c, value)) control = <TextAreaWidget {...props} rows={3} />;
        else control = <TextWidget {...props} />;
        return (
          <div key={c.name} className="field comfy-value" data-field={`values.${c.name}`}>
            <label className="field-label" htmlFor={fieldId}>{c.label}{c.as === 'port' ? ' (when not wired)' : ''}</label>
            {control}
          </div>
        );
      })}
    </div>
  );
}
