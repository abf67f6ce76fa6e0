import { describe, expect, it } from 'vitest';
import { AUTO_ADD_OFF, autoAddMatches, autoAddRuleOf, normaliseAutoAddRule } from './auto-add.ts';

const on = (over: Partial<{ Tags: string[]; EpisodeType: 'Full' | 'Trailer' | 'Bonus' | null }> = {}) => ({ Enabled: true, Tags: [], EpisodeType: null, ...over });

describe('autoAddMatches', () => {
  it('takes every live clip when the rule is on with no conditions', () => {
    expect(autoAddMatches(on(), { Tags: [], EpisodeType: null })).toBe(true);
    expect(autoAddMatches(on(), { Tags: ['news'], EpisodeType: 'Bonus' })).toBe(true);
  });

  it('takes nothing when the rule is off or absent, and never a deleted clip', () => {
    expect(autoAddMatches(AUTO_ADD_OFF, { Tags: [] })).toBe(false);
    expect(autoAddMatches(null, { Tags: [] })).toBe(false);
    expect(autoAddMatches(undefined, { Tags: [] })).toBe(false);
    expect(autoAddMatches(on(), { Deleted: true, Tags: [] })).toBe(false);
  });

  it('with tags, takes a clip holding any one of them, without case or surrounding spaces', () => {
    const rule = on({ Tags: ['Interview', ' sport '] });
    expect(autoAddMatches(rule, { Tags: ['interview'] })).toBe(true);
    expect(autoAddMatches(rule, { Tags: ['weather', 'SPORT'] })).toBe(true);
    expect(autoAddMatches(rule, { Tags: ['weather'] })).toBe(false);
    expect(autoAddMatches(rule, { Tags: [] })).toBe(false);
    expect(autoAddMatches(rule, { Tags: null })).toBe(false);
  });

  it('with an episode type, takes only clips of that type; a clip with none is a Full episode', () => {
    expect(autoAddMatches(on({ EpisodeType: 'Bonus' }), { EpisodeType: 'Bonus' })).toBe(true);
    expect(autoAddMatches(on({ EpisodeType: 'Bonus' }), { EpisodeType: 'Full' })).toBe(false);
    expect(autoAddMatches(on({ EpisodeType: 'Full' }), { EpisodeType: null })).toBe(true);
    expect(autoAddMatches(on({ EpisodeType: 'Trailer' }), { EpisodeType: null })).toBe(false);
  });

  it('with both, needs both', () => {
    const rule = on({ Tags: ['news'], EpisodeType: 'Full' });
    expect(autoAddMatches(rule, { Tags: ['news'], EpisodeType: 'Full' })).toBe(true);
    expect(autoAddMatches(rule, { Tags: ['news'], EpisodeType: 'Trailer' })).toBe(false);
    expect(autoAddMatches(rule, { Tags: ['other'], EpisodeType: 'Full' })).toBe(false);
  });

  it('a rule whose tags are all blank takes any clip (it has no tag condition)', () => {
    expect(autoAddMatches(on({ Tags: ['  ', ''] }), { Tags: [] })).toBe(true);
  });
});

describe('normaliseAutoAddRule and autoAddRuleOf', () => {
  it('trims tags, drops empty ones and repeats that differ only in case, keeping the first spelling', () => {
    expect(normaliseAutoAddRule(on({ Tags: [' News ', 'news', '', 'Sport', 'NEWS '] }))).toEqual(on({ Tags: ['News', 'Sport'] }));
  });

  it('a playlist without a rule has the rule that is off', () => {
    expect(autoAddRuleOf({})).toEqual(AUTO_ADD_OFF);
    expect(autoAddRuleOf({ AutoAdd: null })).toEqual(AUTO_ADD_OFF);
    expect(autoAddRuleOf({ AutoAdd: on({ Tags: ['x'] }) })).toEqual(on({ Tags: ['x'] }));
  });
});
