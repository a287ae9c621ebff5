/**
 * The inpaint mask painter's entry: `registerMaskPainter()` (called once at start-up) makes the
 * inpaint node's `mask_paint` field the mask field (thumbnail, Paint/Edit, Remove). The painter
 * itself loads when it is first opened (MaskWidget.tsx), so a page without inpainting carries
 * little of it.
 */
import { registerFieldWidget } from '../forms/widget-overrides';
import { MaskWidget } from './MaskWidget';

export function registerMaskPainter(): void {
  registerFieldWidget('inpaint', 'mask_paint', MaskWidget);
}
