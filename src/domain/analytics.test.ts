import { describe, expect, it } from 'vitest';
import { consumptionCurve, customPlayerName, median, reachSummary, validateCustomPlayerNames } from './analytics.ts';

describe('consumptionCurve', () => {
  // A 10-bucket file of 1,000 bytes lasting 50 s (20 bytes a second); threshold 300 bytes.
  const file = { sizeBytes: 1000, durationSeconds: 50, thresholdBytes: 300 };

  it('counts a listener in each bucket whose middle byte their ranges cover, and gives the median seconds', () => {
    const curve = consumptionCurve(
      [
        [0, 1000], // all: 50 s
        [0, 400, 600, 800], // buckets 0–3 and 6–7 (middles 50…350, 650, 750): 600 bytes, 30 s
        [0, 350], // middles 50…250 covered, 350 is not: 17.5 s
        [0, 299], // under the threshold: not on the curve
      ],
      file,
      10,
    );
    expect(curve).toEqual({ listeners: 3, covered: [3, 3, 3, 2, 1, 1, 2, 2, 1, 1], medianSeconds: 30 });
  });

  it('ignores bytes past the end of the file and has no median without listeners', () => {
    expect(consumptionCurve([[900, 5000]], file, 10).listeners).toBe(0);
    expect(consumptionCurve([], file, 4)).toEqual({ listeners: 0, covered: [0, 0, 0, 0], medianSeconds: null });
  });

  it('takes the mean of the two middle values for an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });
});

describe('reachSummary', () => {
  it('averages the daily unique listeners over every day of the range and picks the earliest peak', () => {
    const days = [
      { date: '2025-04-02', listeners: 3, downloads: 5 },
      { date: '2025-04-01', listeners: 3, downloads: 3 },
    ];
    expect(reachSummary(days, 4)).toEqual({
      days: 4,
      downloads: 8,
      listenerDays: 6,
      averageDailyListeners: 1.5,
      peak: { date: '2025-04-01', listeners: 3, downloads: 3 },
      downloadsPerListenerDay: 1.33,
    });
    expect(reachSummary([], 3)).toEqual({ days: 3, downloads: 0, listenerDays: 0, averageDailyListeners: 0, peak: null, downloadsPerListenerDay: null });
  });
});

describe('custom player names', () => {
  it('names a user agent by the first entry it contains, in any letter case', () => {
    const names = [
      { UserAgentContains: 'StationApp', Name: 'Station' },
      { UserAgentContains: 'app', Name: 'Any app' },
    ];
    expect(customPlayerName(names, 'MySTATIONAPP/2.0')).toBe('Station');
    expect(customPlayerName(names, 'OtherApp/1')).toBe('Any app');
    expect(customPlayerName(names, 'Overcast/3.0')).toBeNull();
    expect(customPlayerName(names, null)).toBeNull();
  });

  it('refuses blanks, short and long texts, long names and a text given twice, by field', () => {
    const errors = validateCustomPlayerNames([
      { UserAgentContains: 'abc', Name: 'Fine' },
      { UserAgentContains: ' ABC ', Name: 'n'.repeat(101) },
      { UserAgentContains: 'x'.repeat(201), Name: ' ' },
    ]).map((e) => [e.field, e.error.type]);
    expect(errors).toEqual([
      ['CustomPlayerNames.1.UserAgentContains', 'invalid'],
      ['CustomPlayerNames.1.Name', 'tooLong'],
      ['CustomPlayerNames.2.UserAgentContains', 'tooLong'],
      ['CustomPlayerNames.2.Name', 'required'],
    ]);
    expect(validateCustomPlayerNames(Array.from({ length: 101 }, (_, i) => ({ UserAgentContains: `app${i}`, Name: 'n' })))[0]?.error.type).toBe('outOfRange');
  });
});
