import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  isEmpty,
  isGuid,
  normalizeSlug,
  parseInteger,
  parseNumber,
  slugFromText,
  splitEmails,
  splitLines,
  validateEmail,
  validateEmails,
  validateGuid,
  validateInteger,
  validateName,
  validateNumber,
  validatePageSize,
  validateRequired,
  validateSlug,
  validateTitle,
  validateUrl,
} from './validators.ts';
import { formatFormError } from './messages.ts';
import type { FormError } from './form-errors.ts';

const text = (e: FormError | null) => (e === null ? null : formatFormError(e, 'en-US'));

describe('Required: "null or empty gives required"', () => {
  it.each([
    [null, true],
    [undefined, true],
    ['', true],
    ['   ', true],
    [[], true],
    ['x', false],
    [0, false],
    [['a'], false],
  ])('%j → required %s', (value, required) => {
    expect(isEmpty(value)).toBe(required);
    expect(validateRequired(value)?.type ?? null).toBe(required ? 'required' : null);
  });

  it('text areas are split by line, trimmed, empties dropped', () => {
    expect(splitLines(' a \r\n\n b\r  \nc  ')).toEqual(['a', 'b', 'c']);
  });
});

describe('Name: "You must enter a name"; maximum length', () => {
  it.each([
    ['', 'You must enter a name'],
    ['  ', 'You must enter a name'],
    ['Ann', null],
    ['x'.repeat(101), 'Name must be 100 characters or shorter'],
    ['x'.repeat(100), null],
  ])('%j → %s', (value, message) => expect(text(validateName(value))).toBe(message));

  it('honours a caller-supplied maximum', () => expect(validateName('abcd', { maxLength: 3 })?.type).toBe('tooLong'));
});

describe('Title: required, minimum length, maximum length', () => {
  it.each([
    [null, {}, 'required'],
    ['', { required: false }, null],
    ['ab', { minLength: 3 }, 'tooShort'],
    ['abcd', { maxLength: 3 }, 'tooLong'],
    ['abc', { minLength: 3, maxLength: 3 }, null],
  ] as const)('%j %j → %s', (value, options, type) => expect(validateTitle(value, options)?.type ?? null).toBe(type));
  it('says "You must enter a title"', () => expect(text(validateTitle(' '))).toBe('You must enter a title'));
});

describe('Slug', () => {
  it.each([
    ['my-episode-1', null],
    ['My-Episode', 'invalid'],
    ['two words', 'invalid'],
    ['double--dash', 'invalid'],
    ['-leading', 'invalid'],
    ['trailing-', 'invalid'],
    ['émission', 'invalid'],
    ['a_b', 'invalid'],
  ] as const)('only lowercase Latin letters, numbers or single dashes: %j → %s', (value, type) =>
    expect(validateSlug(value)?.type ?? null).toBe(type),
  );

  it('is required if always required or if a slug was already saved', () => {
    expect(validateSlug('', {})).toBeNull();
    expect(validateSlug(null, { savedSlug: null })).toBeNull();
    expect(text(validateSlug('', { alwaysRequired: true }))).toBe('You must enter a slug');
    expect(validateSlug(undefined, { savedSlug: 'old-slug' })?.type).toBe('required');
  });

  it('too long, too short', () => {
    expect(validateSlug('abc', { minLength: 4 })?.type).toBe('tooShort');
    expect(validateSlug('abcde', { maxLength: 4 })?.type).toBe('tooLong');
    expect(validateSlug('x'.repeat(100))).toBeNull();
    expect(validateSlug('x'.repeat(101))?.type).toBe('tooLong');
  });

  it.each([
    ['Hello World', 'hello-world'],
    ['A \t- B', 'a-b'],
    ['Rock & Roll!', 'rock-roll'],
    ['a-!-b', 'a-b'],
    ['Ünïcödé', 'ncd'],
  ])('the normaliser lowercases, turns runs of spaces, tabs and hyphens into one hyphen and drops other characters: %j → %j', (input, out) =>
    expect(normalizeSlug(input)).toBe(out),
  );

  it('slugFromText gives a valid slug without edge dashes', () => {
    expect(slugFromText('  -- Hello, World! -- ')).toBe('hello-world');
    expect(slugFromText('abc def', 4)).toBe('abc');
  });

  it('property: the normaliser is idempotent', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => normalizeSlug(normalizeSlug(s)) === normalizeSlug(s)), { numRuns: 2000 });
  });

  it('property: a valid slug is unchanged by the normaliser', () => {
    const slug = fc
      .array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 1, maxLength: 6 })
      .map((parts) => parts.join('-'));
    fc.assert(
      fc.property(slug, (s) => {
        expect(validateSlug(s)).toBeNull();
        expect(normalizeSlug(s)).toBe(s);
      }),
    );
  });

  it('property: a slug made from any text passes the slug rule (or is empty)', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      const slug = slugFromText(s);
      return slug === '' || validateSlug(slug) === null;
    }));
  });
});

describe('Number', () => {
  it.each([
    ['', {}, null],
    ['', { required: true }, 'You must enter a number'],
    ['abc', {}, 'You must enter a valid number'],
    ['1.5', {}, null],
    ['-.5e2', {}, null],
    ['5', { min: 1, max: 4 }, 'Enter a number between 1 and 4'],
    ['0', { min: 1 }, 'Enter a number of 1 or more'],
    ['9', { max: 8 }, 'Enter a number of 8 or less'],
    [Number.NaN, {}, 'You must enter a valid number'],
    [3, { min: 1, max: 4 }, null],
  ] as const)('validateNumber(%j, %j) → %s', (value, options, message) => expect(text(validateNumber(value, options))).toBe(message));

  it('out of range gives underflow or overflow', () => {
    expect(validateNumber('0', { min: 1, max: 2 })).toMatchObject({ type: 'outOfRange', reason: 'underflow' });
    expect(validateNumber('3', { min: 1, max: 2 })).toMatchObject({ type: 'outOfRange', reason: 'overflow' });
  });

  it.each([
    ['2147483647', null],
    ['+2147483647', null],
    ['2147483648', 'overflow'],
    ['-2147483648', null],
    ['-2147483649', 'underflow'],
    ['1.0', 'invalid'],
    ['1e3', 'invalid'],
    [' 12 ', null],
    ['0x10', 'invalid'],
  ])('integers are an optionally signed decimal only; the largest is 2147483647: %j → %s', (value, outcome) => {
    const error = validateInteger(value);
    expect(error === null ? null : error.type === 'invalid' ? 'invalid' : error.reason).toBe(outcome);
  });

  it('a caller maximum above 2147483647 is capped', () => {
    expect(validateInteger('2147483648', { max: Number.MAX_SAFE_INTEGER })?.params).toMatchObject({ max: 2147483647 });
  });

  it('parses', () => {
    expect(parseInteger('-7')).toBe(-7);
    expect(parseInteger(7)).toBe(7);
    expect(parseInteger(7.5)).toBeNull();
    expect(parseNumber(Infinity)).toBeNull();
    expect(parseNumber(' 2.5 ')).toBe(2.5);
  });

  it.each([
    [1, null],
    [2500, null],
    [0, 'Enter a number between 1 and 2500'],
    [2501, 'Enter a number between 1 and 2500'],
    [null, 'You must enter a number'],
    ['25.5', 'You must enter a valid number'],
  ])('the page-style integer runs 1 to 2500: %j → %s', (value, message) => expect(text(validatePageSize(value))).toBe(message));

  it('an optional page size may be absent', () => expect(validatePageSize(undefined, { required: false })).toBeNull());
});

describe('URL', () => {
  it.each([
    ['https://example.com/feed', {}, null],
    ['http://example.com', {}, null],
    ['', {}, null],
    ['', { required: true }, 'You must enter a URL'],
    ['ftp://example.com', {}, 'The URL must start with http://, https://'],
    ['http://example.com', { schemes: ['https'] }, 'The URL must start with https://'],
    ['example.com/path', {}, 'The URL must start with http://, https://'],
    ['example.com/path', { allowWithoutScheme: true }, null],
    ['https://exa mple.com', {}, 'You must enter a valid URL'],
    ['https://example.com/a%20b', {}, 'You must enter a valid URL'],
    ['https://example.com/\tx', {}, 'You must enter a valid URL'],
    ['https://example.com/\nx', {}, 'You must enter a valid URL'],
    ['https://example.com/\rx', {}, 'You must enter a valid URL'],
    ['https://localhost/x', {}, 'You must enter a valid URL'],
    ['https://.example.com', {}, 'You must enter a valid URL'],
    ['https://example.com./', {}, 'You must enter a valid URL'],
    ['https://[::1/', {}, 'You must enter a valid URL'],
    ['http://a.b', { minLength: 20 }, 'URL must be 20 characters or longer'],
    ['https://example.com/' + 'x'.repeat(2048), {}, 'URL must be 2048 characters or shorter'],
  ] as const)('%j %j → %s', (value, options, message) => expect(text(validateUrl(value, options))).toBe(message));
});

describe('GUID: "Not a valid GUID"', () => {
  it.each([
    ['3f2504e0-4f89-11d3-9a0c-0305e82c3301', null],
    ['3F2504E0-4F89-11D3-9A0C-0305E82C3301', null],
    ['3f2504e04f8911d39a0c0305e82c3301', 'Not a valid GUID'],
    ['not-a-guid', 'Not a valid GUID'],
    ['', null],
  ])('%j → %s', (value, message) => expect(text(validateGuid(value))).toBe(message));
  it('required', () => expect(validateGuid(null, { required: true })?.type).toBe('required'));
  it('isGuid rejects non-strings', () => expect(isGuid(42)).toBe(false));
});

describe('E-mail', () => {
  it.each([
    ['ann@example.com', null],
    [' ann@example.com ', null],
    ['ann@example', '"ann@example" is not a valid email address'],
    ['ann', '"ann" is not a valid email address'],
    ['', 'Please enter an email address'],
    [null, 'Please enter an email address'],
  ])('%j → %s', (value, message) => expect(text(validateEmail(value))).toBe(message));

  it('an optional address may be empty', () => expect(validateEmail('', { required: false })).toBeNull());

  it('multi-address fields split on semicolon, trim, drop empties and report all invalid ones', () => {
    expect(splitEmails(' a@b.co ;; c@d.co ; ')).toEqual(['a@b.co', 'c@d.co']);
    expect(validateEmails('a@b.co; bad ; c@d.co;worse').map((e) => text(e))).toEqual([
      '"bad" is not a valid email address',
      '"worse" is not a valid email address',
    ]);
    expect(validateEmails(' ; ').map((e) => e.type)).toEqual(['required']);
    expect(validateEmails(null, { required: false })).toEqual([]);
    expect(validateEmails('a@b.co')).toEqual([]);
  });
});
