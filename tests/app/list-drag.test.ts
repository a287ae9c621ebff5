/** Where a dragged row of the side panel's app lists lands, from the pointer and the rows' middles. */
import { describe, expect, it } from 'vitest';
import { dragClass, dropIndex } from '../../src/appview/list-drag';

// Four rows 30 px high, from y = 0.
const middles = [15, 45, 75, 105];

describe('dropIndex', () => {
  it('is the number of other rows whose middle is above the pointer', () => {
    expect(dropIndex(10, middles, 2)).toBe(0);
    expect(dropIndex(50, middles, 2)).toBe(2);
    expect(dropIndex(200, middles, 0)).toBe(3);
    expect(dropIndex(-50, middles, 3)).toBe(0);
  });

  it('stays where it started while the pointer is over its own row', () => {
    expect(dropIndex(70, middles, 2)).toBe(2);
    expect(dropIndex(80, middles, 2)).toBe(2);
    expect(dropIndex(40, middles, 1)).toBe(1);
  });
});

describe('dragClass', () => {
  it('marks the dragged row and a line where it would land', () => {
    expect(dragClass(null, 1)).toBe('');
    expect(dragClass({ from: 1, to: 1 }, 1)).toBe(' is-dragged');
    expect(dragClass({ from: 1, to: 1 }, 2)).toBe('');
    expect(dragClass({ from: 0, to: 2 }, 2)).toBe(' drop-after');
    expect(dragClass({ from: 3, to: 1 }, 1)).toBe(' drop-before');
    expect(dragClass({ from: 3, to: 1 }, 2)).toBe('');
  });
});
