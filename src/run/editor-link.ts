/**
 * Everything the run side needs from the editor, in one place: the workflow document (read at
 * Run, watched to forget deleted nodes), the run settings, how to bring a node's field into
 * view, and the few edits runs make (seeds moved on, a seed pinned, a past run's workflow
 * restored). `storeLink` connects it to the editor's store; tests and benches can pass their own.
 */
import type { NodeRegistry } from '../../nodes/index';
import type { SeedChange } from '../../workers/seeds';
import type { WorkerSettings } from '../../workers/worker-api';
import type { Workflow } from '../../workflow/schema';
import type { NodeDescription } from './context';

export interface EditorLink {
  readonly registry: NodeRegistry;
  getWorkflow(): Workflow;
  /** Counts documents opened in place of the last (New, Open, an example, a run's workflow restored). */
  loads(): number;
  /** Called after every change of the editor's state or of the settings. */
  subscribe(listener: () => void): () => void;
  /** Endpoints, token, chat model and concurrency, resolved to what the worker needs. */
  getSettings(): WorkerSettings;
  /**
   * Every token and endpoint the settings hold (set or not in use), so text leaving the machine
   * (an image's manifest) can be checked for them.
   */
  secrets(): string[];
  focusNode(nodeId: string, field?: string): void;
  describeNode(nodeId: string): NodeDescription;
  /** The one selected node, if exactly one is selected. */
  selectedNode(): string | undefined;
  /**
   * The id a run knows the canvas's node `nodeId` by: inside an opened component, its id through
   * the opened instances (`restyle-1/image-to-image`), as flattening names it; itself otherwise.
   */
  runNodeId(nodeId: string): string;
  /**
   * Moves seeds on after a run: each change applies only where the node still has the seed it
   * had (`from`), so an edit made during the run wins. Consecutive runs make one undo step. A
   * change names an inner node of a component by its flat id and lands in the definition (or on
   * the instance that holds its own seed), whatever component the canvas shows.
   */
  applySeeds(changes: readonly SeedChange[]): void;
  /** Sets the node's seed and keeps it fixed (one undo step); a flat id lands as `applySeeds` does. */
  pinSeed(nodeId: string, seed: number): void;
  /** Replaces the document by `workflow` as one undo step (the current graph comes back with Undo). */
  restore(workflow: Workflow): void;
}
