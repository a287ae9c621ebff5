/**
 * The one node view, drawn from the node's definition: title, ports coloured by kind, the
 * generated form's main fields (the rest under "More options", and in the inspector), and the
 * run side's status and results. A collapsed node draws its title bar, ports and run status
 * only; its wires stay on its ports. It subscribes to its own node
 * only, so typing in one node re-renders that node alone; below LOW_ZOOM it draws the title and
 * ports only, which keeps a 500-node overview fast to pan.
 */
import { useStore, type NodeProps } from '@xyflow/react';
import { memo, useMemo, type DragEvent } from 'react';
import NodeForm from '../forms/NodeForm';
import { putImageFile } from '../files/commands';
import { isImageFile } from '../files/image-kind';
import { useEditor, useEditorStore } from '../store/react';
import type { CanvasNode } from './derive';
import { FanOutChoice } from './FanOutChoice';
import { listFlowOf } from './list-flow';
import { NodeHeader } from './NodeHeader';
import { PortColumns } from './PortRows';
import { inputsFor, outputsFor } from '../store/ports';
import { makesPictures } from './makes-pictures';
import { useRunSlots } from './run-slots';
import { useRemeasureOnChange } from './use-port-key';
import { shownInputs, shownOutputs } from './shown-ports';
import { isCompactNode } from './zoom';
import { isComponentNode } from '../../nodes/component-node';
import { ComponentActions } from '../components/ComponentActions';
import { useNodeType } from '../components/use-node-type';

const NO_INPUTS: readonly never[] = [];

function hasFiles(e: DragEvent): boolean {
  return [...e.dataTransfer.types].includes('Files');
}

function NodeViewImpl({ id, selected }: NodeProps<CanvasNode>) {
  const store = useEditorStore();
  const node = useEditor((s) => s.index.nodeById.get(id));
  const inbound = useEditor((s) => s.index.inbound.get(id));
  const outbound = useEditor((s) => s.index.outbound.get(id));
  const asInput = useEditor((s) => s.asInput.get(id));
  const compact = useStore(useMemo(() => isCompactNode(id), [id]));
  // One string, so the node re-renders only when its own list inputs change or it starts or
  // stops running once per item ("+" first when it does).
  const flow = useEditor((s) => {
    const lists = listFlowOf(s.view, store.registry);
    return `${lists.fanning.has(id) ? '+' : ''}${lists.splitting.get(id)?.join('\n') ?? ''}`;
  });
  const fans = flow.startsWith('+');
  const splitting = fans ? flow.slice(1) : flow;
  const { NodeRunStatus, NodeResults } = useRunSlots();
  // Inside an opened component, a node's run state is kept under its id through the instances.
  const runKey = useEditor((s) => (s.scope.length === 0 ? id : `${s.scope.map((l) => l.instanceId).join('/')}/${id}`));
  const stage = useEditor((s) => makesPictures(s.index, store.registry, id));

  const def = useNodeType(node);
  const inputs = def && node ? inputsFor(def, node.params) : NO_INPUTS;
  const shownIn = useMemo(() => shownInputs(inputs, inbound, asInput), [inputs, inbound, asInput]);
  const shownOut = useMemo(
    () => shownOutputs(def && node ? outputsFor(def, node.params) : NO_INPUTS, new Set(outbound?.map((e) => e.source.port) ?? [])),
    [def, node, outbound],
  );
  // Handles appear and disappear with "as input" and Text placeholders: React Flow must re-measure.
  const portKey = shownIn.map((p) => p.name).join(',');
  useRemeasureOnChange(id, portKey);

  if (!node || !def) return null;
  const typeTitle = def.title;
  const title = node.title || typeTitle;
  const acceptsImages = def.type === 'image-loader';
  const collapsed = node.collapsed === true;
  const full = !compact && !collapsed;

  return (
    <div
      className={`atelier-node cat-${def.category} ${selected ? 'selected' : ''} ${compact ? 'compact' : ''} ${collapsed ? 'collapsed' : ''} ${node.bypass ? 'bypassed' : ''}`}
      data-node-type={node.type}
      onDragOver={acceptsImages ? (e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.stopPropagation();
        e.dataTransfer.dropEffect = 'copy';
      } : undefined}
      onDrop={acceptsImages ? (e) => {
        const file = [...e.dataTransfer.files].find(isImageFile);
        if (!file) return;
        e.preventDefault();
        e.stopPropagation();
        void putImageFile(file, (value) => store.setParam(id, 'image', value));
      } : undefined}
    >
      <NodeHeader nodeId={id} title={title} typeTitle={typeTitle} category={def.category} bypassed={node.bypass === true} collapsed={collapsed} compact={compact} />
      <PortColumns inputs={shownIn} outputs={shownOut} compact={compact} />
      {full && splitting.includes('\n') && (
        <FanOutChoice nodeId={id} title={title} mode={node.fanOut ?? 'zip'} lists={splitting.split('\n').flatMap((name) => inputs.filter((p) => p.name === name))} />
      )}
      {full && isComponentNode(node) && <ComponentActions nodeId={id} title={title} />}
      {full && (
        <NodeForm nodeId={id} def={def} params={node.params} inputs={inputs} inbound={inbound} asInput={asInput} />
      )}
      {(NodeRunStatus || NodeResults) && (
        <div className="node-run">
          {NodeRunStatus && <NodeRunStatus nodeId={runKey} stage={full && stage} fans={fans} />}
          {full && NodeResults && <NodeResults nodeId={runKey} stage={stage} />}
        </div>
      )}
    </div>
  );
}

export const NodeView = memo(NodeViewImpl, (a, b) => a.id === b.id && a.selected === b.selected);
