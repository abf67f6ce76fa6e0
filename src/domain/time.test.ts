import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDuration, formatTimeEntry, parseTimeEntry, parseTimeString, validateTimeEntry, validateTimeWithin } from './time.ts';
import { formatFormError } from './messages.ts';

describe('Time strings', () => {
  it.each([
    ['75', 'seconds', 75],
    ['75', 'minutes', 4500],
    ['0:75', 'seconds', 75],
    ['1:59', 'seconds', 119],
    ['1:60', 'seconds', null],
    ['0:75:10', 'seconds', 4510],
    ['1:59:59', 'seconds', 7199],
    ['1:60:00', 'seconds', null],
    ['1:00:60', 'seconds', null],
    ['99:59:59', 'seconds', 359999],
    ['100:00:00', 'seconds', null],
    ['-1', 'seconds', null],
    ['-1:00', 'seconds', null],
    ['1.5', 'seconds', null],
    ['1:2:3:4', 'seconds', null],
    ['', 'seconds', null],
    ['a:b', 'seconds', null],
    [' 2:05 ', 'seconds', 125],
  ] as const)('%j read with one part as %s → %s', (input, unit, seconds) => expect(parseTimeString(input, unit)).toBe(seconds));

  it('one part defaults to seconds', () => expect(parseTimeString('42')).toBe(42));

  it.each([
    [0, '0:00'],
    [59, '0:59'],
    [61, '1:01'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [359999, '99:59:59'],
    [61.9, '1:01'],
    [null, '--:--'],
    [undefined, '--:--'],
    [Number.NaN, '--:--'],
    [-1, '--:--'],
  ])("formatDuration(%s) → %s (an unknown duration shows '--:--')", (s, out) => expect(formatDuration(s)).toBe(out));

  it('property: time strings round-trip for every duration up to 99:59:59', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99 * 3600 + 3599 }), (s) => parseTimeString(formatDuration(s)) === s));
  });
});

describe('Time entry: format HH:MM:SS, hours max 99', () => {
  it.each([
    ['00:00:00', null],
    ['99:59:59', null],
    ['100:00:00', 'Hours cannot be more than 99'],
    ['01:60:00', 'Enter a time as HH:MM:SS'],
    ['01:00:60', 'Enter a time as HH:MM:SS'],
    ['1:00:00', 'Enter a time as HH:MM:SS'],
    ['01:00', 'Enter a time as HH:MM:SS'],
    ['', null],
  ])('%j → %s', (value, message) => {
    const error = validateTimeEntry(value);
    expect(error === null ? null : formatFormError(error, 'en-US')).toBe(message);
  });

  it('required entries must be filled', () => expect(validateTimeEntry(null, { required: true })?.type).toBe('required'));

  it('parses and formats entries, capped at 99:59:59', () => {
    expect(parseTimeEntry('01:02:03')).toBe(3723);
    expect(parseTimeEntry('100:00:00')).toBeNull();
    expect(formatTimeEntry(3723)).toBe('01:02:03');
    expect(formatTimeEntry(500_000)).toBe('99:59:59');
    expect(formatTimeEntry(-5)).toBe('00:00:00');
  });

  it('property: entries round-trip', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99 * 3600 + 3599 }), (s) => parseTimeEntry(formatTimeEntry(s)) === s));
  });
});

describe('a time within a recording', () => {
  it('is at most its end, and anything while the length is unknown', () => {
    expect(validateTimeWithin(30 * 60, 30 * 60)).toBeNull();
    expect(validateTimeWithin(3600, 30 * 60)).toEqual({ type: 'outOfRange', message: 'domain_time_after_end', params: { max: '00:30:00' }, reason: 'overflow' });
    expect(formatFormError(validateTimeWithin(3600, 12)!)).toBe('The recording ends at 00:00:12: enter a time up to then');
    expect(validateTimeWithin(3600, null)).toBeNull();
    expect(validateTimeWithin(3600, 0)).toBeNull();
  });

  it("a clip's says the clip ends there", () => {
    expect(validateTimeWithin(13, 12.5, 'clip')).toEqual({ type: 'outOfRange', message: 'domain_time_after_clip_end', params: { max: '00:00:12' }, reason: 'overflow' });
    expect(formatFormError(validateTimeWithin(13, 12.5, 'clip')!)).toBe('The clip ends at 00:00:12: enter a time up to then');
    expect(formatFormError(validateTimeWithin(13, 12.5, 'clip')!, 'de-DE')).toBe('Der Clip endet bei 00:00:12: Geben Sie eine Zeit bis dahin ein');
    expect(validateTimeWithin(12, 12.5, 'clip')).toBeNull();
  });
});

