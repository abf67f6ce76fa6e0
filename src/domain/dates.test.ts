import { describe, expect, it } from 'vitest';
import { daysInRange, parseIsoDate, validateDate, validateDateRange } from './dates.ts';
import { formatFormError } from './messages.ts';
import type { FormError } from './form-errors.ts';

const text = (e: FormError | null) => (e === null ? null : formatFormError(e, 'en-US'));

describe('Dates: must parse and have year 1753 or later, else dateInvalid', () => {
  it.each([
    ['1753-01-01', true],
    ['1752-12-31', false],
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-13-01', false],
    ['2024-01-01T10:30', true],
    ['2024-01-01T24:00', false],
    ['2024-01-01T10:30:15.5Z', true],
    ['2024-01-01T10:30:15+02:00', true],
    ['01/02/2024', false],
    ['yesterday', false],
  ])('%s parses: %s', (value, ok) => expect(parseIsoDate(value) !== null).toBe(ok));

  it('honours the offset', () => {
    expect(parseIsoDate('2024-01-01T02:00:00+02:00')).toBe(Date.UTC(2024, 0, 1));
    expect(parseIsoDate('2024-01-01T00:00:00-01:30')).toBe(Date.UTC(2024, 0, 1, 1, 30));
  });
});

describe('Single date and date-time', () => {
  it.each([
    ['', {}, null],
    ['', { required: true }, 'You must enter a date'],
    ['1752-12-31', {}, 'You must enter a valid date'],
    ['1752-12-31T00:00', { withTime: true }, 'You must enter a valid date and time'],
    ['2024-06-01', { max: '2024-06-01' }, null],
    ['2024-06-02', { max: '2024-06-01' }, 'Date must be 2024-06-01 or earlier'],
    ['2024-05-31', { min: '2024-06-01' }, 'Date must be 2024-06-01 or later'],
    ['2024-06-01', { min: '2024-06-01' }, null],
  ] as const)('%j %j → %s', (value, options, message) => expect(text(validateDate(value, options))).toBe(message));
});

describe('Date ranges', () => {
  it.each([
    ['', '', {}, null],
    [null, null, { required: true }, 'You must enter a date'],
    ['x', 'y', {}, 'You must enter a valid start date and end date'],
    ['1700-01-01', '2024-01-01', {}, 'You must enter a valid start date'],
    ['2024-01-01', '', {}, 'You must enter a valid end date'],
    ['2024-02-01', '2024-01-01', {}, 'End date must be after the start date'],
    ['2024-01-01', '2024-01-01', {}, null],
    ['2023-12-31', '2024-01-10', { min: '2024-01-01', max: '2024-12-31' }, 'Date range must be between 2024-01-01 and 2024-12-31'],
    ['2024-01-01', '2025-01-01', { min: '2024-01-01', max: '2024-12-31' }, 'Date range must be between 2024-01-01 and 2024-12-31'],
    ['2024-01-01', '2025-01-01', { max: '2024-12-31' }, 'End date must be 2024-12-31 or earlier'],
    ['2023-01-01', '2024-01-01', { min: '2024-01-01' }, 'Start date must be 2024-01-01 or later'],
    ['2024-01-01', '2024-01-31', { numberOfDaysLimit: 31 }, null],
    ['2024-01-01', '2024-02-01', { numberOfDaysLimit: 31 }, 'Date range cannot exceed 31 day(s)'],
    ['2024-01-01', '2024-01-01', { numberOfDaysLimit: 1 }, null],
  ] as const)('%j to %j %j → %s', (start, end, options, message) => expect(text(validateDateRange(start, end, options))).toBe(message));

  it('reports which end is invalid and the direction of a range error', () => {
    expect(validateDateRange('2024-01-01', 'nope')).toMatchObject({ type: 'dateInvalid', reason: 'end' });
    expect(validateDateRange('2024-02-01', '2024-01-01')?.type).toBe('reversed');
    expect(validateDateRange('2023-12-31', '2024-01-10', { min: '2024-01-01', max: '2024-12-31' })?.reason).toBe('underflow');
  });

  it('counts both ends of a range', () => expect(daysInRange(Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 31))).toBe(31));
});

describe('caller bounds that do not parse are ignored', () => {
  it('an unparsable min or max does not reject a valid date', () => {
    expect(validateDate('2024-01-01', { min: 'never', max: 'never' })).toBeNull();
    expect(validateDateRange('2024-01-01', '2024-01-02', { min: 'never', max: 'never' })).toBeNull();
  });
});
