import { describe, expect, it } from 'vitest';
import {
  MAX_BRUSH, MIN_BRUSH, MaskHistory, asMaskPaint, coverageOf, describeCoverage, fitBox, greyToCoverage, maskCommand,
  maskSizeFor, stepBrush, strokeWidth, toMaskPoint, type MaskOp,
} from '../../src/mask/mask-model';

const stroke = (n: number): MaskOp => ({ type: 'stroke', tool: 'brush', points: [{ x: n, y: n, w: 10 }] });
const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) =>
  maskCommand({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });

describe('the painter’s own history', () => {
  it('undoes and redoes step by step, and a new step drops what could be redone', () => {
    const h = new MaskHistory();
    h.push(stroke(1));
    h.push({ type: 'invert' });
    h.push(stroke(2));
    expect(h.undo()).toEqual(stroke(2));
    expect(h.undo()).toEqual({ type: 'invert' });
    expect(h.ops).toEqual([stroke(1)]);
    expect(h.canRedo).toBe(true);
    expect(h.redo()).toEqual({ type: 'invert' });
    expect(h.ops).toEqual([stroke(1), { type: 'invert' }]);
    h.push({ type: 'clear' });
    expect(h.canRedo).toBe(false);
    expect(h.redo()).toBeUndefined();
    expect(h.ops).toEqual([stroke(1), { type: 'invert' }, { type: 'clear' }]);
  });

  it('has nothing to undo at first, and undo past the start is harmless', () => {
    const h = new MaskHistory();
    expect(h.canUndo).toBe(false);
    expect(h.undo()).toBeUndefined();
    h.push(stroke(1));
    expect(h.undo()).toEqual(stroke(1));
    expect(h.undo()).toBeUndefined();
    expect(h.ops).toEqual([]);
  });

  it('hands back the oldest steps past its limit, to be baked into the starting image', () => {
    const h = new MaskHistory(3);
    expect([h.push(stroke(1)), h.push(stroke(2)), h.push(stroke(3))]).toEqual([[], [], []]);
    expect(h.push(stroke(4))).toEqual([stroke(1)]);
    expect(h.ops).toEqual([stroke(2), stroke(3), stroke(4)]);
  });
});

describe('keys in the painter', () => {
  it('maps the tool, size, invert, undo, redo and save keys', () => {
    expect(key('b')).toBe('brush');
    expect(key('B')).toBe('brush');
    expect(key('e')).toBe('eraser');
    expect(key('[')).toBe('smaller');
    expect(key(']')).toBe('larger');
    expect(key('x')).toBe('invert');
    expect(key('z', { ctrlKey: true })).toBe('undo');
    expect(key('z', { metaKey: true })).toBe('undo');
    expect(key('Z', { ctrlKey: true, shiftKey: true })).toBe('redo');
    expect(key('y', { ctrlKey: true })).toBe('redo');
    expect(key('s', { ctrlKey: true })).toBe('save');
  });

  it('leaves other keys and combinations alone', () => {
    expect(key('z')).toBeUndefined();
    expect(key('b', { ctrlKey: true })).toBeUndefined();
    expect(key('x', { altKey: true })).toBeUndefined();
    expect(key('X', { shiftKey: true })).toBeUndefined();
    expect(key('Enter')).toBeUndefined();
    expect(key('Escape')).toBeUndefined();
  });
});

describe('brush size and pressure', () => {
  it('steps by about a quarter, always by at least a pixel, within the limits', () => {
    expect(stepBrush(40, 1)).toBe(50);
    expect(stepBrush(50, -1)).toBe(40);
    expect(stepBrush(3, 1)).toBe(4);
    expect(stepBrush(3, -1)).toBe(MIN_BRUSH);
    expect(stepBrush(MIN_BRUSH, -1)).toBe(MIN_BRUSH);
    expect(stepBrush(MAX_BRUSH, 1)).toBe(MAX_BRUSH);
  });

  it('scales a pen stroke by its pressure when asked, never a mouse', () => {
    expect(strokeWidth(40, { pointerType: 'pen', pressure: 0.5 }, true)).toBe(20);
    expect(strokeWidth(40, { pointerType: 'pen', pressure: 0.01 }, true)).toBe(4);
    expect(strokeWidth(40, { pointerType: 'pen', pressure: 0.5 }, false)).toBe(40);
    expect(strokeWidth(40, { pointerType: 'pen', pressure: 0 }, true)).toBe(40);
    expect(strokeWidth(40, { pointerType: 'mouse', pressure: 0.5 }, true)).toBe(40);
  });
});

describe('the size painted at', () => {
  it('is the node’s resolution, or its engine’s default pair', () => {
    expect(maskSizeFor({ width: 832, height: 1216 })).toEqual({ width: 832, height: 1216 });
    expect(maskSizeFor({})).toEqual({ width: 1024, height: 1024 });
    expect(maskSizeFor({ engine: 'sd' })).toEqual({ width: 512, height: 512 });
    expect(maskSizeFor({ engine: 'sd', width: 768 })).toEqual({ width: 512, height: 512 });
    expect(maskSizeFor({ engine: 'nonsense', width: -4, height: 2.5 })).toEqual({ width: 1024, height: 1024 });
  });

  it('fits the window in the mask’s shape, and maps screen points to mask pixels', () => {
    expect(fitBox(1024, 512, 800, 800)).toEqual({ width: 800, height: 400 });
    expect(fitBox(832, 1216, 1000, 608)).toEqual({ width: 416, height: 608 });
    const rect = { left: 100, top: 50, width: 400, height: 200 };
    expect(toMaskPoint({ x: 300, y: 150 }, rect, { width: 1024, height: 512 })).toEqual({ x: 512, y: 256 });
    expect(toMaskPoint({ x: 100, y: 50 }, rect, { width: 1024, height: 512 })).toEqual({ x: 0, y: 0 });
  });

  it('reads a stored mask only when it has its base64 and a size', () => {
    expect(asMaskPaint({ b64: 'iVBOR', width: 8, height: 8 })).toEqual({ b64: 'iVBOR', width: 8, height: 8 });
    expect(asMaskPaint({ b64: 'iVBOR', width: 8 })).toBeNull();
    expect(asMaskPaint(null)).toBeNull();
    expect(asMaskPaint('iVBOR')).toBeNull();
  });
});

describe('pixels between a saved mask and the painting layer', () => {
  it('turns lightness into coverage in the tint colour, transparency counting as unpainted', () => {
    const px = new Uint8ClampedArray([255, 255, 255, 255, 0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 0]);
    greyToCoverage(px, [1, 2, 3]);
    expect([...px]).toEqual([1, 2, 3, 255, 1, 2, 3, 0, 1, 2, 3, 128, 1, 2, 3, 0]);
  });

  it('measures coverage from alpha and says it in words', () => {
    expect(coverageOf(new Uint8ClampedArray([0, 0, 0, 255, 0, 0, 0, 0]))).toBe(0.5);
    expect(coverageOf(new Uint8ClampedArray(0))).toBe(0);
    expect(describeCoverage(0)).toBe('none');
    expect(describeCoverage(0.001)).toBe('less than 1%');
    expect(describeCoverage(0.374)).toBe('37%');
    expect(describeCoverage(1)).toBe('all');
  });
});
