/**
 * The seeds of a ComfyUI workflow node: each chosen seed input (a sampler's `seed` or
 * `noise_seed`, as a field or as a number port's value when no wire fills it) is a seed slot with
 * Atelier's modes, as an image node's seed is. Its value sits in `values` (null: a new random
 * seed each run), its mode in `seed_modes`. A random seed is drawn by the node and sent, never
 * left to ComfyUI, so the seed that made the images is known, reported with them, and pinned.
 */
import type { PipelineChoice } from '../api/backends/comfyui/pipeline/discover';
import type { SeedMode } from './image-params';
import { SEED_COUNT, isWiredSlot, type SeedControl, type SeedSlot, type SeedWrite } from './seed-control';

/** Whether a choice is a seed: it gets Atelier's seed control. */
export function isSeedChoice(choice: Pick<PipelineChoice, 'kind' | 'targets'>): boolean {
  return choice.kind === 'number' && choice.targets.some((t) => t.input === 'seed' || t.input === 'noise_seed');
}

/** The part of a ComfyUI workflow node's params its seeds live in. */
export interface ComfySeedParams {
  fields: readonly PipelineChoice[];
  values: Record<string, unknown>;
  seed_modes: Record<string, SeedMode>;
}

const plain = (value: unknown): Record<string, unknown> =>
  (typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {});

/** The node's seed slots: seed choices with a value of their own (a number, or null for random). */
export const comfySeeds: SeedControl<ComfySeedParams> = {
  slots(p) {
    return p.fields.filter(isSeedChoice).flatMap((c): SeedSlot[] => {
      const seed = Object.hasOwn(p.values, c.name) ? p.values[c.name] : undefined;
      if (typeof seed !== 'number' && seed !== null) return [];
      const mode = Object.hasOwn(p.seed_modes, c.name) ? p.seed_modes[c.name]! : 'fixed';
      return [{ key: c.name, seed, mode, ...(c.as === 'port' ? { port: c.name } : {}) }];
    });
  },
  write(raw, writes: ReadonlyMap<string, SeedWrite>) {
    const values = plain(raw.values);
    const modes = plain(raw.seed_modes);
    let modesChanged = false;
    for (const [name, w] of writes) {
      values[name] = w.seed;
      if (w.mode !== undefined) {
        modes[name] = w.mode;
        modesChanged = true;
      }
    }
    return { values, ...(modesChanged ? { seed_modes: modes } : {}) };
  },
};

/** The seeds a run sends, by choice name, and the one its images report (the first drawn, else the first sent). */
export interface RunSeeds {
  sent: Map<string, number>;
  used?: number;
}

/**
 * The seeds of one run: a wired seed is the wire's (left to the request), a number is sent as it
 * is, and the random ones take `draw()` once and then the numbers after it, in the order of the
 * choices; pinning (seed-control.ts `pinWrites`) gives them back the same way.
 */
export function runSeeds(p: ComfySeedParams, wiredPorts: ReadonlySet<string>, draw: () => number): RunSeeds {
  const own = comfySeeds.slots(p).filter((slot) => !isWiredSlot(slot, wiredPorts));
  const sent = new Map<string, number>();
  const random = own.filter((slot) => slot.seed === null);
  const base = random.length > 0 ? draw() : undefined;
  let drawn = 0;
  for (const slot of own) sent.set(slot.key, slot.seed ?? (base! + drawn++) % SEED_COUNT);
  const first = own[0];
  return { sent, ...(base !== undefined ? { used: base } : first === undefined ? {} : { used: sent.get(first.key)! }) };
}
