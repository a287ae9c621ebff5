/**
 * Wraps the editor: owns the run controller (worker client and run state), runs a snapshot of
 * the workflow on Run (Ctrl+Enter) and cancels on Cancel (Escape), forgets the results of nodes
 * that leave the workflow, and releases every image when it unmounts.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import type { PlanOptions } from '../../workers/plan';
import { useEditorStore } from '../store';
import { createRunController, type RunController } from './controller';
import { RunContext, type NodeDescription, type RunContextValue } from './context';
import type { EditorLink } from './editor-link';
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

export function RunProviderWith({ link, client, children }: RunProviderWithProps) {
  const [controller] = useState<RunController>(() =>
    createRunController({ client: client ?? createWorkerClient(), settings: () => link.getSettings() }),
  );
  useEffect(() => () => controller.dispose(), [controller]);

  // Results of nodes that were deleted (or replaced by opening another file) let go of their images.
  useEffect(() => {
    let nodes = link.getWorkflow().nodes;
    return link.subscribe(() => {
      const next = link.getWorkflow().nodes;
      if (next === nodes) return;
      nodes = next;
      controller.prune(next.map((n) => n.id));
    });
  }, [link, controller]);

  const value = useMemo<RunContextValue>(() => {
    const start = (options: PlanOptions) => {
      // The document is immutable: the worker gets this snapshot, edits during the run do not reach it.
      void controller.run(link.getWorkflow(), options);
    };
    return {
      controller,
      start,
      focusNode: (nodeId, field) => link.focusNode(nodeId, field),
      describeNode: (nodeId): NodeDescription => link.describeNode(nodeId),
      workflowTitle: () => link.getWorkflow().metadata.title,
    };
  }, [controller, link]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
        event.preventDefault();
        value.start({ mode: 'all' });
      } else if (event.key === 'Escape' && controller.state.overview.get().running && !escapeIsTaken(event)) {
        controller.cancel();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [value, controller]);

  return <RunContext.Provider value={value}>{children}</RunContext.Provider>;
}

/** The run side of the real editor: must sit inside `<EditorStoreProvider>`. */
export function RunProvider({ children, client }: { children: ReactNode; client?: RunClient }) {
  const store = useEditorStore();
  const [link] = useState(() => storeLink(store));
  return <RunProviderWith link={link} client={client}>{children}</RunProviderWith>;
}
