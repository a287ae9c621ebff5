/**
 * The editor store's public surface, for the canvas, the forms and the run side (src/run).
 *
 * Reading the document:
 * - `useWorkflow()`: the current workflow document (`Workflow` from workflow/schema.ts), re-rendering
 *   on every change; `useEditorStore().getState().doc` reads it once (e.g. when Run is pressed).
 * - `useEditor(selector)`: any slice of `EditorState` (doc, index, selection, dirty, history…);
 *   re-renders only when the selected value changes by identity.
 * Acting:
 * - `useFocusNode()` → `focusNode(nodeId, field?)`: selects the node, scrolls the canvas to it and
 *   focuses the field (a parameter name, or a port name) — what a clicked problem in a list does.
 * - `useEditorStore()`: every action (addNode, connect, setParam, undo, …); see editor-store.ts.
 * Settings (never part of a workflow; see src/settings):
 * - `useSettings()` / `settingsStore.get()`: endpoint mode, base URLs, tokens, chat model, concurrency;
 * - `workerSettingsFor(settings, location.origin, serverInfo)`: what the worker's `configure()` takes;
 * - `settingsSecrets(settings, location.origin)`: every token, credential and endpoint they hold;
 * - `settingsProblems(settings, serverInfo, uses)`: what stops a run with these settings, each with its fix.
 */
import { useCallback } from 'react';
import type { Workflow } from '../../workflow/schema';
import { useEditor, useEditorStore } from './react';

export { createEditorStore, type EditorStore, type EditorStoreOptions, type AsInputRecord, type SelectMode } from './editor-store';
export { EditorStoreProvider, useEditor, useEditorStore } from './react';
export type { EditorState, FocusRequest, Selection, XY } from './state';
export type { GraphIndex, InboundEdges } from './graph-index';
export type { PasteResult } from './clipboard';
export { starterWorkflow } from './starter';
export { useSettings, settingsStore, type SettingsStore } from '../settings/settings-store';
export {
  workerSettingsFor, endpointsFor, settingsProblems, settingsSecrets, DEFAULT_SETTINGS, type Settings, type EndpointMode, type Endpoints,
} from '../settings/settings';

/** The current workflow document. */
export function useWorkflow(): Workflow {
  return useEditor((s) => s.doc);
}

/** `focusNode(nodeId, field?)`: select a node, bring it into view and focus one of its fields. */
export function useFocusNode(): (nodeId: string, field?: string) => void {
  const store = useEditorStore();
  return useCallback((nodeId: string, field?: string) => store.focusNode(nodeId, field), [store]);
}
