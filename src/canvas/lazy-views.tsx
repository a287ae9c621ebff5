/**
 * Parts of the canvas most workflows never show at first (notes, groups, the minimap, the
 * credential check, the two-tabs question, the node palette, a node of a type this build does not
 * know): fetched the first time they are drawn, not with the first paint.
 */
import type { NodeProps } from '@xyflow/react';
import { lazy, Suspense, type ComponentProps } from 'react';
import type { CanvasNode } from './derive';
import type { FrameNode } from './derive-frames';
import { PaletteFrame } from './PaletteFrame';
import type { PaletteRequest } from '../ui/ui-state';

const NoteViewLazy = lazy(() => import('./NoteView').then((m) => ({ default: m.NoteView })));
const FrameViewLazy = lazy(() => import('./FrameView').then((m) => ({ default: m.FrameView })));
const MinimapLazy = lazy(() => import('./Minimap').then((m) => ({ default: m.Minimap })));
const ExportCheckLazy = lazy(() => import('../files/ExportCheckDialog').then((m) => ({ default: m.ExportCheckDialog })));
const TabConflictLazy = lazy(() => import('../files/TabConflictBanner').then((m) => ({ default: m.TabConflictBanner })));
const PaletteLazy = lazy(() => import('./Palette'));
const UnknownNodeLazy = lazy(() => import('./UnknownNodeView').then((m) => ({ default: m.UnknownNodeView })));

export function NoteNode(props: NodeProps<FrameNode>) {
  return <Suspense fallback={<div className="note" />}><NoteViewLazy {...props} /></Suspense>;
}

export function FrameNodeView(props: NodeProps<FrameNode>) {
  return <Suspense fallback={<div className="frame" />}><FrameViewLazy {...props} /></Suspense>;
}

export function LazyMinimap(props: ComponentProps<typeof MinimapLazy>) {
  return <Suspense fallback={null}><MinimapLazy {...props} /></Suspense>;
}

export function LazyExportCheck() {
  return <Suspense fallback={null}><ExportCheckLazy /></Suspense>;
}

export function LazyTabConflict() {
  return <Suspense fallback={null}><TabConflictLazy /></Suspense>;
}

/** The palette's box and search field at once; its list when fetched (PaletteFrame.tsx). */
export function LazyPalette({ request }: { request: PaletteRequest }) {
  return <PaletteFrame request={request} List={PaletteLazy} />;
}

export function UnknownNode(props: NodeProps<CanvasNode>) {
  return <Suspense fallback={<div className="atelier-node unknown" />}><UnknownNodeLazy {...props} /></Suspense>;
}
