// The rules of a program's monetization, video monetization and headliner videos
// (src/domain/monetization.ts): field-by-field inheritance with its sources, the merge patch,
// each field's check at its name, and what only the values in effect can say.
import { describe, expect, it } from 'vitest';
import { DEFAULT_AD_MARKER_RULES } from './ad-markers.ts';
import {
  contrastRatio,
  emptyOwn,
  HEADLINER_DEFAULTS,
  mergeOwn,
  MONETIZATION_DEFAULTS,
  normalizeOwn,
  ownOf,
  resolveSetting,
  settingErrors,
} from './monetization.ts';

const own = (values: Record<string, unknown>) => ({ ...emptyOwn('Monetization'), ...values });
const fields = (problems: Array<{ field: string }>) => problems.map((p) => p.field);

describe('inheritance', () => {
  it('takes each field from the nearest level that sets it, and says whose it is and what the program would inherit', () => {
    const organization = own({ DynamicAdsEnabled: true, CpmFloor: { Amount: 18.5, Currency: 'EUR' } });
    const program = own({ CpmFloor: { Amount: 25, Currency: 'USD' } });
    const r = resolveSetting('Monetization', organization, program);
    expect(r.values).toEqual({ ...MONETIZATION_DEFAULTS, DynamicAdsEnabled: true, CpmFloor: { Amount: 25, Currency: 'USD' } });
    expect(r.sources).toEqual({ DynamicAdsEnabled: 'Organization', AdPositions: 'Default', MemberDownloadsAdFree: 'Default', HouseAdsFallback: 'Default', CpmFloor: 'Program' });
    expect(r.inherited.CpmFloor).toEqual({ Amount: 18.5, Currency: 'EUR' });
    expect(r.inheritedSources.CpmFloor).toBe('Organization');
  });

  it('reads a row that never set anything as every field inherited, and keeps nothing set as null', () => {
    expect(ownOf('HeadlinerVideos', undefined)).toEqual({ AspectRatios: null, TranscriptEnabled: null, BackgroundColor: null, ForegroundColor: null });
    expect(normalizeOwn('Monetization', emptyOwn('Monetization'))).toBeNull();
  });

  it('merges a patch: a field left out is kept, null inherits it again, a null patch drops them all', () => {
    const current = own({ HouseAdsFallback: true, CpmFloor: { Amount: 5, Currency: 'USD' } });
    expect(mergeOwn('Monetization', current, { CpmFloor: null, DynamicAdsEnabled: false })).toEqual(own({ HouseAdsFallback: true, DynamicAdsEnabled: false }));
    expect(mergeOwn('Monetization', current, null)).toEqual(emptyOwn('Monetization'));
  });

  it('keeps positions, aspect ratios and colours in one form', () => {
    expect(normalizeOwn('Monetization', own({ AdPositions: [{ Type: 'PostRoll', MaxAds: 1 }, { Type: 'PreRoll', MaxAds: 2 }] }))?.AdPositions).toEqual([
      { Type: 'PreRoll', MaxAds: 2 },
      { Type: 'PostRoll', MaxAds: 1 },
    ]);
    expect(normalizeOwn('HeadlinerVideos', { AspectRatios: ['16:9', '1:1'], TranscriptEnabled: null, BackgroundColor: '0a0b0c', ForegroundColor: '#ffffff' })).toEqual({
      AspectRatios: ['1:1', '16:9'],
      TranscriptEnabled: null,
      BackgroundColor: '#0A0B0C',
      ForegroundColor: '#FFFFFF',
    });
  });
});

describe('checks', () => {
  it('refuses a CPM floor out of range, with fractions of a cent, or in an unknown currency, at the field', () => {
    expect(fields(settingErrors('Monetization', 'Program', own({ CpmFloor: { Amount: -0.01, Currency: 'USD' } }), null, null))).toEqual(['CpmFloor.Amount']);
    expect(fields(settingErrors('Monetization', 'Program', own({ CpmFloor: { Amount: 12.345, Currency: 'usd' } }), null, null))).toEqual(['CpmFloor.Amount', 'CpmFloor.Currency']);
    expect(settingErrors('Monetization', 'Program', own({ CpmFloor: { Amount: 12.35, Currency: 'EUR' } }), null, null)).toEqual([]);
    expect(settingErrors('Monetization', 'Program', own({ CpmFloor: { Amount: 1000, Currency: 'BRL' } }), null, null)).toEqual([]);
  });

  it('holds a program’s own positions to its ad-marker rules, and not the organization’s', () => {
    const rules = { ...DEFAULT_AD_MARKER_RULES, MaxMidRolls: 0, MaxAdsPerBreak: 2 };
    const positions = own({ AdPositions: [{ Type: 'PreRoll', MaxAds: 3 }, { Type: 'MidRoll', MaxAds: 1 }] });
    const problems = settingErrors('Monetization', 'Program', positions, null, rules);
    expect(fields(problems)).toEqual(['AdPositions.0.MaxAds', 'AdPositions.1.Type']);
    expect(problems[0]!.error).toMatchObject({ message: 'domain_ad_violation_too_many_ads', params: { max: 2 } });
    expect(settingErrors('Monetization', 'Organization', positions, null, rules)).toEqual([]);
    expect(fields(settingErrors('VideoMonetization', 'Program', { VideoAdsEnabled: null, VideoAdPositions: ['MidRoll'] }, null, rules))).toEqual(['VideoAdPositions.0']);
  });

  it('needs a position to sell when ads are on in effect, the switch possibly inherited', () => {
    const organization = own({ DynamicAdsEnabled: true });
    expect(fields(settingErrors('Monetization', 'Program', own({ AdPositions: [] }), organization, null))).toEqual(['AdPositions']);
    expect(settingErrors('Monetization', 'Program', own({ AdPositions: [] }), null, null)).toEqual([]);
    expect(fields(settingErrors('VideoMonetization', 'Program', { VideoAdsEnabled: true, VideoAdPositions: [] }, null, null))).toEqual(['VideoAdPositions']);
  });

  it('refuses headliner colours too alike to read at the colour the level sets', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    const near = { ...emptyOwn('HeadlinerVideos'), BackgroundColor: '#FCA000' };
    // The inherited foreground (#FCA311) on this background: refused at the background, the one set here.
    expect(fields(settingErrors('HeadlinerVideos', 'Program', near, null, null))).toEqual(['BackgroundColor']);
    expect(settingErrors('HeadlinerVideos', 'Program', { ...near, ForegroundColor: '#000000' }, null, null)).toEqual([]);
    expect(fields(settingErrors('HeadlinerVideos', 'Program', { ...emptyOwn('HeadlinerVideos'), AspectRatios: ['1:1', '1:1'], ForegroundColor: 'red' }, null, null))).toEqual(['AspectRatios.1', 'ForegroundColor']);
    expect(resolveSetting('HeadlinerVideos', null, null).values).toEqual(HEADLINER_DEFAULTS);
  });
});
