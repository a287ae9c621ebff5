/**
 * The editor's run side, for the app shell, the node views and the toolbar:
 * - `<RunProvider>` wraps the editor (inside `<EditorStoreProvider>`): it owns the executor's web
 *   worker (started at the first run), Run on Ctrl+Enter, Cancel on Escape.
 * - `useRunControls()` → { run, runTo, runFrom, cancel, running, problems }.
 * - `<NodeRunStatus nodeId>`: the node's run badge, its pinned error and the streaming chat text.
 * - `<NodeRunMenu nodeId>`: the ▶ button for a node's title bar: "Run to here", "Run from here"
 *   (also on a right-click on the node).
 * - `<NodeResults nodeId>`: the node's images (click opens the viewer) and text results.
 * - `<RunPanel>`: Run with its batch count and Cancel, the cost of the next run, a refused run's
 *   problems (each focusing its node and field), the last run's summary and the session's totals.
 * Every clickable part carries the class `nodrag` (and `nowheel` where it scrolls), so it can sit
 * inside a React Flow node.
 */
export { RunProvider, RunProviderWith } from './RunProvider';
export { useRunControls, type RunControls } from './useRunControls';
export { NodeRunStatus } from './NodeRunStatus';
export { NodeRunMenu } from './NodeRunMenu';
export { NodeResults } from '../results/NodeResults';
export { RunPanel } from './RunPanel';
export type { EditorLink } from './editor-link';
export type { NodePhase, NodeRunState, RunOverview } from './run-state';
