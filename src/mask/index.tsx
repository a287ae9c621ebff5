/**
 * The inpaint mask painter's entry: `registerMaskPainter()` (called once at start-up) makes the
 * inpaint node's `mask_paint` field the mask field (thumbnail, Paint/Edit, Remove). The field's
 * code loads with the first inpaint node's form, the painter when it is first opened, so a page
 * without inpainting carries none of it.
 */
import { lazy, Suspense } from 'react';
import { registerFieldWidget, type WidgetProps } from '../forms/widget-overrides';

const MaskWidget = lazy(() => import('./MaskWidget').then((m) => ({ default: m.MaskWidget })));

function LazyMaskWidget(props: WidgetProps) {
  return (
    <Suspense fallback={<div className="mask-field" aria-busy="true" />}>
      <MaskWidget {...props} />
    </Suspense>
  );
}

export function registerMaskPainter(): void {
  registerFieldWidget('inpaint', 'mask_paint', LazyMaskWidget);
}
