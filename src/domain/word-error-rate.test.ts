import { describe, expect, it } from 'vitest';
import { werWords, wordEditDistance, wordErrorRate } from './word-error-rate.ts';

describe('word error rate', () => {
  it('normalizes case and punctuation, keeps apostrophes inside words, splits hyphens', () => {
    expect(werWords('Four score, and SEVEN years ago… “That’s” the battle-field!')).toEqual(['four', 'score', 'and', 'seven', 'years', 'ago', "that's", 'the', 'battle', 'field']);
    expect(werWords(" 'quoted' ")).toEqual(['quoted']);
    expect(werWords('')).toEqual([]);
  });

  it('counts substitutions, deletions and insertions', () => {
    expect(wordEditDistance(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(0);
    expect(wordEditDistance(['a', 'b', 'c'], ['a', 'x', 'c'])).toBe(1); // substitution
    expect(wordEditDistance(['a', 'b', 'c'], ['a', 'c'])).toBe(1); // deletion
    expect(wordEditDistance(['a', 'b', 'c'], ['a', 'b', 'y', 'c'])).toBe(1); // insertion
    expect(wordEditDistance(['a', 'b', 'c'], [])).toBe(3);
    expect(wordEditDistance([], ['a', 'b'])).toBe(2);
    // Order matters: a swap is two edits, not zero.
    expect(wordEditDistance(['a', 'b'], ['b', 'a'])).toBe(2);
  });

  it('is edits over the words said', () => {
    expect(wordErrorRate('Four score and seven years ago.', 'four score and seven years ago')).toBe(0);
    expect(wordErrorRate('four score and seven years ago', 'for score and seven years')).toBeCloseTo(2 / 6);
    expect(wordErrorRate('four score', 'four score and seven years ago')).toBe(2);
    expect(wordErrorRate('', '')).toBe(0);
    expect(wordErrorRate('', 'noise')).toBe(1);
  });
});
