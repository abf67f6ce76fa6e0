import { describe, expect, it } from 'vitest';
import { clipDefaults } from './clip-defaults.ts';
import { CLIP_RULE_FIELDS, clipFieldErrors, clipSlugToCheck, normaliseClipPatch, type ClipChange, type ClipFieldErrors } from './clip-rules.ts';
import { formatFormError } from './messages.ts';

const saved = { ...clipDefaults(), Title: 'Pilot', Slug: null, Visibility: 'Private' };
const published = { ...saved, Slug: 'pilot', Visibility: 'Public', PublishedUtc: '2026-01-01T00:00:00.000Z' };
const existing = { isNew: false };

/** Each refused field with its code (the server error code where there is one, as the 400 body
 * names it) and its English words. */
function said(errors: ClipFieldErrors): Array<[string, string, string]> {
  return Object.entries(errors).map(([field, e]) => [field, e.reason === 'SlugReservationFailed' ? e.reason : e.type, formatFormError(e, 'en-US')]);
}
const check = (change: ClipChange, current: Record<string, unknown> = saved, options = existing) => said(clipFieldErrors(current, change, options));

describe('section 4: "A title of only whitespace becomes null"', () => {
  it.each([' ', ' \t\n ', ''])('%j is stored as null and is not an error (an untitled clip shows "Untitled clip")', (title) => {
    expect(normaliseClipPatch({ Title: title })).toEqual({ Title: null });
    expect(check({ Title: title })).toEqual([]);
  });

  it('any other title is kept as it was typed', () => {
    expect(normaliseClipPatch({ Title: '  Pilot ' })).toEqual({ Title: '  Pilot ' });
  });

  it('section 5 "Title: maximum length": 255 characters pass, 256 do not', () => {
    expect(check({ Title: 'x'.repeat(255) })).toEqual([]);
    expect(check({ Title: 'x'.repeat(256) })).toEqual([['Title', 'tooLong', 'Title must be 255 characters or shorter']]);
  });

  it('a change that leaves the title out does not check it', () => {
    expect(check({ Episode: 3 }, { ...saved, Title: 'x'.repeat(300) })).toEqual([]);
  });
});

describe('section 5 "Number": Season and Episode are whole numbers from 0 to 2147483647', () => {
  it.each([
    [0, null],
    [2147483647, null],
    [null, null],
    ['', null],
    ['12', null],
    [-1, ['outOfRange', 'Enter a number between 0 and 2147483647']],
    [2147483648, ['outOfRange', 'Enter a number between 0 and 2147483647']],
    [1.5, ['invalid', 'You must enter a valid number']],
    ['two', ['invalid', 'You must enter a valid number']],
  ] as const)('%j → %j', (value, outcome) => {
    expect(check({ Season: value, Episode: value })).toEqual(outcome === null ? [] : [['Episode', ...outcome], ['Season', ...outcome]]);
  });
});

describe('section 4: "ScheduledVisibility and VisibleAtUtc must both be set or both null"', () => {
  const scheduled = { ...saved, ScheduledVisibility: 'Public', VisibleAtUtc: '2031-01-01T07:00:00.000Z', Slug: 'pilot' };

  it('both, or neither, may be saved', () => {
    expect(check({ ScheduledVisibility: 'Public', VisibleAtUtc: '2031-01-01T08:00:00+01:00' })).toEqual([]);
    expect(check({ ScheduledVisibility: null, VisibleAtUtc: null }, scheduled)).toEqual([]);
  });

  it('one without the other names the one missing, whichever field the change touched', () => {
    expect(check({ ScheduledVisibility: 'Public' })).toEqual([['VisibleAtUtc', 'required', 'This field is required']]);
    expect(check({ VisibleAtUtc: '2031-01-01T08:00:00Z' })).toEqual([['ScheduledVisibility', 'required', 'This field is required']]);
    expect(check({ VisibleAtUtc: null }, scheduled)).toEqual([['VisibleAtUtc', 'required', 'This field is required']]);
    expect(check({ ScheduledVisibility: null }, scheduled)).toEqual([['ScheduledVisibility', 'required', 'This field is required']]);
  });

  it('VisibleAtUtc is stored in UTC with milliseconds, and must be a date-time in 1753 or later', () => {
    expect(normaliseClipPatch({ VisibleAtUtc: '2031-01-01T08:00:00+01:00' })).toEqual({ VisibleAtUtc: '2031-01-01T07:00:00.000Z' });
    expect(check({ ScheduledVisibility: 'Public', VisibleAtUtc: 'soon' })).toEqual([['VisibleAtUtc', 'dateInvalid', 'You must enter a valid date and time']]);
    expect(check({ ScheduledVisibility: 'Public', VisibleAtUtc: '1752-12-31T23:59:59Z' })).toEqual([['VisibleAtUtc', 'dateInvalid', 'You must enter a valid date and time']]);
    expect(check({ ScheduledVisibility: 'Public', VisibleAtUtc: '1753-01-01T00:00:00Z' })).toEqual([]);
  });
});

describe('section 5 "URL": an RSS link override, when given, is a valid http(s) URL', () => {
  it.each([
    ['https://example.com/feed.xml', []],
    [null, []],
    ['', []],
    ['example', [['RssLinkOverride', 'urlInvalid', 'The URL must start with http://, https://']]],
    ['ftp://example.com/feed', [['RssLinkOverride', 'urlInvalid', 'The URL must start with http://, https://']]],
  ] as const)('%j', (url, outcome) => expect(check({ RssLinkOverride: url })).toEqual(outcome));
});

describe('section 4 and 5: the slug a clip needs', () => {
  const required = ['Slug', 'required', 'You must enter a slug'];

  it.each(['Public', 'Unlisted', 'Restricted'])('"%s … need[s] … Slug": a clip without one cannot take that visibility', (visibility) => {
    expect(check({ Visibility: visibility })).toEqual([required]);
    expect(check({ Visibility: visibility, Slug: '' })).toEqual([required]);
    expect(check({ Visibility: visibility, Slug: 'pilot' })).toEqual([]);
  });

  it('"Private may have a null Slug"', () => {
    expect(check({ Visibility: 'Private', Slug: null }, { ...published, Slug: null })).toEqual([]);
    expect(check({ Visibility: 'Private' }, published)).toEqual([]);
  });

  it('"Required if … a slug was already saved": a saved slug cannot be cleared, even on a Private clip', () => {
    expect(check({ Slug: null }, { ...saved, Slug: 'pilot' })).toEqual([required]);
    expect(check({ Slug: '' }, { ...saved, Slug: 'pilot' })).toEqual([required]);
  });

  it('a public clip keeps its slug through other changes, and cannot lose it', () => {
    expect(check({ Title: 'Renamed' }, published)).toEqual([]);
    expect(check({ Slug: null }, published)).toEqual([required]);
  });

  it('a new clip is checked as a whole: Public needs a slug from the start', () => {
    const fresh = clipDefaults();
    expect(check({ Title: 'New' }, fresh, { isNew: true })).toEqual([]);
    expect(check({ Title: 'New', Visibility: 'Public' }, fresh, { isNew: true })).toEqual([required]);
    expect(check({ Visibility: 'Public', Slug: 'new-episode' }, fresh, { isNew: true })).toEqual([]);
    expect(check({ Slug: 'new' }, fresh, { isNew: true })).toEqual([['Slug', 'SlugReservationFailed', 'This slug is reserved for use by the product']]);
  });

  it('"Only lowercase Latin letters, numbers or dashes; no spaces, multiple dashes, or leading or trailing dashes"', () => {
    const invalid = ['Slug', 'invalid', 'Use only lowercase letters, numbers and single dashes, not at the start or end'];
    for (const slug of ['Pilot', 'pi lot', 'pi--lot', '-pilot', 'pilot-', 'pilöt']) expect(check({ Slug: slug }), slug).toEqual([invalid]);
  });

  it('"This slug is reserved for use by the product" (SlugReservationFailed), unless it is the slug already saved', () => {
    expect(check({ Slug: 'admin' })).toEqual([['Slug', 'SlugReservationFailed', 'This slug is reserved for use by the product']]);
    expect(check({ Visibility: 'Public' }, { ...saved, Slug: 'admin' })).toEqual([]);
  });

  it('the slug is not looked at when neither it nor the visibility changes', () => {
    expect(check({ Title: 'x' }, { ...saved, Visibility: 'Public', Slug: null })).toEqual([]);
  });
});

describe('every refused field at once, in one order', () => {
  it('lists Title, Episode, Season, the schedule, the URL and the Slug in CLIP_RULE_FIELDS order', () => {
    const errors = clipFieldErrors(saved, { Slug: 'Bad Slug', RssLinkOverride: 'nope', ScheduledVisibility: 'Public', Season: 1.5, Episode: -1, Title: 'x'.repeat(256) }, existing);
    expect(Object.keys(errors)).toEqual(['Title', 'Episode', 'Season', 'VisibleAtUtc', 'RssLinkOverride', 'Slug']);
    expect(CLIP_RULE_FIELDS.filter((f) => f in errors)).toEqual(Object.keys(errors));
  });
});

describe('the slug left for the store to check (SlugExists: "This slug is already in use in this program")', () => {
  it.each([
    ['a new slug', saved, { Slug: 'pilot' }, existing, 'pilot'],
    ['the slug already saved', { ...saved, Slug: 'pilot' }, { Slug: 'pilot', Title: 'x' }, existing, null],
    ['no slug', saved, { Slug: '' }, existing, null],
    ['a change without a slug', { ...saved, Slug: 'pilot' }, { Visibility: 'Public' }, existing, null],
    ['a new clip with a slug', clipDefaults(), { Slug: 'pilot' }, { isNew: true }, 'pilot'],
  ] as const)('%s', (_, current, change, options, slug) => {
    expect(clipSlugToCheck(current, change, options)).toBe(slug);
  });
});
