// sourceSecondsAt: a time of the cut's output placed in its source.
import { describe, expect, it } from 'vitest';
import { sourceSecondsAt } from './cut-timeline.ts';

describe('sourceSecondsAt', () => {
  it('uncut: the same time; past the end: none', () => {
    expect(sourceSecondsAt([{ start: 0, end: 60 }], 10, 42)).toBe(42);
    expect(sourceSecondsAt([{ start: 0, end: 60 }], 10, 61)).toBeNull();
  });

  it('a trimmed start moves every time later by what was trimmed', () => {
    expect(sourceSecondsAt([{ start: 5, end: 60 }], 10, 10)).toBe(15);
  });

  it('after a removed stretch, later by what was removed less the crossfade of the splice', () => {
    const kept = [{ start: 0, end: 20 }, { start: 30, end: 60 }];
    expect(sourceSecondsAt(kept, 0, 10)).toBe(10);
    expect(sourceSecondsAt(kept, 0, 20)).toBe(30);
    expect(sourceSecondsAt(kept, 0, 25)).toBe(35);
    // A 100 ms crossfade: the second region begins 0.1 s earlier in the output.
    expect(sourceSecondsAt(kept, 100, 19.9)).toBeCloseTo(30, 9);
    expect(sourceSecondsAt(kept, 100, 25)).toBeCloseTo(35.1, 9);
    // The output is 49.9 s long.
    expect(sourceSecondsAt(kept, 100, 49.9)).toBeCloseTo(60, 9);
    expect(sourceSecondsAt(kept, 100, 50)).toBeNull();
    expect(sourceSecondsAt([], 0, 0)).toBeNull();
  });
});
