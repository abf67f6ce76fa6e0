import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDuration, formatPreciseTime, formatTimeEntry, parseTimeEntry, parseTimeString, readPreciseTime, validateTimeEntry, validateTimeWithin } from './time.ts';
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


describe('a position in audio, with a fraction of a second (the selection boxes)', () => {
  const seconds = (text: string, unit?: 'minutes' | 'seconds') => {
    const r = readPreciseTime(text, unit);
    return r.ok ? r.seconds : r.problem;
  };

  it.each([
    ['0:01.5', 1.5],
    ['0:01,5', 1.5],
    ['1:02.25', 62.25],
    ['00:01:30.5', 90.5],
    ['1:02:03.125', 3723.125],
    ['0:01.1', 1.1],
    ['1.5', 1.5],
    ['12', 12],
    [' 0:00.0 ', 0],
    ['00:00:02', 2],
    ['0:75.5', 75.5],
    ['0:75:10.5', 4510.5],
    ['0:59.9', 59.9],
    ['99:59:59.9', 359999.9],
  ] as const)('%j is %s s', (text, expected) => expect(seconds(text)).toBe(expected));

  it('one part may be read as minutes when the caller says so', () => {
    expect(seconds('1.5', 'minutes')).toBe(90);
    expect(seconds('2', 'minutes')).toBe(120);
  });

  it.each([
    ['1:60.0', 'shape'],
    ['1:60', 'shape'],
    ['1:00:60.5', 'shape'],
    ['1:60:00.5', 'shape'],
    ['100:00:00.5', 'hours'],
    ['100:00:00', 'hours'],
    ['-0:01.5', 'shape'],
    ['-1.5', 'shape'],
    ['0:01.', 'shape'],
    ['0:.5', 'shape'],
    ['.5', 'shape'],
    ['0:01.1234', 'shape'],
    ['0.5:01', 'shape'],
    ['1:2:3:4', 'shape'],
    ['1:02.5.5', 'shape'],
    ['1:2 3', 'shape'],
    ['abc', 'shape'],
    ['1e3', 'shape'],
    ['', 'required'],
    ['   ', 'required'],
  ] as const)('%j is refused: %s', (text, problem) => expect(seconds(text)).toBe(problem));

  it('refusals carry the time entry’s words: the hours bound and the required field', () => {
    const hours = readPreciseTime('100:00:00.5');
    expect(hours.ok === false && formatFormError(hours.error, 'en-US')).toBe('Hours cannot be more than 99');
    const empty = readPreciseTime(null);
    expect(empty.ok === false && empty.error.type).toBe('required');
  });

  it.each([
    [0, '00:00:00'],
    [1.5, '00:00:01.5'],
    [2.04, '00:00:02'],
    [2.96, '00:00:03'],
    [3723.25, '01:02:03.3'],
    [-1, '00:00:00'],
    [500_000, '99:59:59.9'],
  ])('formatPreciseTime(%s) → %s', (s, out) => expect(formatPreciseTime(s)).toBe(out));

  it('property: a formatted position reads back as itself, to the tenth', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: (99 * 3600 + 3599) * 10 + 9 }), (tenths) => {
      const r = readPreciseTime(formatPreciseTime(tenths / 10));
      return r.ok && Math.round(r.seconds * 10) === tenths;
    }));
  });

  it('property: every whole-second time string of section 5 reads the same with and without ".0"', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99 * 3600 + 3599 }), (s) => {
      const text = formatDuration(s);
      const plain = readPreciseTime(text);
      const tenths = readPreciseTime(`${text}.0`);
      return plain.ok && tenths.ok && plain.seconds === s && tenths.seconds === s && parseTimeString(text) === s;
    }));
  });
});
