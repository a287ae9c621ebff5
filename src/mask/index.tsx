/**
 * The inpaint mask painter's entry: `registerMaskPainter()` (called once at start-up) makes the
 * inpaint node's `mask_paint` field the mask field (thumbnail, Paint/Edit, Remove). The mask
 * field loads when an inpaint form first draws it, and the painter when it is first opened
 * (MaskWidget.tsx), so a page without inpainting carries none of it.
 */
import { registerFieldWidget } from '../forms/widget-overrides';
import { lazyWidget } from '../forms/lazy-widget';

export function registerMaskPainter(): void {
  registerFieldWidget('inpaint', 'mask_paint', lazyWidget(() => import('./MaskWidget').then((m) => m.MaskWidget)));
}
