/**
 * The component dialogs' place on the canvas: nothing until one is opened, then the dialog,
 * fetched the first time (Make component, Edit face).
 */
import { lazy, Suspense } from 'react';
import { useSmallStore } from '../ui/small-store';
import { componentDialogStore } from './dialog-state';

const MakeComponentDialog = lazy(() => import('./MakeComponentDialog'));
const EditFaceDialog = lazy(() => import('./EditFaceDialog'));

export function ComponentDialogs() {
  const open = useSmallStore(componentDialogStore);
  if (open === null) return null;
  const close = () => componentDialogStore.set(null);
  return (
    <Suspense fallback={null}>
      {open.kind === 'make'
        ? <MakeComponentDialog nodes={open.nodes} onClose={close} />
        : <EditFaceDialog componentId={open.componentId} onClose={close} />}
    </Suspense>
  );
}
