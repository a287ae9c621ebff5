/**
 * The inspector's list of a ComfyUI workflow's inputs, grouped under each ComfyUI node's title
 * (`_meta.title`, else its class) with each input's ComfyUI type, and for each the author's
 * choice: hidden, a field on the node face, or a port; a chosen one gets its own label.
 */
import { useMemo } from 'react';
import { choiceKind, discoverInputs } from '../../api/backends/comfyui/pipeline/discover';
import { fromStored, type PipelineGraph, type StoredPipeline } from '../../api/backends/comfyui/pipeline/model';
import type { ComfyWorkflowParams } from '../../nodes/comfy-workflow';
import type { WidgetProps } from '../forms/widget-overrides';
import { useEditorStore } from '../store/react';
import { useSmallStore } from '../ui/small-store';
import { objectInfoStore } from './apply';
import { choiceOf, choicesFor, relabelChoice, setInputChoice, type InputChoice } from './choices';
import { useComfyParams } from './PipelineWidget';

const CHOICE_LABEL: Record<InputChoice, string> = { hidden: 'Hidden', field: 'Field on the node', port: 'Port' };

function graphOf(pipeline: StoredPipeline | undefined): PipelineGraph | undefined {
  if (pipeline === undefined || pipeline.nodes.length === 0) return undefined;
  try {
    return fromStored(pipeline);
  } catch {
    // The node's problems say what is wrong with the workflow; there is nothing to list.
    return undefined;
  }
}

/** Shortens a value for the list: the workflow's own value, shown beside "Hidden". */
function shortValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

export function InputsWidget({ id, nodeId }: WidgetProps) {
  const store = useEditorStore();
  const p = useComfyParams(nodeId);
  const info = useSmallStore(objectInfoStore);
  const graph = useMemo(() => graphOf(p.pipeline), [p.pipeline]);
  const groups = useMemo(() => (graph === undefined ? [] : discoverInputs(graph, info)), [graph, info]);
  if (graph === undefined) return <p className="muted" id={id}>Choose a workflow file to see its inputs.</p>;
  const full = { fields: p.fields ?? [], values: p.values ?? {}, pipeline: p.pipeline!, hash: p.hash ?? '', outputs: p.outputs ?? [], seed_modes: p.seed_modes ?? {} } satisfies ComfyWorkflowParams;

  return (
    <div className="comfy-inputs" id={id}>
      {groups.filter((g) => g.inputs.length > 0).map((g) => (
        <fieldset key={g.node} className="comfy-inputs__node">
          <legend>{g.title}{g.title !== g.classType && <span className="muted"> · {g.classType}</span>}</legend>
          {g.inputs.map((i) => {
            const target = { node: i.node, input: i.input };
            const chosen = choiceOf(full.fields, target);
            const offered = choicesFor(chosen?.kind ?? choiceKind(graph, target, info));
            if (chosen !== undefined && !offered.includes(chosen.as)) offered.push(chosen.as);
            const name = `${g.title}: ${i.input}`;
            return (
              <div key={i.input} className="comfy-input" data-input={i.input}>
                <span className="comfy-input__name">{i.input}</span>
                <span className="comfy-input__type muted" title={i.known ? "ComfyUI's type (from the server)" : 'type read from the value'}>{i.type}</span>
                <select
                  className="input select"
                  aria-label={`${name} as`}
                  value={chosen?.as ?? 'hidden'}
                  onChange={(e) => store.setParams(nodeId, setInputChoice(full, graph, target, e.target.value as InputChoice, info), { label: `${name}: ${e.target.value}` })}
                >
                  {offered.map((o) => <option key={o} value={o}>{CHOICE_LABEL[o]}</option>)}
                </select>
                {chosen === undefined
                  ? <span className="comfy-input__value muted" title={typeof i.value === 'string' ? i.value : undefined}>{shortValue(i.value)}</span>
                  : (
                    <input
                      className="input comfy-input__label"
                      type="text"
                      aria-label={`${name} label`}
                      value={chosen.label}
                      maxLength={200}
                      onChange={(e) => store.setParams(nodeId, relabelChoice(full, chosen.name, e.target.value), { groupKey: `param:${nodeId}:label:${chosen.name}` })}
                    />
                  )}
              </div>
            );
          })}
        </fieldset>
      ))}
    </div>
  );
}
