/**
 * A field control whose code loads when a form first draws it, for controls only some workflows
 * need (the ComfyUI workflow node's, the inpaint mask painter): until then the field says it is
 * loading.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import type { WidgetProps } from './widgets/types';

export function lazyWidget(load: () => Promise<ComponentType<WidgetProps>>): ComponentType<WidgetProps> {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  return function LaterWidget(props: WidgetProps) {
    return (
      <Suspense fallback={<p className="muted" aria-busy="true">Loading…</p>}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}
