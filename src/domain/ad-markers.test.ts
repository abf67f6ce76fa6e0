import { describe, expect, it } from 'vitest';
import {
  AD_MAX_ADS,
  adMarkerErrors,
  adMarkerRulesErrors,
  adMarkersToCsv,
  adMarkerViolations,
  DEFAULT_AD_MARKER_RULES,
  effectiveAdMarkerRules,
  normaliseAdMarkers,
  readAdMarkersCsv,
  type AdMarker,
  type AdMarkerRules,
} from './ad-markers.ts';
import { formatFormError } from './messages.ts';

const mid = (Seconds: number, MaxAds = 2): AdMarker => ({ Type: 'MidRoll', Seconds, MaxAds });
const pre: AdMarker = { Type: 'PreRoll', Seconds: null, MaxAds: 1 };
const post: AdMarker = { Type: 'PostRoll', Seconds: null, MaxAds: 1 };
const rules = (r: Partial<AdMarkerRules>): AdMarkerRules => ({ ...DEFAULT_AD_MARKER_RULES, ...r });

describe('ad markers that can never be stored', () => {
  it('a pre-roll, mid-rolls inside the audio and a post-roll may be saved', () => {
    expect(adMarkerErrors([pre, mid(300), mid(900), post], 1800)).toEqual({});
  });

  it('a second pre-roll is refused at its Type; a pre-roll with a time at its Seconds', () => {
    const e = adMarkerErrors([pre, { ...pre, Seconds: 5 }], 600);
    expect(Object.keys(e).sort()).toEqual(['AdMarkers.1.Seconds', 'AdMarkers.1.Type']);
    expect(formatFormError(e['AdMarkers.1.Type']!, 'en-US')).toBe('A clip has one pre-roll at most');
  });

  it('a mid-roll at 0, at the end or without a time is refused at its Seconds, naming the end', () => {
    const e = adMarkerErrors([mid(0), mid(600), { Type: 'MidRoll', Seconds: null, MaxAds: 1 }], 600);
    expect(e['AdMarkers.0.Seconds']?.reason).toBe('underflow');
    expect(formatFormError(e['AdMarkers.1.Seconds']!, 'en-US')).toBe('The audio ends at 00:10:00: a mid-roll must come before that');
    expect(e['AdMarkers.2.Seconds']?.type).toBe('required');
  });

  it('two mid-rolls at the same tenth of a second: the later one is refused, naming the first', () => {
    const e = adMarkerErrors([mid(65), mid(65.04)], 600);
    expect(formatFormError(e['AdMarkers.1.Seconds']!, 'en-US')).toBe('Mid-roll 1 is already at 00:01:05: two breaks cannot be at the same time');
  });

  it(`MaxAds is a whole number from 1 to ${AD_MAX_ADS}`, () => {
    expect(Object.keys(adMarkerErrors([mid(10, 0), mid(20, AD_MAX_ADS + 1), mid(30, 1.5), mid(40, AD_MAX_ADS)], null))).toEqual([
      'AdMarkers.0.MaxAds',
      'AdMarkers.1.MaxAds',
      'AdMarkers.2.MaxAds',
    ]);
  });

  it('stored order is pre-roll, mid-rolls by time, post-roll', () => {
    expect(normaliseAdMarkers([post, mid(900.00049), pre, mid(300)])).toEqual([pre, mid(300), mid(900), post]);
  });
});

describe('ad-marker rules', () => {
  it('counts, seconds and ads per break are checked at their field under the prefix', () => {
    const e = adMarkerRulesErrors(rules({ MinMidRolls: -1, MaxMidRolls: 2.5, MinSpacingSeconds: -3, NoMidRollLastSeconds: 90000, MaxAdsPerBreak: 0 }), 'Rules');
    expect(Object.keys(e).sort()).toEqual(['Rules.MaxAdsPerBreak', 'Rules.MaxMidRolls', 'Rules.MinMidRolls', 'Rules.MinSpacingSeconds', 'Rules.NoMidRollLastSeconds']);
  });

  it('the fewest mid-rolls above the most is refused at MinMidRolls', () => {
    const e = adMarkerRulesErrors(rules({ MinMidRolls: 3, MaxMidRolls: 2 }));
    expect(formatFormError(e['AdMarkerRules.MinMidRolls']!, 'en-US')).toBe('The fewest mid-rolls cannot be more than the most (2)');
  });

  it("a clip's override wins over its program's rules; none at all: every rule off", () => {
    const program = rules({ MaxMidRolls: 2 });
    const clip = rules({ MaxMidRolls: 4 });
    expect(effectiveAdMarkerRules(program, clip)).toEqual({ Rules: clip, Source: 'Clip' });
    expect(effectiveAdMarkerRules(program, null)).toEqual({ Rules: program, Source: 'Program' });
    expect(effectiveAdMarkerRules(undefined, undefined)).toEqual({ Rules: DEFAULT_AD_MARKER_RULES, Source: 'None' });
  });
});

describe('violations of the rules, each at the field it names', () => {
  it('no rule set: nothing to say', () => {
    expect(adMarkerViolations([mid(1), mid(2)], DEFAULT_AD_MARKER_RULES, 600)).toEqual([]);
  });

  it('a missing pre-roll and post-roll and too few mid-rolls are said at AdMarkers', () => {
    const v = adMarkerViolations([mid(300)], rules({ PreRollRequired: true, PostRollRequired: true, MinMidRolls: 2 }), 1800);
    expect(v.map((x) => [x.field, x.code])).toEqual([
      ['AdMarkers', 'PreRollMissing'],
      ['AdMarkers', 'PostRollMissing'],
      ['AdMarkers', 'TooFewMidRolls'],
    ]);
    expect(formatFormError(v[2]!.error, 'en-US')).toBe('The ad-marker rules ask for at least 2 mid-rolls; there are 1');
  });

  it('mid-rolls past the most allowed, in time order, are said at their Type', () => {
    const v = adMarkerViolations([mid(900), mid(300), mid(600)], rules({ MaxMidRolls: 2 }), 1800);
    expect(v.map((x) => x.field)).toEqual(['AdMarkers.0.Type']);
    expect(formatFormError(v[0]!.error, 'en-US')).toBe('The ad-marker rules allow 2 mid-rolls at most: this is mid-roll 3');
  });

  it('too early, too late and too close are said at the Seconds of the mid-roll', () => {
    const v = adMarkerViolations([mid(30), mid(600), mid(660), mid(1750)], rules({ NoMidRollFirstSeconds: 120, NoMidRollLastSeconds: 120, MinSpacingSeconds: 300 }), 1800);
    expect(v.map((x) => [x.field, x.code])).toEqual([
      ['AdMarkers.0.Seconds', 'TooEarly'],
      ['AdMarkers.2.Seconds', 'TooClose'],
      ['AdMarkers.3.Seconds', 'TooLate'],
    ]);
    expect(formatFormError(v[0]!.error, 'en-US')).toBe('The ad-marker rules keep the first 2:00 free of mid-rolls');
    expect(formatFormError(v[1]!.error, 'en-US')).toBe('Only 1:00 after mid-roll 2: the ad-marker rules ask for 5:00 between mid-rolls');
  });

  it('a break with more ads than the rules allow is said at its MaxAds', () => {
    const v = adMarkerViolations([pre, mid(300, 4)], rules({ MaxAdsPerBreak: 3 }), 1800);
    expect(v.map((x) => [x.field, x.code])).toEqual([['AdMarkers.1.MaxAds', 'TooManyAds']]);
  });
});

describe('CSV export and import', () => {
  const markers = [pre, mid(750), mid(1410.5, 3), post];

  it('writes a header row and h:mm:ss times, and reads them back to the same markers', () => {
    const csv = adMarkersToCsv(markers);
    expect(csv.split(/\r?\n/).filter(Boolean)).toEqual(['type,time,max_ads', 'pre-roll,,1', 'mid-roll,0:12:30,2', 'mid-roll,0:23:30.5,3', 'post-roll,,1']);
    expect(readAdMarkersCsv(csv, 1800)).toEqual({ ok: true, markers });
  });

  it('reads columns in any order and case, seconds, a pre-roll at 0 and a post-roll at the end', () => {
    const r = readAdMarkersCsv('Max Ads;Type;Time\n2;MidRoll;95.5\n1;pre;0\n1;Post-Roll;1800\n', 1800);
    expect(r).toEqual({ ok: true, markers: [pre, mid(95.5), post] });
  });

  it('says every problem with its line, in the catalogue’s words', () => {
    const r = readAdMarkersCsv('type,time,max_ads\nbumper,10,1\nmid-roll,ten,1\nmid-roll,40,99\n\nmid-roll,1:00,1\nmid-roll,60,2\nmid-roll,2:00:00,1\n', 1800);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => [e.line, formatFormError(e.error, 'en-US')])).toEqual([
      [2, '“bumper” is not a type of marker: write pre-roll, mid-roll or post-roll'],
      [3, '“ten” is not a time: write seconds (95.5) or h:mm:ss (0:01:35)'],
      [4, '“99” is not a number of ads from 1 to 10'],
      [7, 'Mid-roll 1 is already at 00:01:00: two breaks cannot be at the same time'],
      [8, 'The audio ends at 00:30:00: a mid-roll must come before that'],
    ]);
  });

  it('a file without the columns, or without markers, is refused at line 1', () => {
    const noHeader = readAdMarkersCsv('mid-roll,10,1\n', 600);
    expect(noHeader.ok ? [] : noHeader.errors.map((e) => [e.line, e.error.message])).toEqual([[1, 'domain_ad_csv_header']]);
    const empty = readAdMarkersCsv('type,time,max_ads\n', 600);
    expect(empty.ok ? [] : empty.errors.map((e) => [e.line, e.error.message])).toEqual([[1, 'domain_ad_csv_empty']]);
  });
});
