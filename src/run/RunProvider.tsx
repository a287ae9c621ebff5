/**
 * Wraps the editor: owns the run controller (worker client and run state), the run queue (one run
 * or a batch, seeds moved on after each), the cost estimate, the session's totals, and the
 * worker's checks for the node forms (their problems and prompt token counts). Run
 * (Ctrl+Enter) runs a snapshot of the workflow as many times as the batch count says; Ctrl+Shift+
 * Enter runs to the selected node, Ctrl+Alt+Enter from it; Escape cancels. It forgets the results
 * of nodes that leave the workflow, and releases every image when it unmounts.
 */
import { restoreFromCache } from './restore-results';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { PlanOptions } from '../../workers/plan';
import { attachHistory } from '../history/attach';
import { useEditorStore } from '../store';
import { createRunController, type RunController } from './controller';
import { RunContext, type NodeDescription, type RunContextValue } from './context';
import type { EditorLink } from './editor-link';
import { createEstimator } from './estimator';
import { createFanOutAsks } from './fan-out-ask';
import { FanOutDialog } from './FanOutDialog';
import { createFormChecks } from './form-checks';
import { FormChecksContext } from '../forms/form-checks';
import { createSmallStore } from '../ui/small-store';
import { createRunQueue } from './queue';
import { createRunMenus, openRunMenuOnContextMenu } from './run-menus';
import { createSessionUsage } from './session-usage';
import { storeLink } from './store-link';
import { createWorkerClient, type RunClient } from './worker-client';

export interface RunProviderWithProps {
  link: EditorLink;
  /** The worker client; the real web worker by default. */
  client?: RunClient;
  children: ReactNode;
}

/** Whether a key event belongs to something that handles Escape itself (a dialog, a menu). */
function escapeIsTaken(event: KeyboardEvent): boolean {
  if (event.defaultPrevented) return true;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest('dialog, [role="dialog"], [role="menu"], [role="listbox"], [aria-expanded="true"]')) return true;
  return document.querySelector('dialog[open]') !== null;
}

/** The plan a run key asks for: everything, or up to / from the one selected node. */
function planForKey(event: KeyboardEvent, link: EditorLink): PlanOptions | undefined {
  if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return undefined;
  if (!event.shiftKey && !event.altKey) return { mode: 'all' };
  const nodeId = link.selectedNode();
  if (nodeId === undefined || (event.shiftKey && event.altKey)) return undefined;
  return event.shiftKey ? { mode: 'to', nodeId } : { mode: 'from', nodeId };
}

export function RunProviderWith({ link, client, children }: RunProviderWithProps) {
  const [asks] = useState(createFanOutAsks);
  const [parts] = useState(() => {
    const controller: RunController = createRunController({
      client: client ?? createWorkerClient(), settings: () => link.getSettings(), confirmFanOut: (question) => asks.ask(question),
    });
    const session = createSessionUsage();
    const queue = createRunQueue({ controller, link, onRun: (summary) => session.add(summary) });
    return { controller, session, queue, runCount: createSmallStore(1), runMenus: createRunMenus() };
  });
  const { controller, queue } = parts;
  const [estimator] = useState(() => createEstimator(controller, link));
  const [formChecks] = useState(() => createFormChecks(controller));
  useEffect(() => () => controller.dispose(), [controller]);
  useEffect(() => estimator.start(), [estimator]);
  useEffect(() => restoreFromCache(controller, estimator), [controller, estimator]);
  useEffect(() => attachHistory(controller, link), [controller, link]);
  // A question about a fan-out outlives nothing: once its run is over it is answered no.
  useEffect(() => controller.state.overview.subscribe(() => {
    if (!controller.state.overview.get().running) asks.dropAll();
  }), [controller, asks]);

  // Results of nodes that were deleted let go of their images; opening another workflow forgets
  // the last run's results and summary altogether. Opening a component or going back out counts
  // as a load for the canvas, but the document is the same: its results stay.
  useEffect(() => {
    let doc = link.getWorkflow();
    let nodes = doc.nodes;
    let loads = link.loads();
    return link.subscribe(() => {
      const next = link.getWorkflow().nodes;
      if (link.loads() !== loads) {
        loads = link.loads();
        if (link.getWorkflow() !== doc) controller.forgetRuns();
        nodes = next;
      }
      doc = link.getWorkflow();
      if (next === nodes) return;
      nodes = next;
      controller.prune(next.map((n) => n.id));
    });
  }, [link, controller]);

  const value = useMemo<RunContextValue>(() => {
    const start = (options: PlanOptions, count?: number) => {
      // The document is immutable: the worker gets this snapshot, edits during the run do not reach it.
      void queue.start(options, count ?? parts.runCount.get());
    };
    return {
      ...parts,
      estimator,
      link,
      start,
      focusNode: (nodeId, field) => link.focusNode(nodeId, field),
      describeNode: (nodeId): NodeDescription => link.describeNode(nodeId),
      workflowTitle: () => link.getWorkflow().metadata.title,
    };
  }, [parts, queue, estimator, link]);

  useEffect(() => {
    // Run keys are read before the canvas sees them: with Ctrl held, React Flow takes Enter on a
    // focused node as a multi-selection toggle and would unselect the node to run to or from.
    const onRunKey = (event: KeyboardEvent) => {
      const plan = planForKey(event, link);
      if (!plan) return;
      event.preventDefault();
      event.stopPropagation();
      // Run to / from a node is one run; Run is as many as the batch count says.
      value.start(plan, plan.mode === 'all' ? undefined : 1);
    };
    const onEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && (controller.state.overview.get().running || queue.progress.get()) && !escapeIsTaken(event)) queue.cancel();
    };
    const onContextMenu = openRunMenuOnContextMenu(parts.runMenus);
    window.addEventListener('keydown', onRunKey, true);
    window.addEventListener('keydown', onEscape);
    window.addEventListener('contextmenu', onContextMenu);
    return () => {
      window.removeEventListener('keydown', onRunKey, true);
      window.removeEventListener('keydown', onEscape);
      window.removeEventListener('contextmenu', onContextMenu);
    };
  }, [value, controller, queue, link, parts.runMenus]);

  return (
    <RunContext.Provider value={value}>
      <FormChecksContext.Provider value={formChecks}>{children}</FormChecksContext.Provider>
      <FanOutDialog asks={asks} />
    </RunContext.Provider>
  );
}

/** The run side of the real editor: must sit inside `<EditorStoreProvider>`. */
export function RunProvider({ children, client }: { children: ReactNode; client?: RunClient }) {
  const store = useEditorStore();
  const [link] = useState(() => storeLink(store));
  return <RunProviderWith link={link} client={client}>{children}</RunProviderWith>;
}
