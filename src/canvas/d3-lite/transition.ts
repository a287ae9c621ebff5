/**
 * The part of d3-transition that React Flow's viewport uses, built in its place (the alias is in
 * scripts/d3-lite.ts). React Flow animates the view (fit view, centring a node, zoom buttons) by
 * handing d3-zoom a transition: `selection.transition().duration(ms).ease(fn).on('end', done)`;
 * d3-zoom adds its `start.zoom`, `interrupt.zoom end.zoom` listeners and its `zoom` tween, and
 * calls `interrupt(node)` when a gesture begins. The library itself also carries attribute and
 * style tweening, chaining, d3-color and every d3 interpolator, none of which the editor uses:
 * about 5 kB gzipped of the page's start. What is here follows d3-transition's rules for what it
 * keeps: defaults (250 ms, cubic in-out), start on the next animation frame, the same events
 * (`start`, `end`, `interrupt` for a started transition, `cancel` for one that had not), a newer
 * transition of the same name interrupting older ones when it starts, and listeners and tweens
 * called with the node as `this` and (datum, index, group). Anything else d3-transition offers
 * is absent, so code that needs it fails loudly at build time (a missing export) or at once
 * (a missing method), never silently. Tested with d3-zoom itself: tests/canvas/d3-lite.test.ts.
 */
import { selection, type BaseType, type Selection } from 'd3-selection';

type AnySelection = Selection<BaseType, unknown, BaseType, unknown>;

type NodeArgs = [datum: unknown, index: number, group: ArrayLike<unknown>];
type Listener = (this: unknown, ...args: NodeArgs) => void;
type Tween = (this: unknown, t: number) => void;
type TweenFactory = (this: unknown, ...args: NodeArgs) => Tween | null | undefined;
type EventType = 'start' | 'end' | 'interrupt' | 'cancel';

interface Run {
  readonly id: number;
  readonly name: string;
  state: 'scheduled' | 'running' | 'ended';
  frame: number;
  readonly emit: (type: EventType) => void;
}

/** Scheduled and running transitions by node, for interrupts. */
const runsOf = new WeakMap<object, Set<Run>>();
let nextId = 0;

function cubicInOut(t: number): number {
  return ((t *= 2) <= 1 ? t * t * t : (t -= 2) * t * t + 2) / 2;
}

function stop(node: object, run: Run, type: 'interrupt' | 'cancel'): void {
  if (run.state === 'ended') return;
  run.state = 'ended';
  cancelAnimationFrame(run.frame);
  runsOf.get(node)?.delete(run);
  run.emit(type);
}

/** Stops the transitions named `name` (none: the unnamed ones) on `node`, as d3-transition's `interrupt`. */
export function interrupt(node: object, name?: string | null): void {
  const key = name == null ? '' : String(name);
  for (const run of [...(runsOf.get(node) ?? [])]) {
    if (run.name === key) stop(node, run, run.state === 'running' ? 'interrupt' : 'cancel');
  }
}

export class Transition {
  private durationMs = 250;
  private easing: (t: number) => number = cubicInOut;
  private readonly listeners = new Map<string, Listener>();
  private readonly tweens = new Map<string, TweenFactory>();

  constructor(private readonly owner: AnySelection, name: string) {
    owner.each((datum, index, group) => {
      const node = group[index] as unknown as object;
      const run: Run = {
        id: nextId++,
        name,
        state: 'scheduled',
        frame: 0,
        emit: (type) => {
          for (const [key, listener] of this.listeners) {
            if (key.split('.')[0] === type) listener.call(node, datum, index, group);
          }
        },
      };
      let runs = runsOf.get(node);
      if (!runs) runsOf.set(node, (runs = new Set()));
      runs.add(run);
      run.frame = requestAnimationFrame((now) => this.start(node, run, [datum, index, group], now));
    });
  }

  private start(node: object, run: Run, args: NodeArgs, startedAt: number): void {
    // A newer transition of the same name replaces older ones as it starts (d3-transition's rule).
    for (const other of [...(runsOf.get(node) ?? [])]) {
      if (other !== run && other.name === run.name && other.id < run.id) stop(node, other, other.state === 'running' ? 'interrupt' : 'cancel');
    }
    run.state = 'running';
    run.emit('start');
    if (run.state !== 'running') return;
    const tweens: Tween[] = [];
    for (const factory of this.tweens.values()) {
      const tween = factory.call(node, ...args);
      if (tween) tweens.push(tween);
    }
    const { durationMs, easing } = this;
    const tick = (now: number) => {
      if (run.state !== 'running') return;
      const elapsed = now - startedAt;
      const done = elapsed >= durationMs;
      const t = done ? 1 : easing(elapsed / durationMs);
      for (const tween of tweens) tween.call(node, t);
      if (run.state !== 'running') return;
      if (!done) {
        run.frame = requestAnimationFrame(tick);
        return;
      }
      run.state = 'ended';
      runsOf.get(node)?.delete(run);
      run.emit('end');
    };
    tick(startedAt);
  }

  duration(ms: number): this {
    this.durationMs = Math.max(0, +ms);
    return this;
  }

  ease(easing: (t: number) => number): this {
    if (typeof easing !== 'function') throw new TypeError('transition.ease needs a function');
    this.easing = easing;
    return this;
  }

  /** Adds (or, with null, removes) a listener for each space-separated `type[.name]`. */
  on(typenames: string, listener: Listener | null): this {
    for (const key of typenames.trim().split(/\s+/)) {
      const type = key.split('.')[0];
      if (type !== 'start' && type !== 'end' && type !== 'interrupt' && type !== 'cancel') throw new Error(`unknown transition event: ${key}`);
      if (listener) this.listeners.set(key, listener);
      else this.listeners.delete(key);
    }
    return this;
  }

  tween(name: string, factory: TweenFactory | null): this {
    if (factory) this.tweens.set(name, factory);
    else this.tweens.delete(name);
    return this;
  }

  call<A extends unknown[]>(callback: (transition: this, ...args: A) => void, ...args: A): this {
    callback(this, ...args);
    return this;
  }

  selection(): AnySelection {
    return this.owner;
  }
}

interface LiteSelectionMethods {
  transition(this: AnySelection, name?: string | null): Transition;
  interrupt(this: AnySelection, name?: string | null): AnySelection;
}

const proto = selection.prototype as unknown as LiteSelectionMethods;
proto.transition = function transition(name) {
  return new Transition(this, name == null ? '' : String(name));
};
proto.interrupt = function interruptAll(name) {
  return this.each((_datum, index, group) => interrupt(group[index] as unknown as object, name));
};
