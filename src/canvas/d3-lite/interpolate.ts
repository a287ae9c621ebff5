/**
 * d3-interpolate as React Flow and d3-zoom use it (the plugin is scripts/d3-lite.ts): the smooth
 * zoom of animated view changes (`interpolateZoom`) and the generic `interpolate`, which React Flow
 * passes to d3-zoom only for a view change asked to be 'linear' (the editor never asks). The
 * package itself cannot be used for the first alone: its module builds the colour interpolators
 * as it loads, which keeps d3-color and all of them in the page (about 5 kB gzipped of its start).
 *
 * `interpolateZoom` is d3-interpolate's own (src/zoom.js, v3.0.2, with its default ρ = √2),
 * Copyright 2010-2026 Mike Bostock, ISC license; tests/editor/d3-lite.test.ts checks it gives the
 * package's figures. After van Wijk and Nuij, "Smooth and efficient zooming and panning" (2003).
 */

const EPSILON2 = 1e-12;
const RHO = Math.SQRT2;
const RHO2 = 2;
const RHO4 = 4;

const cosh = (x: number) => ((x = Math.exp(x)) + 1 / x) / 2;
const sinh = (x: number) => ((x = Math.exp(x)) - 1 / x) / 2;
const tanh = (x: number) => ((x = Math.exp(2 * x)) - 1) / (x + 1);

export type ZoomView = [x: number, y: number, width: number];

/** From view p0 to view p1 (centre and width), zooming out and in along the way as needed. */
export function interpolateZoom(p0: ZoomView, p1: ZoomView): ((t: number) => ZoomView) & { duration: number } {
  const [ux0, uy0, w0] = p0;
  const [ux1, uy1, w1] = p1;
  const dx = ux1 - ux0;
  const dy = uy1 - uy0;
  const d2 = dx * dx + dy * dy;
  let S: number;
  let i: (t: number) => ZoomView;
  if (d2 < EPSILON2) {
    // Nearly the same centre: zoom only.
    S = Math.log(w1 / w0) / RHO;
    i = (t) => [ux0 + t * dx, uy0 + t * dy, w0 * Math.exp(RHO * t * S)];
  } else {
    const d1 = Math.sqrt(d2);
    const b0 = (w1 * w1 - w0 * w0 + RHO4 * d2) / (2 * w0 * RHO2 * d1);
    const b1 = (w1 * w1 - w0 * w0 - RHO4 * d2) / (2 * w1 * RHO2 * d1);
    const r0 = Math.log(Math.sqrt(b0 * b0 + 1) - b0);
    const r1 = Math.log(Math.sqrt(b1 * b1 + 1) - b1);
    S = (r1 - r0) / RHO;
    i = (t) => {
      const s = t * S;
      const coshr0 = cosh(r0);
      const u = (w0 / (RHO2 * d1)) * (coshr0 * tanh(RHO * s + r0) - sinh(r0));
      return [ux0 + u * dx, uy0 + u * dy, (w0 * coshr0) / cosh(RHO * s + r0)];
    };
  }
  return Object.assign(i, { duration: (Math.abs(S) * 1000 * RHO) / Math.SQRT2 });
}

/** Linear, for arrays of numbers of one length (what d3-zoom hands it); refuses anything else. */
export function interpolate(a: readonly number[], b: readonly number[]): (t: number) => number[] {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length || ![...a, ...b].every((v) => typeof v === 'number')) {
    throw new TypeError('interpolate (src/canvas/d3-lite) takes two arrays of numbers of one length');
  }
  return (t) => a.map((v, i) => v + (b[i]! - v) * t);
}
