/**
 * The seeds a node has, for the seed widget's modes (workers/seeds.ts moves them on, pins them):
 * an image node has one (`seed` and `seed_mode`), a ComfyUI workflow node one per seed input it
 * offers (a sampler's `seed` or `noise_seed`). Each seed is a slot: its value (null is "random each
 * run"), its mode, and the input port whose wire, when connected, decides it instead.
 */
import { LOCAL_LIMITS } from '../api/image-schema';
import { flattenComponents } from '../workflow/flatten';
import { COMPONENT_TYPE_PREFIX, type Workflow } from '../workflow/schema';
import { SEED_MODES, type SeedMode } from './image-params';
import { resolveInputs } from './ports';
import type { AnyNodeDefinition } from './types';

/** Seeds are 0 to 2^32 - 1; an increment past the top wraps to 0. */
export const SEED_COUNT = LOCAL_LIMITS.seedMax + 1;

export interface SeedChange {
  nodeId: string;
  /** Which of the node's seeds (seed-control.ts `SeedSlot.key`): `seed` for an image node. */
  slot: string;
  mode: Exclude<SeedMode, 'fixed'>;
  from: number;
  to: number;
}

export interface SeedSlot {
  /** Which seed of the node: `seed` for an image node, the choice's name for a ComfyUI workflow. */
  key: string;
  /** Null: a new random seed each run, drawn by the node and reported with its images. */
  seed: number | null;
  mode: SeedMode;
  /** The input port that decides the seed when wired. */
  port?: string;
}

/** A seed's new value and, when it changes, its mode. */
export interface SeedWrite {
  seed: number | null;
  mode?: SeedMode;
}

/** How a node other than an image node exposes its seeds (NodeDefinition `seeds`). */
export interface SeedControl<P = Record<string, unknown>> {
  /** The node's seeds, in a fixed order, from its parsed params. */
  slots(params: P): SeedSlot[];
  /** The top-level params to change (merged over the raw, saved params) to write these seeds. */
  write(raw: Record<string, unknown>, writes: ReadonlyMap<string, SeedWrite>): Record<string, unknown>;
}

const isMode = (mode: unknown): mode is SeedMode => (SEED_MODES as readonly unknown[]).includes(mode);

/** An image node's one seed: `seed` and `seed_mode`, fed by the port whose param is `seed`. */
const imageSeed: SeedControl = {
  slots(params) {
    const { seed, seed_mode: mode } = params;
    if (!isMode(mode) || (typeof seed !== 'number' && seed !== null)) return [];
    return [{ key: 'seed', seed, mode }];
  },
  write(_raw, writes) {
    const w = writes.get('seed');
    return w === undefined ? {} : { seed: w.seed, ...(w.mode === undefined ? {} : { seed_mode: w.mode }) };
  },
};

/** The seed control of a definition: its own, else an image node's when its params have one. */
export function seedControlOf(def: AnyNodeDefinition): SeedControl {
  return (def.seeds as SeedControl | undefined) ?? imageSeed;
}

/**
 * The node's seeds from its raw (saved) params, parsed by its definition; none when they do not
 * parse. An image node's seed port is the input whose param is `seed`.
 */
export function seedSlotsOf(def: AnyNodeDefinition, raw: Record<string, unknown>): SeedSlot[] {
  const parsed = def.params.safeParse(raw);
  if (!parsed.success) return [];
  const params = parsed.data as Record<string, unknown>;
  const slots = seedControlOf(def).slots(params);
  if (def.seeds !== undefined || slots.length === 0) return slots;
  let port: string | undefined;
  try {
    port = resolveInputs(def, params).find((p) => p.param === 'seed')?.name;
  } catch {
    port = undefined;
  }
  return slots.map((s) => (port === undefined ? s : { ...s, port }));
}

/** The params to merge over the node's raw params to write `writes`. */
export function seedParamsPatch(def: AnyNodeDefinition, raw: Record<string, unknown>, writes: ReadonlyMap<string, SeedWrite>): Record<string, unknown> {
  return seedControlOf(def).write(raw, writes);
}

/** Whether a seed is decided by a wire into its port (`ports`: the node's wired input ports). */
export function isWiredSlot(slot: SeedSlot, ports: ReadonlySet<string> | undefined): boolean {
  return slot.port !== undefined && ports?.has(slot.port) === true;
}

/**
 * The seeds that make a run's images again, for one node that reported `used`: each seed the next
 * run would not repeat (random each run, or moved on by `increment` or `random`) becomes the one
 * it used, with mode `fixed`. A seed that was random each run took `used` (the first such seed of
 * the node) or `used + n` (the n-th after it), as the node drew them; a wired seed is the wire's.
 * `chosen`: `used` is an image's seed someone chose to pin, so with no random seed it replaces the
 * first seed the node reports (the one its images carry) and every seed is fixed.
 */
export function pinWrites(slots: readonly SeedSlot[], used: number, ports: ReadonlySet<string> | undefined, chosen = false): Map<string, SeedWrite> {
  const writes = new Map<string, SeedWrite>();
  const own = slots.filter((slot) => !isWiredSlot(slot, ports));
  const anyRandom = own.some((slot) => slot.seed === null);
  let drawn = 0;
  for (const [index, slot] of own.entries()) {
    const seed = slot.seed ?? (used + drawn++) % SEED_COUNT;
    if (chosen) {
      writes.set(slot.key, { seed: !anyRandom && index === 0 ? used : seed, mode: 'fixed' });
      continue;
    }
    if (slot.mode === 'fixed' && slot.seed !== null) continue;
    // A numeric seed in the snapshot is the one that was sent, whatever the service reported back.
    writes.set(slot.key, { seed, mode: 'fixed' });
  }
  return writes;
}

/** The params to merge over one node's to pin an image's seed ("Pin this seed"), given the ports wired into it. */
export function pinSeedPatch(def: AnyNodeDefinition, raw: Record<string, unknown>, used: number, wired: ReadonlySet<string>): Record<string, unknown> {
  return seedParamsPatch(def, raw, pinWrites(seedSlotsOf(def, raw), used, wired, true));
}

/** The workflow as it runs: components flattened into their inner nodes (flat ids), or as it is when that fails. */
function flatOf(workflow: Workflow): Workflow {
  if (workflow.components === undefined) return workflow;
  const flat = flattenComponents(workflow);
  return flat.ok ? flat.workflow : workflow;
}

/**
 * The seeds that differ between two snapshots of the same workflow (a run's, and the next one's),
 * by the node's flat id: an inner node of a component is named through its instance
 * (`restyle-1/draw`), one change per instance even when they share the definition's seed.
 */
export function seedChangesBetween(before: Workflow, after: Workflow, registry: { get(type: string): AnyNodeDefinition | undefined }): SeedChange[] {
  const slotsIn = (node: Workflow['nodes'][number]) => {
    const def = node.type.startsWith(COMPONENT_TYPE_PREFIX) ? undefined : registry.get(node.type);
    return def === undefined ? [] : seedSlotsOf(def, node.params);
  };
  const earlier = new Map(flatOf(before).nodes.map((n) => [n.id, n]));
  const changes: SeedChange[] = [];
  for (const node of flatOf(after).nodes) {
    const old = earlier.get(node.id);
    const was = old === undefined ? [] : slotsIn(old);
    for (const slot of slotsIn(node)) {
      const from = was.find((s) => s.key === slot.key)?.seed;
      if (typeof from !== 'number' || slot.seed === null || from === slot.seed) continue;
      changes.push({ nodeId: node.id, slot: slot.key, mode: slot.mode === 'random' ? 'random' : 'increment', from, to: slot.seed });
    }
  }
  return changes;
}

/** The params to merge over a node's to move one seed on (`change`), or undefined when it no longer holds `change.from`. */
export function seedChangePatch(def: AnyNodeDefinition, raw: Record<string, unknown>, change: SeedChange): Record<string, unknown> | undefined {
  const slot = seedSlotsOf(def, raw).find((s) => s.key === change.slot);
  if (slot?.seed !== change.from) return undefined;
  return seedParamsPatch(def, raw, new Map([[change.slot, { seed: change.to }]]));
}
