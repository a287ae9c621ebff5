/** The ComfyUI drop choice's place on the canvas: nothing until such a picture is dropped, then the dialog, fetched the first time. */
import { lazy, Suspense } from 'react';
import { useSmallStore } from '../ui/small-store';
import { pendingDropStore } from './pending-drop';

const DropChoice = lazy(() => import('./DropChoice'));

export function ComfyDropChoice() {
  const pending = useSmallStore(pendingDropStore);
  if (pending === null) return null;
  return <Suspense fallback={null}><DropChoice pending={pending} /></Suspense>;
}
