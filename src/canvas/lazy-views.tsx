/**
 * Parts of the canvas most workflows never show (notes, groups, the minimap, the credential
 * check, the two-tabs question): fetched the first time they are drawn, not with the first paint.
 */
import type { NodeProps } from '@xyflow/react';
import { lazy, Suspense, type ComponentProps } from 'react';
import type { FrameNode } from './derive-frames';

const NoteViewLazy = lazy(() => import('./NoteView').then((m) => ({ default: m.NoteView })));
const FrameViewLazy = lazy(() => import('./FrameView').then((m) => ({ default: m.FrameView })));
const MinimapLazy = lazy(() => import('./Minimap').then((m) => ({ default: m.Minimap })));
const ExportCheckLazy = lazy(() => import('../files/ExportCheckDialog').then((m) => ({ default: m.ExportCheckDialog })));
const TabConflictLazy = lazy(() => import('../files/TabConflictBanner').then((m) => ({ default: m.TabConflictBanner })));

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
