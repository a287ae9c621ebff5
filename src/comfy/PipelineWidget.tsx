/**
 * The ComfyUI workflow node's own controls, used in place of the generated ones (registered in
 * index.ts): the file chooser with where the workflow came from, the list of its inputs with the
 * author's choice for each (inputs-list.tsx), its outputs, and the chosen fields on the node face.
 * They read the node's params from the store: each needs more than its own parameter.
 */
import { useRef, useState } from 'react';
import type { ComfyWorkflowParams } from '../../nodes/comfy-workflow';
import type { WidgetProps } from '../forms/widget-overrides';
import { useEditor, useEditorStore } from '../store/react';
import { chooseForNode } from './apply';

/** What a person may choose: a JSON file (API or UI format) or a PNG ComfyUI saved. */
export const WORKFLOW_FILE_ACCEPT = '.json,application/json,.png,image/png';

/** The node's params as the store holds them (parsed on load, so the shape holds). */
export function useComfyParams(nodeId: string): Partial<ComfyWorkflowParams> {
  return useEditor((s) => s.index.nodeById.get(nodeId)?.params) as Partial<ComfyWorkflowParams> | undefined ?? {};
}

export function PipelineWidget({ id, nodeId, describedBy }: WidgetProps) {
  const store = useEditorStore();
  const p = useComfyParams(nodeId);
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const count = p.pipeline?.nodes.length ?? 0;
  return (
    <div className="stack comfy-pipeline" aria-describedby={describedBy}>
      <p className="comfy-pipeline__source" aria-live="polite">
        {busy ? 'Reading the workflow…'
          : count > 0 ? `${p.source ?? 'Workflow'} · ${count} ComfyUI node${count === 1 ? '' : 's'}`
            : 'No workflow yet: a ComfyUI JSON file (API or UI format) or a PNG ComfyUI saved'}
      </p>
      <div className="row">
        <button type="button" className="button small" id={id} disabled={busy} onClick={() => input.current?.click()}>
          Choose workflow file…
        </button>
      </div>
      <input
        ref={input}
        type="file"
        accept={WORKFLOW_FILE_ACCEPT}
        hidden
        aria-label="ComfyUI workflow file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          setBusy(true);
          void chooseForNode(store, nodeId, file).finally(() => setBusy(false));
        }}
      />
    </div>
  );
}

export function OutputsWidget({ nodeId }: WidgetProps) {
  const p = useComfyParams(nodeId);
  const outputs = p.outputs ?? [];
  const byId = new Map((p.pipeline?.nodes ?? []).map((n) => [n.id, n]));
  if (outputs.length === 0) return <p className="muted">None: the workflow has no SaveImage, PreviewImage or text-showing node.</p>;
  return (
    <ul className="comfy-outputs">
      {outputs.map((o) => {
        const node = byId.get(o.node);
        return (
          <li key={o.name}>
            <strong>{o.label}</strong>
            <span className="muted"> · {o.kind === 'images' ? 'image list' : 'text list'} from {node?.class_type ?? 'node'} (node {o.node})</span>
          </li>
        );
      })}
    </ul>
  );
}
