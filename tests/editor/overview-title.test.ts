/** The overview's node titles: cut to about a node's width, since they are drawn unclipped. */
import { describe, expect, it } from 'vitest';
import { OVERVIEW_TITLE_UNITS, overviewTitle } from '../../src/canvas/overview-title';

describe('overviewTitle', () => {
  it('keeps a title that fits, exactly', () => {
    expect(overviewTitle('Text to image')).toBe('Text to image');
    expect(overviewTitle('x'.repeat(OVERVIEW_TITLE_UNITS))).toBe('x'.repeat(OVERVIEW_TITLE_UNITS));
    expect(overviewTitle('')).toBe('');
  });

  it('cuts a longer title and marks the cut, without a dangling space', () => {
    expect(overviewTitle('A lighthouse on a cliff at dusk')).toBe('A lighthouse on a cl…');
    expect(overviewTitle('abcdefghij klmnopqrstu', 10)).toBe('abcdefghij…');
  });

  it('counts wide characters double and never splits a surrogate pair', () => {
    expect(overviewTitle('灯台の絵を描く夜明けの海辺で', 10)).toBe('灯台の絵を…');
    expect(overviewTitle('🎨'.repeat(12), 10)).toBe(`${'🎨'.repeat(10)}…`);
  });
});
