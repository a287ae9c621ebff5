/** The ControlNet preprocessors on their own: what each map holds for a known picture. */
import { describe, expect, it } from 'vitest';
import { canny } from '../../server/engines/image/edges';
import { depthMap, lineartMap, scribbleMap } from '../../server/engines/image/preprocess';
import { drawLimbs, fitSkeleton, poseMap } from '../../server/engines/image/pose';

const W = 200;
const H = 200;

/** A grey plane with a bright square (60..140 on both axes). */
function square(inside = 220, outside = 30): Uint8Array {
  const p = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) p[y * W + x] = x >= 60 && x < 140 && y >= 60 && y < 140 ? inside : outside;
  return p;
}

const count = (plane: Uint8Array, pred: (x: number, y: number) => boolean) => {
  let n = 0;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (plane[y * W + x]! > 0 && pred(x, y)) n++;
  return n;
};

describe('canny', () => {
  it('traces a square with a thin closed outline and nothing inside or outside', () => {
    const edges = canny(square(), W, H);
    const total = count(edges, () => true);
    const onBorder = count(edges, (x, y) => (Math.abs(x - 60) <= 1 || Math.abs(x - 139) <= 1 || Math.abs(y - 60) <= 1 || Math.abs(y - 139) <= 1) && x >= 58 && x <= 141 && y >= 58 && y <= 141);
    expect(onBorder).toBe(total);
    // Non-maximum suppression leaves one pixel across the edge: about the perimeter (4 x 80), not a thick band.
    expect(total).toBeGreaterThan(280);
    expect(total).toBeLessThan(360);
  });

  it('keeps a weak edge connected to a strong one (hysteresis) and drops an isolated weak one', () => {
    const p = new Uint8Array(W * H).fill(100);
    // A strong step (0 -> 100) along x = 40, continued as a weak step (100 -> 125) along the same line...
    for (let y = 0; y < H; y++) for (let x = 0; x < 40; x++) p[y * W + x] = y < 100 ? 0 : 75;
    // ...and an isolated weak step along x = 150.
    for (let y = 0; y < H; y++) for (let x = 150; x < W; x++) p[y * W + x] = 125;
    const edges = canny(p, W, H, 100, 200);
    expect(count(edges, (x, y) => Math.abs(x - 40) <= 1 && y > 110 && y < 190)).toBeGreaterThan(70);
    expect(count(edges, (x) => Math.abs(x - 150) <= 1)).toBe(0);
  });

  it('finds nothing in a flat image', () => {
    expect(count(canny(new Uint8Array(W * H).fill(90), W, H), () => true)).toBe(0);
  });
});

describe('depth', () => {
  it('puts what stands out from the border in front, and lower in the frame nearer', async () => {
    const grey = square();
    const rgb = new Uint8Array(W * H * 3);
    for (let p = 0; p < W * H; p++) rgb.fill(grey[p]!, p * 3, p * 3 + 3);
    const d = await depthMap(rgb, grey, W, H);
    expect(d[100 * W + 100]!).toBeGreaterThan(d[100 * W + 20]! + 60);
    expect(d[190 * W + 20]!).toBeGreaterThan(d[10 * W + 20]! + 30);
  });
});

describe('lineart and scribble', () => {
  it('lineart draws the dark line of a drawing as a thin white line', async () => {
    const p = new Uint8Array(W * H).fill(240);
    for (let y = 20; y < 180; y++) for (let x = 99; x <= 101; x++) p[y * W + x] = 20;
    const lines = await lineartMap(p, W, H);
    expect(lines[100 * W + 100]!).toBeGreaterThan(150);
    expect(count(lines, (x) => Math.abs(x - 100) > 6)).toBe(0);
  });

  it('scribble keeps the main contour as a thick stroke', async () => {
    const lines = await scribbleMap(square(), W, H);
    expect(lines[100 * W + 60]!).toBe(255);
    expect(count(lines, (x, y) => Math.abs(x - 60) < 4 && y > 70 && y < 130)).toBeGreaterThan(120);
    expect(lines[100 * W + 100]!).toBe(0);
  });
});

describe('pose (a fitted stick figure, not a pose network)', () => {
  /** A figure with arms stretched to the left and right, legs apart. */
  function figure(): Uint8Array {
    const rgb = new Uint8Array(W * H * 3).fill(230);
    const paint = (x: number, y: number) => rgb.set([40, 40, 140], (y * W + x) * 3);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const head = (x - 100) ** 2 + (y - 30) ** 2 < 14 ** 2;
        const torso = x > 85 && x < 115 && y > 40 && y < 110;
        const arms = y > 50 && y < 60 && x > 30 && x < 170;
        const legs = y >= 110 && y < 185 && (Math.abs(x - (100 - (y - 110) * 0.4)) < 6 || Math.abs(x - (100 + (y - 110) * 0.4)) < 6);
        if (head || torso || arms || legs) paint(x, y);
      }
    }
    return rgb;
  }

  it('reaches the hands to the ends of the arms and the feet to the ground', () => {
    const limbs = fitSkeleton(figure(), W, H)!;
    expect(limbs).toBeDefined();
    const points = limbs.flat();
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    expect(Math.min(...xs)).toBeLessThan(40);
    expect(Math.max(...xs)).toBeGreaterThan(160);
    expect(Math.max(...ys)).toBeGreaterThan(175);
    expect(Math.min(...ys)).toBeLessThan(30);
  });

  it('draws limbs as white strokes, and gives an empty map when there is no figure', () => {
    const map = poseMap(figure(), W, H);
    expect(count(map, () => true)).toBeGreaterThan(300);
    expect(count(poseMap(new Uint8Array(W * H * 3).fill(200), W, H), () => true)).toBe(0);
    expect(count(drawLimbs([[[10, 10], [50, 10]]], W, H, 4), (_x, y) => Math.abs(y - 10) > 2)).toBe(0);
  });
});
