/**
 * The canvas: React Flow, controlled by the store. Nodes and edges are derived from the document;
 * React Flow's changes come back as store actions (a drag is shown live and committed as one
 * step at its end; selection and measured sizes never enter the document).
 */
import {
  Background, BackgroundVariant, Controls, ReactFlow, useStore, useStoreApi, type EdgeChange, type NodeChange,
  type Viewport,
} from '@xyflow/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { openWorkflowFile, readImageFile } from '../files/commands';
import { exportCheckStore } from '../files/export-check-store';
import { isImageFile } from '../files/image-kind';
import { tabConflictStore } from '../files/tab-sync';
import { useEditor, useEditorStore } from '../store/react';
import type { XY } from '../store/state';
import type { Workflow } from '../../workflow/schema';
import { useSmallStore } from '../ui/small-store';
import { toast } from '../ui/toast';
import { openPalette, uiStore } from '../ui/ui-state';
import { itemOf } from '../store/frames';
import { CanvasTools, minimapStore } from './CanvasTools';
import { useConnectHandlers } from './connect-handlers';
import { ConnectionHint } from './ConnectionHint';
import { createDeriver, type CanvasEdge, type CanvasNode, type Size } from './derive';
import { createFrameDeriver, type FrameNode } from './derive-frames';
import { createSizeBook } from './size-book';
import { estimateHandles, estimateNodeSize } from './estimate-size';
import { ExportCheckDialog } from '../files/ExportCheckDialog';
import { ComfyDropChoice } from '../comfy/DropChoiceHost';
import { pendingDropStore } from '../comfy/pending-drop';
import { TabConflictBanner } from '../files/TabConflictBanner';
import { FrameView } from './FrameView';
import { NoteView } from './NoteView';
import PaletteList from './Palette';
import { PaletteFrame } from './PaletteFrame';
import { UnknownNodeView } from './UnknownNodeView';
import { Breadcrumb } from '../components/Breadcrumb';
import { ComponentDialogs } from '../components/ComponentDialogs';
import { openMakeComponent } from '../components/dialog-state';
import { isComponentNode } from '../../nodes/component-node';
import { NodeView } from './NodeView';
import './canvas-extras.css';
import { PortLegend } from './PortLegend';
import { MOD } from './mod-key';
import { autoFit } from './auto-fit';
import { announceSelection } from './keyboard-wire';
import { useFollowPlaced } from './use-follow-placed';
import { useReveal } from './use-reveal';
import { useShortcuts } from './use-shortcuts';
import { isLowZoom } from './zoom';
import { estimateFit, MIN_ZOOM, nearlySameView, OPENING_FIT_OPTIONS, readableView, sizeOrNominal } from './fit';
import { keyedRecord } from '../../workflow/keys';

/** The minimap (off by default) loads when it is first shown. */
const Minimap = lazy(() => import('./Minimap').then((m) => ({ default: m.Minimap })));


const nodeTypes = { atelier: NodeView, unknown: UnknownNodeView, note: NoteView, frame: FrameView };
type AnyNode = CanvasNode | FrameNode;
const MULTI_SELECT_KEYS = ['Shift', 'Meta', 'Control'];
const PRO_OPTIONS = { hideAttribution: true };
const ARIA_LABELS = { 'node.a11yDescription.default': 'Press Enter or Space to select the node; arrow keys move it; Delete removes it.' };
/** How long after a load the view keeps fitting itself to nodes as they get their sizes. */
const AUTO_FIT_MS = 1500;
const FRESH_VIEW: Viewport = { x: 0, y: 0, zoom: 1 };

/** Nothing on the canvas: no node, note or group (New). */
function isEmpty(doc: Workflow): boolean {
  return doc.nodes.length === 0 && !doc.notes?.length && !doc.groups?.length;
}

/**
 * Whether a node is drawn short of its full size: as the overview draws it (see isCompactNode),
 * or still waiting for part of itself (its form's code).
 */
function notFull(id: string): boolean {
  return document.querySelector(`.react-flow__node[data-id="${CSS.escape(id)}"] :is(.atelier-node.compact, [aria-busy="true"])`) !== null;
}

function failedToRead(file: File): (error: unknown) => void {
  return (error) => toast(`'${file.name}' could not be read: ${error instanceof Error ? error.message : String(error)}`, 'error');
}

function hasFiles(e: DragEvent): boolean {
  return [...e.dataTransfer.types].includes('Files');
}

export interface CanvasProps {
  /** Where the view was when the page was last left (from the autosave). */
  initialViewport?: Viewport;
  onViewportChange?: (viewport: Viewport) => void;
}

export function Canvas({ initialViewport, onViewportChange }: CanvasProps) {
  const store = useEditorStore();
  // The graph shown: the workflow, or the component opened in it.
  const doc = useEditor((s) => s.view);
  const selection = useEditor((s) => s.selection);
  useEffect(() => announceSelection(store), [store]);
  const drag = useEditor((s) => s.drag);
  const resize = useEditor((s) => s.resize);
  const index = useEditor((s) => s.index);
  const palette = useSmallStore(uiStore).palette;
  const minimap = useSmallStore(minimapStore);
  const exportCheck = useSmallStore(exportCheckStore);
  const tabConflict = useSmallStore(tabConflictStore);
  const overview = useStore(isLowZoom);
  const flow = useStoreApi<AnyNode, CanvasEdge>();
  const root = useRef<HTMLDivElement>(null);
  const [measured, setMeasured] = useState<ReadonlyMap<string, Size>>(() => new Map());
  const deriver = useMemo(() => createDeriver(store.registry), [store]);
  const frameDeriver = useMemo(() => createFrameDeriver(), []);
  const nodes = useMemo<AnyNode[]>(() => {
    const state = store.getState();
    // A group holds its members as drawn; one not drawn yet (out of view since it opened) as estimated.
    const frames = frameDeriver(doc, selection, drag, resize, { get: (id) => measured.get(id) ?? estimateNodeSize(state, store.registry, id) });
    const graph = deriver.nodes(doc, selection, drag, measured, (id) => {
      const size = estimateNodeSize(state, store.registry, id);
      const handles = size && estimateHandles(state, store.registry, id, size.width);
      return size && handles ? { ...size, handles } : undefined;
    });
    // Frames first: they are drawn behind everything else.
    return frames.groups.length + frames.notes.length === 0 ? graph : [...frames.groups, ...graph, ...frames.notes];
  }, [deriver, frameDeriver, doc, selection, drag, resize, measured, store]);
  const edges = useMemo(() => deriver.edges(doc, selection, index.nodeById), [deriver, doc, selection, index]);
  const empty = isEmpty(doc);
  const connectHandlers = useConnectHandlers(store);
  // Sizes at full zoom, for auto-layout and frames: the overview draws nodes smaller.
  const sizeBook = useMemo(() => createSizeBook((id) => estimateNodeSize(store.getState(), store.registry, id)), [store]);
  /** Node heights drawn in full (form loaded), by id: what a node grows from. */
  const settled = useRef(new Map<string, Size>());
  const overviewRef = useRef(overview);
  overviewRef.current = overview;
  const rf = useShortcuts(store, sizeBook);
  useReveal(store);
  useFollowPlaced(store);
  useEffect(() => {
    store.setMeasure((id, typeHint) => {
      if (itemOf(id).kind !== 'node') return undefined;
      // A node drawn in full right now is measured as it is (its box, unscaled by the zoom).
      const drawn = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
      if (drawn && drawn.offsetHeight > 0 && !notFull(id)) return { width: drawn.offsetWidth, height: drawn.offsetHeight };
      const type = store.getState().index.nodeById.get(id)?.type ?? typeHint;
      return type === undefined ? undefined : sizeBook.size(id, type);
    });
  }, [store, sizeBook]);

  // Fit the workflow once its nodes have their real sizes (forms arrive a moment after the
  // first paint): for a moment after start (without a saved view) and after each Open. Any
  // touch of the canvas ends it, so it never fights the user (or the zoom buttons).
  const loads = useEditor((s) => s.loads);
  const started = useRef(false);
  if (!started.current) {
    started.current = true;
    if (initialViewport === undefined) autoFit.start(AUTO_FIT_MS);
    else autoFit.stop();
  }
  const stopAutoFit = autoFit.stop;
  useEffect(() => {
    let seen = store.getState().loads;
    // Runs inside store.load(), before React draws the new nodes: the view is moved to where
    // they will be first, so a big file is drawn once at its final zoom, not at the old one
    // and then again. The fit is refined once the nodes are measured.
    return store.subscribe(() => {
      const { loads: now, view: doc } = store.getState();
      if (now === seen) return;
      seen = now;
      sizeBook.forgetNodes();
      settled.current.clear();
      autoFit.start(AUTO_FIT_MS);
      const rect = document.querySelector('.canvas')?.getBoundingClientRect();
      if (rect && doc.nodes.length > 0) void rf.setViewport(estimateFit(doc.nodes, rect.width, rect.height));
      // An empty workflow (New) starts on a fresh canvas at 100%, not at the last file's zoom.
      else if (isEmpty(doc)) void rf.setViewport(FRESH_VIEW);
    });
  }, [store, rf, sizeBook]);
  useEffect(() => {
    if (!autoFit.active() || measured.size === 0) return;
    const timer = setTimeout(() => {
      if (!autoFit.active()) return;
      // fitView's own rule (measured nodes, padded), but the view moves only if that shows: a
      // 500-node graph fitted before it was drawn is usually right already, and moving the view
      // costs every node and wire a look.
      // Every node counts, drawn or not (only those in view are drawn): measured sizes where there
      // are some, nominal ones elsewhere, so the view does not chase the nodes it brings in.
      const { nodeLookup, width, height, transform: [x, y, zoom] } = flow.getState();
      const all = [...nodeLookup.values()].filter((n) => !n.hidden);
      if (!all.some((n) => n.measured.width && n.measured.height)) return;
      const target = readableView(all.map((n) => ({ ...n.internals.positionAbsolute, ...sizeOrNominal(n.measured) })), width, height);
      if (!nearlySameView(target, { x, y, zoom })) void rf.setViewport(target);
    }, 60);
    return () => clearTimeout(timer);
  }, [measured, loads, rf, flow]);

  const onNodesChange = useCallback((changes: NodeChange<AnyNode>[]) => {
    const { selection: current, resize: resizing, index: graph } = store.getState();
    let selected: Set<string> | undefined;
    // By canvas id, which is a node's id from the file: records without a prototype.
    const dragging = keyedRecord<XY>();
    const finished = keyedRecord<XY>();
    const sizes: [string, Size][] = [];
    const grew: [string, Size][] = [];
    for (const change of changes) {
      if (change.type === 'select') {
        selected ??= new Set(current.nodes);
        if (change.selected) selected.add(change.id);
        else selected.delete(change.id);
      } else if (change.type === 'position' && change.position) {
        // A note or group being resized moves through its resize, not as a drag.
        if (resizing?.id === change.id) continue;
        (change.dragging ? dragging : finished)[change.id] = change.position;
      } else if (change.type === 'dimensions' && change.dimensions) {
        // Notes and groups have the size the document gives them.
        if (itemOf(change.id).kind !== 'node') continue;
        const size = { width: change.dimensions.width, height: change.dimensions.height };
        sizes.push([change.id, size]);
        const type = graph.nodeById.get(change.id)?.type;
        // Sizes, and growth, count from nodes drawn in full (form loaded, not the overview's).
        if (type !== undefined && !overviewRef.current && !notFull(change.id)) {
          sizeBook.record(change.id, type, size);
          const before = settled.current.get(change.id);
          settled.current.set(change.id, size);
          if (before && size.height > before.height + 1 && !autoFit.active()) grew.push([change.id, before]);
        }
      }
      // 'remove' never arrives: deleteKeyCode is off and deletion goes through the store.
    }
    if (selected) store.setSelection({ nodes: selected, edges: current.edges });
    if (Object.keys(dragging).length > 0) store.dragNodes(dragging);
    if (Object.keys(finished).length > 0) {
      if (store.getState().drag) {
        store.dragNodes(finished);
        store.endDrag();
      } else {
        // Arrow keys move selected nodes one press at a time; a burst of presses is one step.
        store.moveNodes(finished, { groupKey: 'move:keys' });
      }
    }
    // A node that grew (results, a field opened) never covers its neighbours: they make room.
    for (const [id, before] of grew) store.makeRoom(id, before);
    if (sizes.length > 0) {
      setMeasured((before) => {
        const next = new Map(before);
        for (const [id, size] of sizes) next.set(id, size);
        return next;
      });
    }
  }, [store, sizeBook]);

  const onEdgesChange = useCallback((changes: EdgeChange<CanvasEdge>[]) => {
    const { selection: current } = store.getState();
    let selected: Set<string> | undefined;
    for (const change of changes) {
      if (change.type !== 'select') continue;
      selected ??= new Set(current.edges);
      if (change.selected) selected.add(change.id);
      else selected.delete(change.id);
    }
    if (selected) store.setSelection({ nodes: current.nodes, edges: selected });
  }, [store]);

  const onDrop = useCallback((event: DragEvent<HTMLDivElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    const files = [...event.dataTransfer.files];
    const at = rf.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    const json = files.find((f) => f.name.toLowerCase().endsWith('.json') || f.type === 'application/json');
    if (json) {
      // A ComfyUI workflow becomes a ComfyUI workflow node where it was dropped; anything else is opened.
      void Promise.all([json.text(), import('../comfy/drop')]).then(async ([text, { isComfyWorkflowJson }]) => {
        if (!isComfyWorkflowJson(text)) await openWorkflowFile(store, json);
        else await import('../comfy/apply').then(({ addWorkflowNode }) => addWorkflowNode(store, json, at));
      }).catch(failedToRead(json));
      return;
    }
    const image = files.find(isImageFile);
    if (!image) {
      toast(`Drop a workflow (.json) or an image; '${files[0]?.name ?? 'this'}' is neither`, 'warning');
      return;
    }
    const addLoader = () => readImageFile(image).then(
      (loaded) => store.addNode('image-loader', at, { params: { image: loaded }, free: true }),
      (error: unknown) => toast(error instanceof Error ? error.message : String(error), 'error'),
    );
    // An image Atelier made carries its workflow, which opens; any other image becomes an Image loader.
    const restore = { registry: store.registry, restore: (workflow: Workflow) => store.load(workflow, { record: true }) };
    const asPicture = () => void import('../history/restore').then(({ dropImage }) => dropImage(restore, image, () => void addLoader()));
    // A picture ComfyUI saved (and Atelier did not) carries its workflow: the person chooses what it is for.
    void Promise.all([image.arrayBuffer(), import('../comfy/drop')]).then(([bytes, { carriesComfyOnly }]) => {
      if (carriesComfyOnly(new Uint8Array(bytes))) pendingDropStore.set({ file: image, at, asPicture: () => void addLoader() });
      else asPicture();
    }).catch(failedToRead(image));
  }, [store, rf]);

  return (
    <div
      ref={root}
      className={`canvas ${overview ? 'overview' : ''}`}
      onPointerDownCapture={stopAutoFit}
      onWheelCapture={stopAutoFit}
      onKeyDownCapture={stopAutoFit}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDrop={onDrop}
    >
      <ReactFlow<AnyNode, CanvasEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStop={() => store.endDrag()}
        onNodeDoubleClick={(_event, node) => {
          const type = node.data.workflowType;
          if (typeof type === 'string' && isComponentNode({ type })) void store.openComponent(node.id);
        }}
        onSelectionContextMenu={(event) => {
          event.preventDefault();
          openMakeComponent(store);
        }}
        onSelectionDragStop={() => store.endDrag()}
        {...connectHandlers}
        onPaneClick={() => uiStore.get().palette && uiStore.set((s) => ({ ...s, palette: null }))}
        onDoubleClick={(event) => {
          if (!(event.target instanceof Element) || !event.target.classList.contains('react-flow__pane')) return;
          const screen = { x: event.clientX, y: event.clientY };
          openPalette({ screen, flow: rf.screenToFlowPosition(screen) });
        }}
        onMoveStart={(event) => {
          if (event) stopAutoFit();
          // While the view moves, the graph is one layer that is moved, not repainted each frame.
          root.current?.classList.add('moving');
        }}
        onMoveEnd={(_event, viewport) => {
          root.current?.classList.remove('moving');
          onViewportChange?.(viewport);
        }}
        {...(initialViewport ? { defaultViewport: initialViewport } : { fitView: true })}
        fitViewOptions={OPENING_FIT_OPTIONS}
        minZoom={MIN_ZOOM}
        maxZoom={2.5}
        onlyRenderVisibleElements
        deleteKeyCode={null}
        multiSelectionKeyCode={MULTI_SELECT_KEYS}
        zoomOnDoubleClick={false}
        edgesReconnectable
        colorMode="dark"
        proOptions={PRO_OPTIONS}
        ariaLabelConfig={ARIA_LABELS}
      >
        {/* The dots scale with the zoom: in the overview they would be a sub-pixel haze that costs a
            full repaint on every frame of a pan, so they are left out there. */}
        {!overview && <Background variant={BackgroundVariant.Dots} gap={24} size={1.2} />}
        <Controls showInteractive={false} showFitView={false} position="bottom-left" />
        <ConnectionHint />
        <PortLegend />
        <CanvasTools sizes={sizeBook} />
        <Breadcrumb />
        {minimap && <Suspense fallback={null}><Minimap nodes={nodes} sizes={measured} /></Suspense>}
      </ReactFlow>
      {empty && <p className="canvas-empty-hint">Double-click or press {MOD}+K to add a node</p>}
      {palette && <PaletteFrame request={palette} List={PaletteList} />}
      {exportCheck && <ExportCheckDialog />}
      <ComfyDropChoice />
      <ComponentDialogs />
      {tabConflict && <TabConflictBanner />}
    </div>
  );
}
