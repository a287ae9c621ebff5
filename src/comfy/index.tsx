/**
 * The ComfyUI workflow node's controls in the forms: `registerComfyWorkflowForm()` (called once at
 * start-up) puts them in place of the generated ones. They load when a ComfyUI workflow node is
 * first drawn, so a page without one carries none of the pipeline reader.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { registerFieldWidget } from '../forms/widget-overrides';
import type { WidgetProps } from '../forms/widget-overrides';
import './comfy.css';

function later(load: () => Promise<ComponentType<WidgetProps>>): ComponentType<WidgetProps> {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  return function LaterWidget(props: WidgetProps) {
    return (
      <Suspense fallback={<p className="muted" aria-busy="true">Loading…</p>}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

export function registerComfyWorkflowForm(): void {
  registerFieldWidget('comfy-workflow', 'pipeline', later(() => import('./PipelineWidget').then((m) => m.PipelineWidget)));
  registerFieldWidget('comfy-workflow', 'outputs', later(() => import('./PipelineWidget').then((m) => m.OutputsWidget)));
  registerFieldWidget('comfy-workflow', 'fields', later(() => import('./InputsWidget').then((m) => m.InputsWidget)));
  registerFieldWidget('comfy-workflow', 'values', later(() => import('./ValuesWidget').then((m) => m.ValuesWidget)));
}
