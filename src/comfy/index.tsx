/**
 * The ComfyUI workflow node's controls in the forms: `registerComfyWorkflowForm()` (called once at
 * start-up) puts them in place of the generated ones. They load when a ComfyUI workflow node is
 * first drawn, so a page without one carries none of the pipeline reader.
 */
import { lazyWidget as later } from '../forms/lazy-widget';
import { registerFieldWidget } from '../forms/widget-overrides';
import './comfy.css';

export function registerComfyWorkflowForm(): void {
  registerFieldWidget('comfy-workflow', 'pipeline', later(() => import('./PipelineWidget').then((m) => m.PipelineWidget)));
  registerFieldWidget('comfy-workflow', 'outputs', later(() => import('./PipelineWidget').then((m) => m.OutputsWidget)));
  registerFieldWidget('comfy-workflow', 'fields', later(() => import('./InputsWidget').then((m) => m.InputsWidget)));
  registerFieldWidget('comfy-workflow', 'values', later(() => import('./ValuesWidget').then((m) => m.ValuesWidget)));
}
