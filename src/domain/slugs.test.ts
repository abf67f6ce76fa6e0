import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SLUG_MAX_LENGTH } from './constants.ts';
import { formatFormError } from './messages.ts';
import { RESERVED_SLUGS, slugFieldError, slugFromTitle } from './slugs.ts';
import { validateSlug } from './validators.ts';

const text = (e: ReturnType<typeof slugFieldError>) => (e === null ? null : formatFormError(e, 'en-US'));
const open = { alwaysRequired: false, savedSlug: null } as const;

describe('slugFieldError: every slug rule of section 5 but uniqueness', () => {
  it('"This slug is reserved for use by the product", from server error code SlugReservationFailed, for every owner', () => {
    for (const owner of ['clip', 'playlist', 'program'] as const) {
      const error = slugFieldError('admin', { ...open, owner });
      expect(error?.reason).toBe('SlugReservationFailed');
      expect(text(error)).toBe('This slug is reserved for use by the product');
    }
  });

  it('a reserved slug saved before the list had it may be kept', () => {
    expect(slugFieldError('feed', { owner: 'playlist', alwaysRequired: true, savedSlug: 'feed' })).toBeNull();
  });

  it('"Required if always required or if a slug was already saved"', () => {
    expect(text(slugFieldError(null, { owner: 'clip', alwaysRequired: true, savedSlug: null }))).toBe('You must enter a slug');
    expect(text(slugFieldError('', { owner: 'clip', alwaysRequired: false, savedSlug: 'pilot' }))).toBe('You must enter a slug');
    expect(slugFieldError(null, { ...open, owner: 'clip' })).toBeNull();
  });

  it('the format comes first: a malformed slug is invalid, whatever the list holds', () => {
    expect(slugFieldError('Admin', { ...open, owner: 'clip' })?.type).toBe('invalid');
    expect(slugFieldError('weekly-news', { ...open, owner: 'clip' })).toBeNull();
  });
});

describe('slugFromTitle: section 5\'s normaliser applied to a title', () => {
  it.each([
    ['Episode 12: The Return!', 'episode-12-the-return'],
    ['  Morning --  News\t', 'morning-news'],
    ['Überraschung', 'berraschung'],
    ['Admin', 'admin-2'],
    ['!!!', null],
    ['', null],
    [null, null],
  ] as const)('%j → %j', (title, slug) => expect(slugFromTitle(title)).toBe(slug));

  it('a slug in use gets the first free number', () => {
    const taken = new Set(['pilot', 'pilot-2']);
    expect(slugFromTitle('Pilot', (s) => taken.has(s))).toBe('pilot-3');
  });

  it('a long title is cut to the longest slug allowed, the number included, without an edge dash', () => {
    const long = `${'a'.repeat(97)} b c`;
    expect(slugFromTitle(long)).toBe(`${'a'.repeat(97)}-b`);
    const full = 'a'.repeat(SLUG_MAX_LENGTH);
    expect(slugFromTitle(full)).toBe(full);
    expect(slugFromTitle(full, (s) => s === full)).toBe(`${'a'.repeat(SLUG_MAX_LENGTH - 2)}-2`);
    expect(slugFromTitle(long, (s) => s === `${'a'.repeat(97)}-b`)).toBe(`${'a'.repeat(97)}-2`);
  });

  it('gives up (no proposal) when every numbered variant is in use', () => {
    expect(slugFromTitle('Pilot', () => true)).toBeNull();
  });

  it('every proposal passes the slug rules and is not reserved', () => {
    fc.assert(
      fc.property(fc.string(), (title) => {
        const slug = slugFromTitle(title);
        return slug === null || (validateSlug(slug) === null && !RESERVED_SLUGS.has(slug));
      }),
      { numRuns: 2000 },
    );
  });
});
