/**
 * Run events of a component's inner nodes (flat ids through the instance, `restyle-1/img2img`),
 * shown on the instance the canvas draws: its status is its inner nodes' put together (failed if
 * one failed, naming it: "Restyle › Image to image: …"; running while one runs; done when all
 * are), and its results are those of the inner outputs its face offers. Inner statuses stay under
 * their flat ids, so an opened component shows each inner node's own.
 */
import { COMPONENT_TYPE_PREFIX, type PortRef, type Workflow, type WorkflowNode } from '../../workflow/schema';
import type { NodeResult, NodeRunState, RunState } from './run-state';

/** Per instance (flat id, at any depth): where each output of its face comes from, in flat ids. */
export type FaceSources = ReadonlyMap<string, ReadonlyMap<string, PortRef>>;

/** The face sources of every instance in `workflow`, nested ones included. */
export function faceSources(workflow: Workflow): FaceSources {
  const defs = new Map((workflow.components ?? []).map((c) => [c.id, c]));
  const out = new Map<string, Map<string, PortRef>>();
  // An inner instance is walked before its owner's outputs are read: its own sources stand in for it.
  const resolve = (prefix: string, ref: PortRef): PortRef => out.get(prefix + ref.node)?.get(ref.port) ?? { node: prefix + ref.node, port: ref.port };
  const walk = (nodes: readonly WorkflowNode[], prefix: string, depth: number) => {
    if (depth > 16) return;
    for (const node of nodes) {
      if (!node.type.startsWith(COMPONENT_TYPE_PREFIX)) continue;
      const def = defs.get(node.type.slice(COMPONENT_TYPE_PREFIX.length));
      if (!def) continue;
      const flat = prefix + node.id;
      walk(def.nodes, `${flat}/`, depth + 1);
      const sources = new Map<string, PortRef>();
      for (const output of def.outputs) sources.set(output.name, resolve(`${flat}/`, output.source));
      out.set(flat, sources);
    }
  };
  walk(workflow.nodes, '', 0);
  return out;
}

const ORDER: readonly NodeRunState['phase'][] = ['invalid', 'failed', 'running', 'queued', 'cancelled', 'skipped', 'done', 'cached', 'bypassed'];

/** The instance's status from its inner nodes' (those of this run), or undefined when none has one. */
function combined(state: RunState, instance: string, runId: string): NodeRunState | undefined {
  const prefix = `${instance}/`;
  const inner: [string, NodeRunState][] = [];
  for (const id of state.status.keys()) {
    const s = id.startsWith(prefix) ? state.status.get(id) : undefined;
    if (s && s.runId === runId) inner.push([id, s]);
  }
  if (inner.length === 0) return undefined;
  const phases = new Set(inner.map(([, s]) => s.phase));
  // The most telling phase: a failure, then work under way, then how it ended.
  let phase = ORDER.find((p) => phases.has(p))!;
  if (phase === 'done' || phase === 'cached') phase = [...phases].every((p) => p === 'cached' || p === 'bypassed') ? 'cached' : 'done';
  if ((phase === 'skipped' || phase === 'cancelled') && (phases.has('done') || phases.has('cached'))) phase = 'done';
  const failed = inner.find(([, s]) => s.phase === 'failed' || s.phase === 'skipped');
  const running = inner.filter(([, s]) => s.phase === 'running');
  const started = inner.map(([, s]) => s.startedAt).filter((t) => t !== undefined);
  const out: NodeRunState = {
    runId,
    phase,
    text: running.map(([, s]) => s.text).join(''),
    progress: inner.reduce((sum, [, s]) => sum + (s.phase === 'running' ? s.progress ?? 0 : s.phase === 'queued' ? 0 : 1), 0) / inner.length,
    ...(started.length > 0 ? { startedAt: Math.min(...started) } : {}),
  };
  if (phase === 'done' || phase === 'cached') {
    out.durationMs = inner.reduce((sum, [, s]) => sum + (s.durationMs ?? 0), 0);
  }
  if (failed && phase === 'failed') {
    const [, s] = failed;
    if (s.error) out.error = { ...s.error, message: s.error.message };
  }
  if (failed && phase === 'skipped') {
    const [, s] = failed;
    if (s.because !== undefined) out.because = s.because;
    if (s.reason !== undefined) out.reason = s.reason;
  }
  return out;
}

/**
 * After an event for flat id `nodeId`: the status and results of each instance it is inside (the
 * top-level one, and nested ones for an opened component) brought up to date. Instance results
 * borrow the inner nodes' images (the same object URLs), which their owners release.
 */
export function rollUp(state: RunState, nodeId: string, runId: string, faces: FaceSources, titles: ReadonlyMap<string, string>): void {
  const parts = nodeId.split('/');
  for (let depth = parts.length - 1; depth >= 1; depth--) {
    const instance = parts.slice(0, depth).join('/');
    const status = combined(state, instance, runId);
    if (status?.error) {
      const culprit = [...state.status.keys()].find((id) => id.startsWith(`${instance}/`) && state.status.get(id)?.phase === 'failed');
      const title = culprit === undefined ? undefined : titles.get(culprit);
      if (title !== undefined) status.error = { ...status.error, message: `${title}: ${status.error.message}` };
    }
    state.status.set(instance, status);
    const sources = faces.get(instance);
    if (!sources) continue;
    const outputs = Object.create(null) as NodeResult['outputs'];
    let from: NodeResult | undefined;
    for (const [name, source] of sources) {
      const result = state.results.get(source.node);
      const value = result?.outputs[source.port];
      if (value !== undefined) {
        outputs[name] = value;
        from = result;
      }
    }
    if (from) state.results.set(instance, { runId: from.runId, outputs, cached: from.cached, borrowed: true, ...(from.restored ? { restored: from.restored } : {}) });
  }
}
