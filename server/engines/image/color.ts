/** Colour helpers shared by the image engine's passes. Channels are 0..255 floats. */

export type RGB = readonly [number, number, number];

/** '#rrggbb' to an RGB triple. */
export function hex(code: string): RGB {
  const n = Number.parseInt(code.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Hue in degrees, saturation and lightness in 0..1, to RGB. */
export function hsl(h: number, s: number, l: number): RGB {
  const hue = (((h % 360) + 360) % 360) / 60;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs((hue % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    hue < 1 ? [c, x, 0] : hue < 2 ? [x, c, 0] : hue < 3 ? [0, c, x] : hue < 4 ? [0, x, c] : hue < 5 ? [x, 0, c] : [c, 0, x];
  return [(r + m) * 255, (g + m) * 255, (b + m) * 255];
}

export function mix(a: RGB, b: RGB, t: number): RGB {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

export function scale(a: RGB, k: number): RGB {
  return [a[0] * k, a[1] * k, a[2] * k];
}

/** Rec. 601 luma, the weighting JPEG and most edge detectors use. */
export function luma(c: RGB): number {
  return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
}

export function clampByte(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

/** Pushes a colour's saturation by k around its own luma (k < 1 desaturates). */
export function saturate(c: RGB, k: number): RGB {
  const y = luma(c);
  return [clampByte(y + (c[0] - y) * k), clampByte(y + (c[1] - y) * k), clampByte(y + (c[2] - y) * k)];
}

/** Weighted mean of colours; `fallback` when the weights sum to nothing. */
export function weightedMean(entries: readonly { colour: RGB; weight: number }[], fallback: RGB): RGB {
  let r = 0;
  let g = 0;
  let b = 0;
  let w = 0;
  for (const e of entries) {
    r += e.colour[0] * e.weight;
    g += e.colour[1] * e.weight;
    b += e.colour[2] * e.weight;
    w += e.weight;
  }
  return w > 1e-6 ? [r / w, g / w, b / w] : fallback;
}
