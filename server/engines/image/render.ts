/**
 * Scene to working field: a textured sky and ground (or water), then the scene's objects back
 * to front. The field is small (a quarter of the output size on each side); upscale.ts brings
 * it to the requested size, which is where a diffusion model's latent is decoded too.
 */
import { createField, valueNoise, type Field } from './field';
import { hashInts } from '../random';
import { type Scene } from './prompt-field';
import { drawObject, PAINT_ORDER } from './shapes';

/** Paints the scene at w x h. */
export function renderScene(scene: Scene, w: number, h: number): Field {
  const f = createField(w, h);
  paintBackground(f, scene);
  for (const kind of PAINT_ORDER) {
    for (const o of scene.objects) if (o.kind === kind) drawObject(f, o, scene);
  }
  return f;
}

function paintBackground(f: Field, scene: Scene): void {
  const { width: w, height: h, data } = f;
  const coarse = valueNoise(w, h, 5, 5, hashInts(scene.seed, 1));
  const fine = valueNoise(w, h, 19, 17, hashInts(scene.seed, 2));
  // Water is streaky: many rows of lattice, few columns.
  const streaks = scene.water ? valueNoise(w, h, 3, Math.max(8, h >> 2), hashInts(scene.seed, 3)) : undefined;
  const horizonRow = scene.horizon * h;
  const { skyTop, skyBottom, groundFar, groundNear } = scene;
  for (let y = 0; y < h; y++) {
    const inSky = y < horizonRow;
    const t = inSky ? y / Math.max(1, horizonRow) : (y - horizonRow) / Math.max(1, h - horizonRow);
    const top = inSky ? skyTop : groundFar;
    const bottom = inSky ? skyBottom : groundNear;
    // Sky gradients ease toward the horizon; ground darkens toward the viewer.
    const e = inSky ? t * t * (3 - 2 * t) : t;
    const r = top[0] + (bottom[0] - top[0]) * e;
    const g = top[1] + (bottom[1] - top[1]) * e;
    const b = top[2] + (bottom[2] - top[2]) * e;
    const amount = inSky ? 9 : 20;
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const n = 0.65 * coarse[p]! + 0.35 * fine[p]!;
      let dr = n * amount;
      let dg = n * amount;
      let db = n * amount;
      if (!inSky && streaks) {
        // Ripples: bright crests reflecting the sky, dark troughs.
        const s = streaks[p]! * 24 * (0.4 + t);
        dr = s + (skyBottom[0] - r) * 0.25 * (1 - t);
        dg = s + (skyBottom[1] - g) * 0.25 * (1 - t);
        db = s + (skyBottom[2] - b) * 0.25 * (1 - t);
      } else {
        // Hue drift across the frame so flat areas are never a single colour.
        dr += fine[p]! * 5;
        db -= coarse[p]! * 5;
      }
      const i = p * 3;
      data[i] = r + dr;
      data[i + 1] = g + dg;
      data[i + 2] = b + db;
    }
  }
}
