/**
 * The things a scene is made of, painted onto the working field with soft edges and a little
 * shading so they read as forms rather than flat stickers. Coordinates are field pixels.
 */
import { blendAt, type Field } from './field';
import { mix, scale, type RGB } from './color';
import { Rng } from '../random';
import { type Scene, type SceneObject } from './prompt-field';

/** Soft-edged, shaded ellipse. `shade` darkens the lower right, as if lit from the upper left. */
export function ellipse(f: Field, cx: number, cy: number, rx: number, ry: number, colour: RGB, alpha: number, shade = 0.25): void {
  if (rx <= 0 || ry <= 0 || alpha <= 0) return;
  const { width: w, height: h, data } = f;
  const x0 = Math.max(0, Math.floor(cx - rx - 1));
  const x1 = Math.min(w - 1, Math.ceil(cx + rx + 1));
  const y0 = Math.max(0, Math.floor(cy - ry - 1));
  const y1 = Math.min(h - 1, Math.ceil(cy + ry + 1));
  const soft = 1.5 / Math.min(rx, ry);
  for (let y = y0; y <= y1; y++) {
    const ny = (y - cy) / ry;
    for (let x = x0; x <= x1; x++) {
      const nx = (x - cx) / rx;
      const d = Math.sqrt(nx * nx + ny * ny);
      if (d >= 1 + soft) continue;
      const cover = d <= 1 - soft ? 1 : (1 + soft - d) / (2 * soft);
      const k = 1 - shade * (0.35 * nx + 0.55 * ny + 0.3 * d * d);
      const i = (y * w + x) * 3;
      data[i] = data[i]! + (colour[0] * k - data[i]!) * cover * alpha;
      data[i + 1] = data[i + 1]! + (colour[1] * k - data[i + 1]!) * cover * alpha;
      data[i + 2] = data[i + 2]! + (colour[2] * k - data[i + 2]!) * cover * alpha;
    }
  }
}

/** Additive light falloff around a point: suns, lamps, neon. */
export function glow(f: Field, cx: number, cy: number, radius: number, colour: RGB, strength: number): void {
  const { width: w, height: h, data } = f;
  const reach = radius * 2.5;
  const x0 = Math.max(0, Math.floor(cx - reach));
  const x1 = Math.min(w - 1, Math.ceil(cx + reach));
  const y0 = Math.max(0, Math.floor(cy - reach));
  const y1 = Math.min(h - 1, Math.ceil(cy + reach));
  const inv = 1 / (radius * radius);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const d2 = ((x - cx) * (x - cx) + (y - cy) * (y - cy)) * inv;
      const a = strength * Math.exp(-d2);
      if (a < 0.004) continue;
      const i = (y * w + x) * 3;
      data[i] = data[i]! + colour[0] * a;
      data[i + 1] = data[i + 1]! + colour[1] * a;
      data[i + 2] = data[i + 2]! + colour[2] * a;
    }
  }
}

/** Axis-aligned rectangle with a one-pixel soft border. */
export function rect(f: Field, x0: number, y0: number, x1: number, y1: number, colour: RGB, alpha: number): void {
  const { width: w, height: h, data } = f;
  const ya = Math.max(0, Math.floor(y0));
  const yb = Math.min(h - 1, Math.ceil(y1));
  const xa = Math.max(0, Math.floor(x0));
  const xb = Math.min(w - 1, Math.ceil(x1));
  for (let y = ya; y <= yb; y++) {
    const cy = Math.min(1, y + 1 - y0, y1 - y);
    if (cy <= 0) continue;
    for (let x = xa; x <= xb; x++) {
      const cx = Math.min(1, x + 1 - x0, x1 - x);
      if (cx <= 0) continue;
      blendAt(data, (y * w + x) * 3, colour, cx * cy * alpha);
    }
  }
}

/** Upright triangle (apex on top) with soft slanted sides: pines, roofs. */
export function triangle(f: Field, cx: number, top: number, base: number, halfWidth: number, colour: RGB, alpha: number): void {
  const { width: w, height: h, data } = f;
  const y0 = Math.max(0, Math.floor(top));
  const y1 = Math.min(h - 1, Math.ceil(base));
  for (let y = y0; y <= y1; y++) {
    const t = (y - top) / Math.max(1, base - top);
    const half = halfWidth * t;
    const xa = Math.max(0, Math.floor(cx - half - 1));
    const xb = Math.min(w - 1, Math.ceil(cx + half + 1));
    for (let x = xa; x <= xb; x++) {
      const cover = Math.min(1, half + 0.5 - Math.abs(x - cx));
      if (cover <= 0) continue;
      const shade = x > cx ? 0.82 : 1;
      blendAt(data, (y * w + x) * 3, scale(colour, shade), cover * alpha);
    }
  }
}

/** A ridge of mountains across the frame, standing on the horizon. */
function mountains(f: Field, o: SceneObject, scene: Scene): void {
  const { width: w, height: h, data } = f;
  const rng = new Rng(o.seed);
  const base = o.y * h + 2;
  const waves = [0, 1, 2].map(() => ({ freq: rng.range(1.5, 6) * Math.PI * 2 / w, phase: rng.range(0, 6.3), amp: rng.range(0.3, 1) }));
  const norm = waves.reduce((s, v) => s + v.amp, 0);
  const snow = scene.light > 0.3 || o.size > 0.28;
  for (let x = 0; x < w; x++) {
    let p = 0;
    for (const v of waves) p += v.amp * Math.abs(Math.sin(x * v.freq + v.phase));
    const ridge = base - o.size * h * (0.35 + 0.65 * (p / norm));
    for (let y = Math.max(0, Math.floor(ridge)); y < Math.min(h, base); y++) {
      const cover = Math.min(1, y + 1 - ridge);
      const depth = (y - ridge) / Math.max(1, base - ridge);
      let c = mix(o.colour, scale(o.colour, 0.7), depth);
      if (snow && depth < 0.18) c = mix(c, [240, 244, 250], 0.75);
      blendAt(data, (y * w + x) * 3, c, cover * Math.min(1, 0.6 + 0.3 * o.weight));
    }
  }
}

function building(f: Field, o: SceneObject, scene: Scene): void {
  const h = f.height;
  const rng = new Rng(o.seed);
  const height = o.size * h;
  const width = height * rng.range(0.25, 0.45);
  const x0 = o.x * f.width - width / 2;
  const base = o.y * h;
  const alpha = Math.min(1, 0.7 + 0.3 * o.weight);
  rect(f, x0, base - height, x0 + width, base, o.colour, alpha);
  const lit: RGB = scene.light < -0.2 ? [255, 214, 120] : mix(o.colour, [200, 220, 240], 0.5);
  const cell = Math.max(2, Math.round(width / 5));
  for (let y = base - height + cell; y < base - cell; y += cell * 1.6) {
    for (let x = x0 + cell * 0.6; x < x0 + width - cell; x += cell * 1.5) {
      if (rng.next() < 0.65) rect(f, x, y, x + cell * 0.7, y + cell * 0.8, lit, alpha * 0.85);
    }
  }
}

/** Walls, a pitched roof, a door and a lit window when it is dark. */
function house(f: Field, o: SceneObject, scene: Scene): void {
  const height = o.size * f.height;
  const width = height * 1.2;
  const cx = o.x * f.width;
  const x0 = cx - width / 2;
  const base = o.y * f.height;
  rect(f, x0, base - height * 0.6, x0 + width, base, o.colour, 1);
  triangle(f, cx, base - height, base - height * 0.56, width * 0.62, scale(o.colour, 0.55), 1);
  rect(f, x0 + width * 0.42, base - height * 0.32, x0 + width * 0.58, base, scale(o.colour, 0.4), 1);
  const window: RGB = scene.light < -0.2 ? [255, 200, 110] : [170, 200, 225];
  rect(f, x0 + width * 0.12, base - height * 0.45, x0 + width * 0.3, base - height * 0.28, window, 1);
  rect(f, x0 + width * 0.7, base - height * 0.45, x0 + width * 0.88, base - height * 0.28, window, 1);
  if (scene.light < -0.2) glow(f, cx, base - height * 0.35, height * 0.5, [255, 170, 80], 0.25);
}

function tree(f: Field, o: SceneObject): void {
  const h = f.height;
  const rng = new Rng(o.seed);
  const cx = o.x * f.width;
  const base = o.y * h;
  const height = o.size * h;
  rect(f, cx - height * 0.04, base - height * 0.3, cx + height * 0.04, base, [80, 55, 35], 1);
  if (rng.next() < 0.55) {
    for (let k = 0; k < 3; k++) {
      const top = base - height * (1 - k * 0.2);
      triangle(f, cx, top, base - height * (0.25 + 0.05 * (2 - k)), height * (0.22 + k * 0.05), scale(o.colour, 0.85 + k * 0.08), 1);
    }
  } else {
    ellipse(f, cx, base - height * 0.62, height * 0.3, height * 0.36, o.colour, 1, 0.35);
  }
}

function figure(f: Field, o: SceneObject): void {
  const h = f.height;
  const cx = o.x * f.width;
  const base = o.y * h;
  const s = o.size * h;
  const clothes = scale(mix(o.colour, [60, 70, 110], 0.5), 0.8);
  const skin: RGB = mix([224, 172, 140], o.colour, 0.2);
  const alpha = Math.min(1, 0.75 + 0.25 * o.weight);
  rect(f, cx - s * 0.1, base - s * 0.42, cx - s * 0.02, base, scale(clothes, 0.7), alpha);
  rect(f, cx + s * 0.02, base - s * 0.42, cx + s * 0.1, base, scale(clothes, 0.7), alpha);
  ellipse(f, cx - s * 0.16, base - s * 0.52, s * 0.045, s * 0.17, scale(clothes, 0.85), alpha, 0.3);
  ellipse(f, cx + s * 0.16, base - s * 0.52, s * 0.045, s * 0.17, scale(clothes, 0.85), alpha, 0.3);
  ellipse(f, cx, base - s * 0.56, s * 0.14, s * 0.21, clothes, alpha, 0.3);
  rect(f, cx - s * 0.03, base - s * 0.8, cx + s * 0.03, base - s * 0.72, scale(skin, 0.85), alpha);
  ellipse(f, cx, base - s * 0.86, s * 0.075, s * 0.095, skin, alpha, 0.3);
  ellipse(f, cx, base - s * 0.925, s * 0.08, s * 0.045, scale(o.colour, 0.45), alpha, 0.2);
}

function animal(f: Field, o: SceneObject): void {
  const h = f.height;
  const rng = new Rng(o.seed);
  const dir = rng.next() < 0.5 ? -1 : 1;
  const cx = o.x * f.width;
  const base = o.y * h;
  const s = o.size * h;
  for (const lx of [-0.3, -0.15, 0.15, 0.3]) rect(f, cx + lx * s - s * 0.03, base - s * 0.3, cx + lx * s + s * 0.03, base, scale(o.colour, 0.7), 1);
  ellipse(f, cx, base - s * 0.42, s * 0.42, s * 0.2, o.colour, 1, 0.3);
  ellipse(f, cx + dir * s * 0.45, base - s * 0.62, s * 0.15, s * 0.14, o.colour, 1, 0.3);
  triangle(f, cx + dir * s * 0.42, base - s * 0.84, base - s * 0.7, s * 0.05, scale(o.colour, 0.8), 1);
}

function flower(f: Field, o: SceneObject): void {
  const cx = o.x * f.width;
  const cy = o.y * f.height;
  const r = Math.max(1, o.size * f.height * 0.5);
  rect(f, cx - 0.5, cy, cx + 0.5, cy + r * 3, [50, 110, 50], 1);
  for (let k = 0; k < 5; k++) {
    const a = (k / 5) * Math.PI * 2;
    ellipse(f, cx + Math.cos(a) * r, cy + Math.sin(a) * r, r * 0.8, r * 0.8, o.colour, 1, 0.2);
  }
  ellipse(f, cx, cy, r * 0.6, r * 0.6, [250, 210, 80], 1, 0.1);
}

function stars(f: Field, o: SceneObject): void {
  const rng = new Rng(o.seed);
  const area = f.width * f.height * Math.min(1, o.size);
  const count = Math.round((area / 260) * Math.min(1.5, o.weight));
  const maxY = Math.min(1, o.size) * f.height;
  for (let k = 0; k < count; k++) {
    const x = rng.int(f.width);
    const y = rng.int(Math.max(1, Math.floor(maxY)));
    blendAt(f.data, (y * f.width + x) * 3, [255, 255, 245], rng.range(0.4, 1));
  }
}

function cloud(f: Field, o: SceneObject): void {
  const rng = new Rng(o.seed);
  const cx = o.x * f.width;
  const cy = o.y * f.height;
  const s = o.size * f.height;
  for (let k = 0; k < 5; k++) {
    ellipse(f, cx + rng.range(-1.2, 1.2) * s, cy + rng.range(-0.25, 0.2) * s, s * rng.range(0.5, 0.9), s * rng.range(0.3, 0.5), o.colour, 0.8, 0.15);
  }
}

/** Paints one scene object. */
export function drawObject(f: Field, o: SceneObject, scene: Scene): void {
  const w = f.width;
  const h = f.height;
  switch (o.kind) {
    case 'sun':
      glow(f, o.x * w, o.y * h, o.size * h * 2.2, o.colour, 0.45);
      ellipse(f, o.x * w, o.y * h, o.size * h, o.size * h, o.colour, 1, 0.05);
      break;
    case 'moon':
      glow(f, o.x * w, o.y * h, o.size * h * 2, [120, 130, 170], 0.25);
      ellipse(f, o.x * w, o.y * h, o.size * h, o.size * h, o.colour, 1, 0.15);
      break;
    case 'planet':
      glow(f, o.x * w, o.y * h, o.size * h * 1.15, mix(o.colour, [140, 180, 255], 0.5), 0.35);
      ellipse(f, o.x * w, o.y * h, o.size * h, o.size * h, o.colour, 1, 0.75);
      ellipse(f, o.x * w, o.y * h, o.size * h * 1.7, o.size * h * 0.12, mix(o.colour, [230, 220, 200], 0.5), 0.55, 0);
      break;
    case 'glow':
      glow(f, o.x * w, o.y * h, o.size * h, o.colour, 0.6 * Math.min(1.5, o.weight));
      break;
    case 'stars': stars(f, o); break;
    case 'cloud': cloud(f, o); break;
    case 'mountain': mountains(f, o, scene); break;
    case 'building': building(f, o, scene); break;
    case 'house': house(f, o, scene); break;
    case 'tree': tree(f, o); break;
    case 'figure': figure(f, o); break;
    case 'animal': animal(f, o); break;
    case 'flower': flower(f, o); break;
    case 'blob': {
      const rng = new Rng(o.seed);
      const s = o.size * h;
      ellipse(f, o.x * w, o.y * h, s * rng.range(0.6, 1.3), s * rng.range(0.6, 1.1), o.colour, Math.min(1, 0.55 + 0.35 * o.weight), 0.3);
      break;
    }
  }
}

/** Back to front: sky things, then the land, then whatever stands in front. */
export const PAINT_ORDER: readonly SceneObject['kind'][] = [
  'stars', 'sun', 'moon', 'planet', 'cloud', 'mountain', 'building', 'house', 'tree', 'blob', 'animal', 'figure', 'flower', 'glow',
];
