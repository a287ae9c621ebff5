/**
 * Small pure helpers for making and changing workflows, shared by the editor and the CLI. Each
 * returns a new value and leaves its argument alone; time comes from an injectable clock.
 */
import { WORKFLOW_FORMAT, versionFor } from './format';
import type { PortRef, Workflow } from './schema';

/** Where "now" comes from; tests pass a fixed one. */
export type Clock = () => Date;
const systemClock: Clock = () => new Date();

export interface NewWorkflow {
  title?: string;
  description?: string;
}

/** An empty workflow with fresh created/modified timestamps. */
export function createWorkflow({ title = 'Untitled workflow', description = '' }: NewWorkflow = {}, clock: Clock = systemClock): Workflow {
  const now = clock().toISOString();
  return {
    format: WORKFLOW_FORMAT,
    version: versionFor({}),
    metadata: { title, description, created: now, modified: now },
    nodes: [],
    edges: [],
  };
}

/** The workflow with `metadata.modified` set to now (never earlier than `created`). */
export function touchModified(workflow: Workflow, clock: Clock = systemClock): Workflow {
  const now = clock();
  // Compared as instants: a hand-written file may give `created` with a zone offset.
  const modified = now.getTime() < Date.parse(workflow.metadata.created) ? workflow.metadata.created : now.toISOString();
  return { ...workflow, metadata: { ...workflow.metadata, modified } };
}

/**
 * A node id not yet used in the workflow, made from `base` ('text-to-image' → 'text-to-image-1',
 * then '-2'…). Characters an id may not hold are replaced, so any type id or title works as base.
 */
export function uniqueNodeId(workflow: Pick<Workflow, 'nodes'>, base: string): string {
  const stem = base.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'node';
  const taken = new Set(workflow.nodes.map((node) => node.id));
  for (let n = 1; ; n++) {
    const id = `${stem}-${n}`;
    if (!taken.has(id)) return id;
  }
}

/**
 * The id of the edge between two ports. An input port takes one edge, so the ends make the id
 * unique and stable across saves: `n1:image->n2:init_image`.
 */
export function edgeIdFor(source: PortRef, target: PortRef): string {
  return `${source.node}:${source.port}->${target.node}:${target.port}`;
}
