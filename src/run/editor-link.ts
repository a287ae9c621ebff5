/**
 * Everything the run side needs from the editor, in one place: the workflow document (read at
 * Run, watched to forget deleted nodes), the run settings, and how to bring a node's field into
 * view. `storeLink` connects it to the editor's store; tests and benches can pass their own.
 */
import type { WorkerSettings } from '../../workers/worker-api';
import type { Workflow } from '../../workflow/schema';
import type { NodeDescription } from './context';

export interface EditorLink {
  getWorkflow(): Workflow;
  /** Called after every change of the editor's state. */
  subscribe(listener: () => void): () => void;
  /** Endpoints, token, chat model and concurrency, resolved to what the worker needs. */
  getSettings(): WorkerSettings;
  focusNode(nodeId: string, field?: string): void;
  describeNode(nodeId: string): NodeDescription;
}
