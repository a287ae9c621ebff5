/**
 * What the chosen routes mean for a run, said before it and in Settings: chat on the local
 * stand-in (it writes text, it is not a language model), and image engines whose backend cannot
 * run a request that names no checkpoint (ComfyUI with none set for that engine), with where to
 * set one. Pure, from the settings and what the server says.
 */
import { needsCheckpoint } from '../../api/backends/describe';
import { BACKEND_DESCRIPTION, BACKEND_LABEL, type BackendKind } from '../../api/backends/registry';
import { ENGINES, type EngineId } from '../../api/catalog';
import { IMAGE_NODE_TYPES } from '../../nodes/api-use';
import type { BackendRules } from './backend-types';
import type { ServerInfoState } from './server-info';
import { CHAT_STAND_IN_LABEL, chatOnStandIn, type Settings } from './settings';

/** Backends that cannot draw without a checkpoint named for the engine (AUTOMATIC1111 uses its loaded one). */
const NEEDS_CHECKPOINT: ReadonlySet<BackendKind> = new Set((Object.keys(BACKEND_DESCRIPTION) as BackendKind[]).filter((kind) => needsCheckpoint(BACKEND_DESCRIPTION[kind])));

/** "Chat: local stand-in (offline, not a language model)" when chat goes there. */
export function chatNote(settings: Settings, server: ServerInfoState): string | undefined {
  return chatOnStandIn(settings, server) ? `Chat: ${CHAT_STAND_IN_LABEL}` : undefined;
}

/**
 * Each engine (of `engines`, all by default) whose backend has no checkpoint to run a request
 * that names none: "ComfyUI for sdxl has no checkpoint: choose one in Settings → Image backend".
 */
export function engineProblems(settings: Settings, server: ServerInfoState, rules: BackendRules | undefined, engines: readonly EngineId[] = ENGINES): string[] {
  const out: string[] = [];
  for (const engine of engines) {
    if (settings.mode === 'forward') {
      const backend = server === null || server === 'unreachable' ? undefined : server.forwarder?.imageBackends?.[engine];
      if (backend !== undefined && NEEDS_CHECKPOINT.has(backend.kind) && backend.names?.checkpoint === undefined) {
        out.push(`${BACKEND_LABEL[backend.kind]} for ${engine} has no checkpoint: set "imageBackends" → "${engine}" → "names" → "checkpoint" in the server's config file (ATELIER_CONFIG) and restart it`);
      }
      continue;
    }
    const config = rules?.resolve(settings).backends[engine];
    if (config !== undefined && NEEDS_CHECKPOINT.has(config.kind) && config.names?.checkpoint === undefined) {
      out.push(`${BACKEND_LABEL[config.kind]} for ${engine} has no checkpoint: choose one in Settings → Image backend`);
    }
  }
  return out;
}

/** The engines the image nodes of a workflow use (bypassed ones left out). */
export function enginesUsedBy(nodes: readonly { type: string; bypass?: boolean; params: Record<string, unknown> }[]): EngineId[] {
  const used = new Set<EngineId>();
  for (const node of nodes) {
    if (node.bypass === true || !IMAGE_NODE_TYPES.has(node.type)) continue;
    const engine = node.type === 'controlnet' ? 'controlnet-sdxl' : node.params.engine;
    used.add((ENGINES as readonly unknown[]).includes(engine) ? engine as EngineId : 'sdxl');
  }
  return ENGINES.filter((e) => used.has(e));
}
