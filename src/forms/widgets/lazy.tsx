/**
 * Widgets few forms show (the Image loader's picture, the LoRA and textual inversion rows under
 * "More options", the chat model suggestions): fetched when one is first drawn, not with every form.
 */
import { lazy, Suspense } from 'react';
import type { WidgetProps } from './types';

const Image = lazy(() => import('./image').then((m) => ({ default: m.ImageWidget })));
const Weights = lazy(() => import('./records').then((m) => ({ default: m.WeightsWidget })));
const Triggers = lazy(() => import('./records').then((m) => ({ default: m.TriggersWidget })));
const Suggestions = lazy(() => import('./model-options'));

export function ImageWidget(props: WidgetProps) {
  return <Suspense fallback={<div className="image-field" aria-busy="true" />}><Image {...props} /></Suspense>;
}

export function WeightsWidget(props: WidgetProps) {
  return <Suspense fallback={<div className="record-rows" aria-busy="true" />}><Weights {...props} /></Suspense>;
}

export function TriggersWidget(props: WidgetProps) {
  return <Suspense fallback={<div className="record-rows" aria-busy="true" />}><Triggers {...props} /></Suspense>;
}

/** The endpoint's chat models as a datalist for the input that names `listId`. */
export function ModelSuggestions({ listId }: { listId: string }) {
  return <Suspense fallback={null}><Suggestions listId={listId} /></Suspense>;
}
