/**
 * Controls other parts of the editor provide for one parameter of one node type (the inpaint
 * mask painter for `mask_paint`, say), used instead of the generated one. Register at start-up,
 * before the forms render: `registerFieldWidget('inpaint', 'mask_paint', MaskField)`.
 */
import type { ComponentType } from 'react';
import type { WidgetProps } from './widgets/types';

export type { SetOptions, WidgetProps } from './widgets/types';

const overrides = new Map<string, ComponentType<WidgetProps>>();
const key = (nodeType: string, param: string) => JSON.stringify([nodeType, param]);

export function registerFieldWidget(nodeType: string, param: string, component: ComponentType<WidgetProps>): void {
  overrides.set(key(nodeType, param), component);
}

export function fieldWidgetOverride(nodeType: string, param: string): ComponentType<WidgetProps> | undefined {
  return overrides.get(key(nodeType, param));
}
