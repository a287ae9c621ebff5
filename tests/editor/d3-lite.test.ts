/**
 * The d3-transition and d3-interpolate stand-ins (src/canvas/d3-lite), alone and under d3-zoom
 * itself, which the unit project resolves to them as the build does (scripts/d3-lite.ts).
 * Frames are driven by hand: requestAnimationFrame is a queue the test flushes at chosen times.
 */
import type * as D3Interpolate from 'd3-interpolate';
import { select } from 'd3-selection';
import { interrupt as packageInterrupt } from 'd3-transition';
import { interpolate as packageInterpolate } from 'd3-interpolate';
import { zoom, zoomIdentity, zoomTransform, type ZoomTransform } from 'd3-zoom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { interpolate, interpolateZoom } from '../../src/canvas/d3-lite/interpolate';
import { interrupt } from '../../src/canvas/d3-lite/transition';

const REAL_INTERPOLATE = '../../node_modules/d3-interpolate/dist/d3-interpolate.mjs';

let queue: Map<number, FrameRequestCallback>;
let nextHandle = 1;

/** Runs the frames asked for so far, at page time `now`. */
function frame(now: number): void {
  const due = [...queue];
  queue.clear();
  for (const [, callback] of due) callback(now);
}

beforeEach(() => {
  queue = new Map();
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
    const handle = nextHandle++;
    queue.set(handle, callback);
    return handle;
  });
  vi.stubGlobal('cancelAnimationFrame', (handle: number) => void queue.delete(handle));
});
afterEach(() => vi.unstubAllGlobals());

/** A node as d3 sees one (the tests need no DOM). */
const node = () => ({}) as Element;

describe('the d3-transition stand-in', () => {
  it('is what the package names resolve to, outside the stand-ins themselves', () => {
    expect(packageInterrupt).toBe(interrupt);
    expect(packageInterpolate).toBe(interpolate);
  });

  it('starts on the next frame, calls its tweens with eased time up to exactly 1, then ends', () => {
    const n = node();
    const seen: string[] = [];
    const ts: number[] = [];
    select(n).transition().duration(100).ease((t) => t * t)
      .on('start.a', function () { seen.push(`start ${this === n}`); })
      .on('end', function (datum, index) { seen.push(`end ${this === n} ${String(datum)} ${index}`); })
      .tween('t', function () {
        seen.push(`tween made on ${this === n ? 'the node' : 'another'}`);
        return (t) => void ts.push(t);
      });
    expect(seen).toEqual([]);

    frame(1000);
    expect(seen).toEqual(['start true', 'tween made on the node']);
    frame(1050);
    frame(1100);
    expect(ts).toEqual([0, 0.25, 1]);
    expect(seen.at(-1)).toBe('end true undefined 0');
    expect(queue.size).toBe(0);
  });

  it('defaults to 250 ms and cubic in-out, as d3-transition does', () => {
    const ts: number[] = [];
    select(node()).transition().tween('t', () => (t) => void ts.push(t));
    frame(0);
    frame(125);
    frame(250);
    expect(ts).toEqual([0, 0.5, 1]);
  });

  it('interrupt(node) stops a running transition with an interrupt event and no end; one not started gets a cancel', () => {
    const n = node();
    const events: string[] = [];
    const listen = (name: string) => (type: string) => () => void events.push(`${name} ${type}`);
    const running = listen('running');
    select(n).transition().duration(100).on('start', running('start')).on('interrupt', running('interrupt')).on('end', running('end')).tween('t', () => () => undefined);
    frame(0);
    interrupt(n);
    frame(200);
    expect(events).toEqual(['running start', 'running interrupt']);

    const waiting = listen('waiting');
    select(n).transition().on('start', waiting('start')).on('cancel', waiting('cancel'));
    select(n).interrupt();
    frame(300);
    expect(events.slice(2)).toEqual(['waiting cancel']);
  });

  it('a newer transition of the same name interrupts the older as it starts; other names are left alone', () => {
    const n = node();
    const events: string[] = [];
    select(n).transition().duration(100).on('interrupt', () => void events.push('first interrupted')).on('end', () => void events.push('first ended'));
    select(n).transition('other').duration(100).on('end', () => void events.push('other ended'));
    frame(0);
    select(n).transition().duration(100).on('end', () => void events.push('second ended'));
    frame(50);
    frame(150);
    expect(events).toEqual(['first interrupted', 'other ended', 'second ended']);
  });

  it('refuses what it does not offer instead of ignoring it', () => {
    const t = select(node()).transition();
    expect(() => t.on('tick', () => undefined)).toThrow(/unknown transition event: tick/);
    expect((t as unknown as Record<string, unknown>).attr).toBeUndefined();
  });
});

describe('the d3-interpolate stand-in', () => {
  it('interpolates arrays of numbers linearly and refuses anything else', () => {
    expect(interpolate([0, 10, 100], [10, 20, 50])(0.5)).toEqual([5, 15, 75]);
    expect(() => interpolate('a' as unknown as number[], [1])).toThrow(/arrays of numbers/);
    expect(() => interpolate([1, 2], [1])).toThrow(/arrays of numbers/);
  });

  it('zooms as d3-interpolate\'s interpolateZoom does, duration included', async () => {
    // The package itself, by path: its name resolves to the stand-in here.
    const real = (await import(REAL_INTERPOLATE)) as typeof D3Interpolate;
    expect(typeof real.interpolateRgb).toBe('function');
    const views: [number, number, number][][] = [
      [[0, 0, 100], [50, 0, 100]],
      [[10, 20, 800], [10, 20, 200]],
      [[-300, 40, 1200], [900, -500, 90]],
      [[5, 5, 50], [5, 5 + 1e-7, 50]],
    ];
    for (const [a, b] of views) {
      const ours = interpolateZoom(a!, b!);
      const theirs = real.interpolateZoom(a!, b!);
      expect(ours.duration).toBeCloseTo(theirs.duration, 9);
      for (const t of [0, 0.1, 0.37, 0.5, 0.9, 1]) {
        ours(t).forEach((v, k) => expect(v).toBeCloseTo(theirs(t)[k]!, 9));
      }
    }
  });
});

describe('d3-zoom on the stand-ins, as React Flow drives it', () => {
  function zoomed() {
    const n = node();
    const events: string[] = [];
    const behaviour = zoom().extent([[0, 0], [800, 600]]).on('start', () => void events.push('zoom start')).on('end', () => void events.push('zoom end'));
    return { n, events, behaviour, at: () => zoomTransform(n) };
  }

  it('animates the view to a transform through the transition React Flow hands it, ending exactly there', () => {
    const { n, events, behaviour, at } = zoomed();
    const target = zoomIdentity.translate(120, -40).scale(2);
    let done = false;
    // React Flow: selection.transition().duration(ms).ease(fn).on('end', resolve), with the zoom interpolator.
    const transition = select(n).transition().duration(200).ease((t) => t).on('end', () => void (done = true));
    behaviour.interpolate(interpolateZoom).transform(transition as never, target);

    frame(0);
    expect(events).toEqual(['zoom start']);
    frame(100);
    const midway: ZoomTransform = at();
    expect(midway.k).toBeGreaterThan(1);
    expect(midway.k).toBeLessThan(2);
    frame(200);
    expect(at()).toEqual(target);
    expect(events).toEqual(['zoom start', 'zoom end']);
    expect(done).toBe(true);
  });

  it('takes the linear interpolator React Flow offers as well', () => {
    const { n, behaviour, at } = zoomed();
    const transition = select(n).transition().duration(100).ease((t) => t);
    behaviour.interpolate(interpolate as never).transform(transition as never, zoomIdentity.translate(100, 0));
    frame(0);
    frame(50);
    expect(at().x).toBeCloseTo(50);
    frame(100);
    expect(at().x).toBe(100);
  });

  it('a gesture (interrupt) stops the animation where it is and ends the zoom', () => {
    const { n, events, behaviour, at } = zoomed();
    let done = false;
    const transition = select(n).transition().duration(200).ease((t) => t).on('end', () => void (done = true));
    behaviour.transform(transition as never, zoomIdentity.translate(200, 0));
    frame(0);
    frame(100);
    const where = at().x;
    interrupt(n);
    frame(200);
    expect(at().x).toBe(where);
    expect(events).toEqual(['zoom start', 'zoom end']);
    expect(done).toBe(false);
  });
});
