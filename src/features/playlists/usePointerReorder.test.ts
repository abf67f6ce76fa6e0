import { describe, expect, it } from 'vitest';
import { dropIndex, slideOf } from './usePointerReorder.ts';

// Four rows 50 px apart, their middles at 25, 75, 125 and 175.
const CENTRES = [25, 75, 125, 175];

describe('dropping a dragged row', () => {
  it('lands where its middle has passed the middles of other rows', () => {
    expect(dropIndex(CENTRES, 0, 25)).toBe(0);
    expect(dropIndex(CENTRES, 0, 74)).toBe(0);
    expect(dropIndex(CENTRES, 0, 76)).toBe(1);
    expect(dropIndex(CENTRES, 0, 130)).toBe(2);
    expect(dropIndex(CENTRES, 0, 400)).toBe(3);
    expect(dropIndex(CENTRES, 3, -50)).toBe(0);
    expect(dropIndex(CENTRES, 2, 100)).toBe(2);
    expect(dropIndex(CENTRES, 2, 70)).toBe(1);
  });

  it('slides the rows it passed by one row towards where it came from', () => {
    expect([0, 1, 2, 3].map((i) => slideOf(i, 0, 2, 50))).toEqual([0, -50, -50, 0]);
    expect([0, 1, 2, 3].map((i) => slideOf(i, 3, 1, 50))).toEqual([0, 50, 50, 0]);
    expect([0, 1, 2, 3].map((i) => slideOf(i, 1, 1, 50))).toEqual([0, 0, 0, 0]);
  });
});
